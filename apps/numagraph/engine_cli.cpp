#include "engine_cli.hpp"

#include <algorithm>
#include <cstdio>

#include "common.hpp"

namespace numagraph::cli {

void add_engine_options(CLI::App& app, EngineFlags& flags) {
  app.add_option("--engine", flags.engine,
                 "numa: per-node partitioned execution; flat: NUMA-oblivious kernel; auto "
                 "(default): numa when the topology has more than one node")
      ->check(CLI::IsMember({"numa", "flat", "auto"}));
  app.add_flag("--account", flags.account,
               "count local/remote, random/sequential accesses under the active topology "
               "(runs the engine's instrumented kernel once more; slower)");
  add_reorder_options(app, flags);
}

void add_reorder_options(CLI::App& app, EngineFlags& flags) {
  app.add_option("--reorder", flags.reorder,
                 "run the kernel on the graph renumbered in this vertex order: none (default), degree, dbg, rcm, "
                 "adl or adl-serial (docs/reordering.md); ids in and out stay yours, the renumbering is timed "
                 "apart (reorder_s)")
      ->type_name("ORDER")
      ->check(kOrderName);
  app.add_option("--reorder-root", flags.reorder_root,
                 "where rcm and adl start their first search (your id, or its name in a CSV/TSV graph with "
                 "names, as --source; default: the highest-degree vertex)")
      ->type_name("ID");
}

Execution make_execution(const EngineFlags& flags, KernelCache& cache) {
  if (!flags.reorder_root.empty())
    throw UsageError("--reorder-root is not taken by this command");  // commands map it with the graph
  Execution x;
  x.engine = parse_engine(flags.engine);
  x.cache = &cache;
  x.reorder.order = reorder::parse_order(flags.reorder);
  x.listener = command_listener();  // the reorder clock, and the profile and progress line when asked
  return x;
}

void report_reorder(profile::Record& rec, const EngineFlags& flags) {
  const reorder::Order order = reorder::parse_order(flags.reorder);
  if (order == reorder::Order::kNone) return;
  const CallInfo& first = reorder_cost();
  rec.set("reorder", reorder::to_string(order))
      .set("reorder_s", first.reorder_s)
      .set("reorder_bfs_equiv", first.reorder_bfs_equiv);
}

void report_engine(profile::Record& rec, const EngineFlags& flags, const CallInfo& ran,
                   const engine::AccessCounts& counts, bool json) {
  rec.set("engine", ran.numa ? "numa" : "flat");
  report_reorder(rec, flags);
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
