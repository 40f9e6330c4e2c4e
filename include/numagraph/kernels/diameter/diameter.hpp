// numagraph::diameter — the approximate-diameter entry point: repeated
// double sweep (double_sweep.hpp) whose BFS runs are numagraph::bfs calls,
// so they run on the flat kernel or the NUMA engine as the Execution chooses.
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
  // The sweeps share one cache: the engine's partitioned graph is built once.
  KernelCache own;
  Execution sweeps = x;
  if (!sweeps.cache) sweeps.cache = &own;
  CallInfo ran;
  auto r = kernels::diameter_double_sweep(g, [&](V source, BfsResult<V>& result) {
    numagraph::bfs(g, source, o, sweeps, result);
    ran.numa = result.ran.numa;
    ran.setup_s += result.ran.setup_s;
  });
  r.ran = ran;
  return r;
}

}  // namespace numagraph
