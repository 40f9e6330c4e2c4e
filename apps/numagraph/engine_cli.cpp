#include "engine_cli.hpp"

#include <sched.h>

#include <cstdio>

#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {

void add_engine_options(CLI::App& app, EngineOptions& opt) {
  app.add_option("--engine", opt.engine,
                 "numa: per-node partitioned execution; flat: NUMA-oblivious kernel; auto "
                 "(default): numa when the topology has more than one node")
      ->check(CLI::IsMember({"numa", "flat", "auto"}));
  app.add_flag("--account", opt.account,
               "count local/remote, random/sequential accesses under the active topology "
               "(runs the engine's instrumented kernel; slower)");
}

EngineTopology engine_topology() {
  EngineTopology t;
  const numa::Runtime& rt = numa::Runtime::get();
  if (rt.configured()) {
    t.nodes = rt.topology().num_nodes();
    t.thread_node = rt.thread_node();
    t.distance = rt.topology().distance;
  } else {
    t.nodes = 1;
    t.thread_node.assign(static_cast<std::size_t>(parallel::max_threads()), 0);
    t.distance = {{10}};
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  t.hardware_threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  return t;
}

bool use_numa_engine(const EngineOptions& opt, const EngineTopology& topo) {
  if (opt.engine == "numa") return true;
  if (opt.engine == "flat") return false;
  return topo.nodes > 1;
}

void report_engine(profile::Record& rec, const EngineOptions& opt, bool numa_engine,
                   const engine::AccessCounts& counts, bool json) {
  rec.set("engine", numa_engine ? "numa" : "flat");
  if (!opt.account) return;
  rec.set("account", counts.record());
  if (json) return;
  const double total = static_cast<double>(std::max<std::int64_t>(1, counts.total()));
  auto line = [&](const char* name, std::int64_t v) {
    std::fprintf(stderr, "  %-18s %16lld  %6.2f %%\n", name, static_cast<long long>(v), 100.0 * v / total);
  };
  std::fprintf(stderr, "access accounting (%s engine)\n", numa_engine ? "numa" : "flat");
  line("local random", counts.local_random);
  line("local sequential", counts.local_sequential);
  line("remote random", counts.remote_random);
  line("remote sequential", counts.remote_sequential);
}

}  // namespace numagraph::cli
