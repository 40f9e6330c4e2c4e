#include "engine_cli.hpp"

#include <algorithm>
#include <cstdio>

namespace numagraph::cli {

void add_engine_options(CLI::App& app, EngineFlags& flags) {
  app.add_option("--engine", flags.engine,
                 "numa: per-node partitioned execution; flat: NUMA-oblivious kernel; auto "
                 "(default): numa when the topology has more than one node")
      ->check(CLI::IsMember({"numa", "flat", "auto"}));
  app.add_flag("--account", flags.account,
               "count local/remote, random/sequential accesses under the active topology "
               "(runs the engine's instrumented kernel once more; slower)");
}

Execution make_execution(const EngineFlags& flags, KernelCache& cache) {
  Execution x;
  x.engine = parse_engine(flags.engine);
  x.cache = &cache;
  return x;
}

void report_engine(profile::Record& rec, const EngineFlags& flags, const CallInfo& ran,
                   const engine::AccessCounts& counts, bool json) {
  rec.set("engine", ran.numa ? "numa" : "flat");
  if (!flags.account) return;
  rec.set("account", counts.record());
  if (json) return;
  const double total = static_cast<double>(std::max<std::int64_t>(1, counts.total()));
  auto line = [&](const char* name, std::int64_t v) {
    std::fprintf(stderr, "  %-18s %16lld  %6.2f %%\n", name, static_cast<long long>(v), 100.0 * v / total);
  };
  std::fprintf(stderr, "access accounting (%s engine)\n", ran.numa ? "numa" : "flat");
  line("local random", counts.local_random);
  line("local sequential", counts.local_sequential);
  line("remote random", counts.remote_random);
  line("remote sequential", counts.remote_sequential);
}

}  // namespace numagraph::cli
