#include "numagraph/runtime_info.hpp"

#include <memory>
#include <string>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"

namespace numagraph::cli {

namespace {
struct RuntimeFlags {
  std::string topology, bind = "compact", pages = "thp", placement = "local";
  bool smt = false;
};
RuntimeFlags& flags() {
  static RuntimeFlags f;
  return f;
}
}  // namespace

void add_runtime_options(CLI::App& app) {
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
                 "default placement of big arrays: local (first touch, default), interleave, partitioned")
      ->check(CLI::IsMember({"local", "interleave", "partitioned"}));
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
}

void add_runtime_fields(profile::Record& rec) {
  const numa::Runtime& rt = numa::Runtime::get();
  if (!rt.configured()) {
    rec.set("topology", "machine").set("bind", "none").set("placement", "local").set("pages", "thp");
    return;
  }
  // Page size obtained: probe one huge-page-sized array under the default.
  NumaArray<char> probe(std::size_t{4} << 20);
  for (std::size_t i = 0; i < probe.size(); i += 4096) probe[i] = 1;
  const auto report = numa::page_report(probe.data(), probe.size(), 64);
  std::string pages = numa::to_string(probe.page_size());
  if (probe.page_size() == numa::PageSize::kTHP && report.huge_bytes == 0) pages = "4k (thp requested, none granted)";
  rec.set("topology", rt.topology().synthetic ? rt.topology().source : std::string("machine"))
      .set("numa_nodes", rt.topology().num_nodes())
      .set("bind", numa::to_string(rt.config().bind))
      .set("placement", numa::to_string(rt.config().placement))
      .set("pages", pages);
}

}  // namespace numagraph::cli
