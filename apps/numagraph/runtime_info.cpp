#include "runtime_info.hpp"

#include <memory>
#include <string>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {

namespace {
struct RuntimeFlags {
  std::string topology, bind = "compact", pages = "thp", placement = "local", place;
  bool smt = false, report = false;
};
RuntimeFlags& flags() {
  static RuntimeFlags f;
  return f;
}
}  // namespace

void add_runtime_options(CLI::App& app, bool array_roles) {
  RuntimeFlags& f = flags();
  app.add_option("--topology", f.topology,
                 "NUMA topology: an hwloc synthetic string (\"pack:4 numa:1 core:2 pu:1\"), an XML file, or "
                 "'machine' (default; env NUMAGRAPH_TOPOLOGY)");
  app.add_option("--bind", f.bind, "thread pinning: compact (fill node 0 first, default), scatter or none")
      ->check(CLI::IsMember({"compact", "scatter", "none"}));
  app.add_flag("--smt", f.smt, "one thread per hardware thread (PU) instead of per core");
  app.add_option("--pages", f.pages, "page size: 4k, thp (default), 2m or 1g (hugetlbfs, falls back)")
      ->check(CLI::IsMember({"4k", "thp", "2m", "1g"}));
  app.add_option("--placement", f.placement,
                 "placement of big arrays that do not choose their own (graph storage, flat-engine arrays): "
                 "local (first touch, default), interleave (pages round-robin over the nodes), partitioned (one "
                 "block per node)")
      ->check(CLI::IsMember({"local", "interleave", "partitioned"}));
  if (!array_roles) return;
  std::string roles;
  for (const numa::RoleInfo& r : numa::roles()) roles += std::string(roles.empty() ? "" : "; ") + r.name + " = " + r.arrays;
  app.add_option("--place", f.place,
                 "placement per array role, ROLE=POLICY[,ROLE=POLICY...], e.g. graph=interleave,ranks=partitioned; "
                 "policies: local, interleave, partitioned, bind:N (node N of the topology), replicate (read-only "
                 "arrays only); a role not named keeps --placement (flat kernels) or its kernel's own layout (the "
                 "NUMA engine's partitioned arrays). Roles: " + roles + " (docs/numa.md)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              numa::parse_place(text);
              return {};
            } catch (const UsageError& e) {
              return e.what();
            }
          },
          "ROLE=POLICY,..."));
  app.add_flag("--placement-report", f.report,
               "report where the pages of the kernel's own arrays landed, per role: bytes, policy asked and "
               "obtained, page size, sampled pages per node (a 'placement_report' list with --json, else lines on "
               "stderr); adds a page query per array, so do not compare its times");
}

void apply_runtime_options(int threads) {
  const RuntimeFlags& f = flags();
  numa::RuntimeConfig c;
  c.topology = f.topology;
  c.threads = threads;
  c.bind = numa::parse_bind(f.bind);
  c.smt = f.smt;
  c.pages = numa::parse_pages(f.pages);
  c.placement = numa::parse_placement(f.placement);
  numa::Runtime::get().configure(c);
  numa::set_role_placements(numa::parse_place(f.place));  // after configure: bind:N is checked against its nodes
  numa::set_placement_report(f.report);
}

void add_runtime_fields(profile::Record& rec) {
  const numa::Runtime& rt = numa::Runtime::get();
  if (!rt.configured()) {
    rec.set("topology", "machine").set("numa_nodes", numa::physical_nodes()).set("bind", "none");
    rec.set("placement", "local").set("pages", "unknown");
    return;
  }
  // The page size obtained: probe a 4 MiB array under the default page size
  // and ask the kernel what backs it (a thp request may get no huge page, a
  // 2m request may fall back to thp when no hugetlbfs pool exists).
  NumaArray<char> probe(std::size_t{4} << 20, numa::Placement::local());
  probe.first_touch();
  const std::string requested = numa::to_string(rt.config().pages);
  const std::string got = numa::page_report(probe.data(), probe.size(), 64).page_size();
  rec.set("topology", rt.topology().synthetic ? rt.topology().source : std::string("machine"))
      .set("numa_nodes", rt.topology().num_nodes())
      .set("bind", numa::to_string(rt.config().bind))
      .set("placement", numa::to_string(rt.config().placement))
      .set("place", numa::role_placements_text())
      .set("pages", got == requested ? got : got + " (" + requested + " requested)");
}

}  // namespace numagraph::cli
