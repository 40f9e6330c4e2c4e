// numagraph::betweenness — the betweenness-centrality entry point: Brandes
// over the given sources on the flat kernel (brandes.hpp) or the NUMA
// engine's work queues (engine_work_queues.hpp), as the Execution chooses.
#pragma once

#include <vector>

#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/engine_work_queues.hpp"
#include "numagraph/kernels/bc/options.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using kernels::BcOptions;
using kernels::BcResult;

// Raw Brandes sums over `sources` (graph ids) into `r`, reusing its scores
// array when the size fits.
template <typename V>
void betweenness(const CSRGraph<V>& g, const std::vector<V>& sources, const BcOptions& o, const Execution& x,
                 BcResult& r) {
  if (sources.empty()) throw UsageError("betweenness needs at least one source");
  for (V s : sources)
    if (static_cast<std::int64_t>(s) >= g.num_vertices())
      throw UsageError("betweenness source " + std::to_string(s) + " is not a vertex");
  if (o.task_size < 1) throw UsageError("the work-queue task size must be at least 1");
  kernels::EngineCall<V> call(g, x, "betweenness", {.push = true, .out = false});
  if (call.engine()) {
    // Steal across nodes only when every thread has a CPU of its own:
    // time-sliced threads would steal other nodes' work by accident of
    // scheduling (MachineView::threads_fit).
    const kernels::StealPolicy steal{call.machine().distance, call.machine().threads_fit()};
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::betweenness_numa(pg, sources, o, steal, mode, acc);
    });
  } else {
    if (o.task_size != BcOptions{}.task_size)
      throw UsageError("the task size applies to the NUMA engine's work queues: add --engine numa or drop --task-size");
    auto& ws = call.template workspace<kernels::BrandesWorkspace<V>>();
    call.run_flat([&] { kernels::betweenness_brandes(g, sources, r.scores, ws); });
    r.stolen_tasks = 0;
    r.steal_across_nodes = false;
  }
  r.ran = call.info();
}

template <typename V>
BcResult betweenness(const CSRGraph<V>& g, const std::vector<V>& sources, const BcOptions& o = {},
                     const Execution& x = {}) {
  BcResult r;
  betweenness(g, sources, o, x, r);
  return r;
}

}  // namespace numagraph
