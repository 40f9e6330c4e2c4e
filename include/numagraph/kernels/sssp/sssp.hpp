// numagraph::sssp — the single-source shortest paths entry point:
// delta-stepping on the flat kernel (delta_stepping.hpp) or the NUMA engine
// (engine_delta_stepping.hpp), as the Execution chooses.
#pragma once

#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/engine_delta_stepping.hpp"
#include "numagraph/kernels/sssp/options.hpp"
#include "numagraph/kernels/sssp/predecessors.hpp"

namespace numagraph {

using kernels::SsspOptions;
using kernels::SsspResult;

// Distances from `source` (a caller's id) into `r`, in the caller's ids,
// reusing its array when the size fits. Runs on the graph in
// Execution::reorder's order. Refuses negative weights. With
// o.predecessors, also each vertex's predecessor on a shortest path.
template <typename V>
void sssp(const CSRGraph<V>& g, V source, const SsspOptions& o, const Execution& x, SsspResult& r) {
  if (o.delta < 0 || o.delta != o.delta)
    throw UsageError("delta must be positive, or 0 to choose it from the graph (got " + std::to_string(o.delta) + ")");
  if (static_cast<std::int64_t>(source) >= g.num_vertices())
    throw UsageError("SSSP source " + std::to_string(source) + " is not a vertex");
  kernels::EngineCall<V> call(g, x, "sssp", {.push = true, .out = false});
  const auto& kg = call.graph();
  const V ksource = call.ids().to_new(source);
  auto& ws = call.template workspace<kernels::SsspWorkspace>();
  if (!ws.checked_weights) {  // once per graph and cache
    call.setup([&] { kernels::refuse_negative_weights(g); });
    ws.checked_weights = true;
  }
  // The rule's thread count: the team's, or one for a search that starts
  // alone (a small graph, which the team joins only for wide rounds).
  const bool alone = !call.engine() && call.starts_alone();
  r.delta = o.delta > 0 ? o.delta : ws.auto_delta(g, alone ? 1 : parallel::max_threads());
  if (call.engine()) {
    r.rounds = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::sssp_numa(pg, ksource, r.delta, mode, acc, &ws, r.dist);
    });
  } else {
    call.run_flat([&] { kernels::sssp_delta_stepping(kg, ksource, r.delta, r.dist, &ws, alone); });
    r.rounds = 0;
  }
  kernels::unpermute(r, call.ids());
  // On the kernel's graph, in the caller's ids: the same array whatever the
  // engine or order (predecessors.hpp).
  r.predecessor = o.predecessors ? kernels::sssp_predecessors(kg, source, r.dist.data()) : NumaArray<std::int64_t>();
  r.ran = call.info();
}

template <typename V>
SsspResult sssp(const CSRGraph<V>& g, V source, const SsspOptions& o = {}, const Execution& x = {}) {
  SsspResult r;
  sssp(g, source, o, x, r);
  return r;
}

}  // namespace numagraph
