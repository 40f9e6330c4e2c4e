// Runtime configuration flags shared by every kernel command: topology,
// thread binding, placement and page size. The NUMA layer owns their meaning;
// the CLI only parses them and reports what was obtained in every record.
#pragma once

#include <CLI/CLI.hpp>

#include "numagraph/profile/record.hpp"

namespace numagraph::cli {

// The NUMA runtime flags; `array_roles`: also --place and --placement-report,
// for commands whose arrays carry roles (the kernels, not topology or the benches).
void add_runtime_options(CLI::App& app, bool array_roles = true);
// Configures the NUMA runtime (topology, pinning, pages) for `threads` threads.
void apply_runtime_options(int threads);
// Adds topology, bind, placement and pages (as obtained) to a record.
void add_runtime_fields(profile::Record& rec);

}  // namespace numagraph::cli
