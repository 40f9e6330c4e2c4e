#include "numagraph/runtime_info.hpp"

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/placement.hpp"

namespace numagraph::cli {

// Until the NUMA layer lands these report the plain defaults: the machine's
// own topology, no pinning, first-touch placement and the default page size.
void add_runtime_options(CLI::App&) {}
void apply_runtime_options(int) {}

void add_runtime_fields(profile::Record& rec) {
  rec.set("topology", "machine")
      .set("bind", "none")
      .set("placement", "local")
      .set("pages", numa::to_string(numa::default_page_size()));
}

}  // namespace numagraph::cli
