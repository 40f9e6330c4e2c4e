// numagraph::diameter — the approximate-diameter entry point: repeated
// double sweep (double_sweep.hpp) whose BFS runs are numagraph::bfs calls,
// so they run on the flat kernel or the NUMA engine, in the vertex order, as
// the Execution chooses. The sweeps see the caller's ids (each BFS maps its
// root in and its depths out), so the start, the ties and the endpoints are
// those of a run in the graph's own order.
#pragma once

#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/diameter/double_sweep.hpp"

namespace numagraph {

using kernels::DiameterResult;

template <typename V>
DiameterResult<V> diameter(const CSRGraph<V>& g, const BfsOptions& bfs = {}, const Execution& x = {}) {
  BfsOptions o = bfs;
  o.compute_depth = true;
  // The sweeps share one cache: the renumbered graph and the engine's
  // partitioned graph are built once.
  KernelCache own;
  Execution sweeps = x;
  if (!sweeps.cache) sweeps.cache = &own;
  CallInfo ran;
  auto r = kernels::diameter_double_sweep(g, [&](V source, BfsResult<V>& result) {
    numagraph::bfs(g, source, o, sweeps, result);
    ran.numa = result.ran.numa;
    ran.setup_s += result.ran.setup_s;
    ran.reorder_s += result.ran.reorder_s;
    ran.reorder_bfs_equiv += result.ran.reorder_bfs_equiv;
  }, &g.permutation());
  r.ran = ran;
  return r;
}

}  // namespace numagraph
