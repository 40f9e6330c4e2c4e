// numagraph::bfs — the BFS entry point: direction-optimizing breadth-first
// search from one root, on the flat kernel (direction_optimizing.hpp) or the
// NUMA engine (engine_direction_optimizing.hpp), as the Execution chooses.
#pragma once

#include "numagraph/kernels/bfs/direction_optimizing.hpp"
#include "numagraph/kernels/bfs/engine_direction_optimizing.hpp"
#include "numagraph/kernels/bfs/options.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using kernels::BfsOptions;
using kernels::BfsResult;

// Searches from `root` (a caller's id, 0..n-1) into `r`, reusing its arrays
// when their sizes fit, and the cache's workspaces between calls. Runs on
// the graph in Execution::reorder's order; `r` is in the caller's ids.
template <typename V>
void bfs(const CSRGraph<V>& g, V root, const BfsOptions& o, const Execution& x, BfsResult<V>& r) {
  if (static_cast<std::int64_t>(root) >= g.num_vertices())
    throw UsageError("BFS root " + std::to_string(root) + " is not a vertex");
  kernels::EngineCall<V> call(g, x, "bfs", {.push = true, .out = false});
  const V kroot = call.ids().to_new(root);
  if (call.engine()) {
    if (o.summary_bits != BfsOptions{}.summary_bits)
      throw UsageError("--summary-bits applies to the flat BFS only (the NUMA engine's bitmaps have a fixed summary): "
                       "drop it or use --engine flat");
    auto& ws = call.template workspace<kernels::NumaBfsWorkspace<V>>();
    call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      kernels::bfs_numa(pg, kroot, o, mode, acc, r, &ws);
    });
  } else {
    auto& ws = call.template workspace<kernels::BfsWorkspace<V>>();
    call.run_flat([&] { kernels::bfs_direction_optimizing(call.graph(), kroot, o, r, ws); });
  }
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
}

template <typename V>
BfsResult<V> bfs(const CSRGraph<V>& g, V root, const BfsOptions& o = {}, const Execution& x = {}) {
  BfsResult<V> r;
  bfs(g, root, o, x, r);
  return r;
}

}  // namespace numagraph
