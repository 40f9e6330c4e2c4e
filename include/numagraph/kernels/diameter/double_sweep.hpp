// Approximate diameter by repeated double sweep (as in the Galois DIA kernel
// of seed 003): BFS from a start vertex, then from the farthest vertex found,
// and again from the farthest of that, as long as the distance grows. The
// result is a lower bound on the diameter of the start vertex's component
// (exact on trees, where two sweeps suffice) with the two endpoints that
// realise it. The start is a vertex of maximum out-degree (smallest id on
// ties), which lands in the largest component of most real graphs. The BFS
// is a parameter: the entry point (diameter.hpp) runs numagraph::bfs, so
// the sweeps run on whichever engine the call chose.
#pragma once

#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/bfs/direction_optimizing.hpp"
#include "numagraph/reorder/permutation.hpp"

namespace numagraph::kernels {

template <typename V>
struct DiameterResult {
  std::int64_t bound = 0;  // hops between `from` and `to`
  V from = 0, to = 0;
  int sweeps = 0;          // BFS runs
  CallInfo ran;
};

// `search(source, result)` fills result.depth with a BFS from source. With
// `ids`, the search takes and returns the ids g's vertices have in the graph
// g was renumbered from (vertex ids->to_new(c) of g is c there), and so do
// the start and the endpoints: the sweeps are those of that graph.
template <typename V, typename Search>
DiameterResult<V> diameter_double_sweep(const CSRGraph<V>& g, Search&& search,
                                        const reorder::Permutation<V>* ids = nullptr) {
  const std::int64_t n = g.num_vertices();
  DiameterResult<V> r;
  if (n == 0) return r;
  auto degree = [&](std::int64_t v) {
    const V c = static_cast<V>(v);
    return g.out_degree(ids ? ids->to_new(c) : c);
  };
  V start = 0;
  for (std::int64_t v = 1; v < n; ++v)
    if (degree(v) > degree(start)) start = static_cast<V>(v);
  BfsResult<V> result;
  // Farthest vertex from `source` (smallest id on ties) and its distance.
  auto sweep = [&](V source) {
    search(source, result);
    ++r.sweeps;
    std::int32_t best = 0;
    V far = source;
#pragma omp parallel
    {
      std::int32_t lbest = 0;
      V lfar = source;
#pragma omp for schedule(static) nowait
      for (std::int64_t v = 0; v < n; ++v)
        if (result.depth[v] > lbest) {
          lbest = result.depth[v];
          lfar = static_cast<V>(v);
        }
#pragma omp critical
      if (lbest > best || (lbest == best && lfar < far)) {
        best = lbest;
        far = lfar;
      }
    }
    return std::pair<V, std::int32_t>{far, best};
  };
  auto [a, d0] = sweep(start);
  (void)d0;
  auto [b, d] = sweep(a);
  r.from = a;
  r.to = b;
  r.bound = d;
  for (;;) {
    auto [c, dc] = sweep(r.to);
    if (dc <= r.bound) break;
    r.from = r.to;
    r.to = c;
    r.bound = dc;
  }
  return r;
}

// With the flat BFS.
template <typename V>
DiameterResult<V> diameter_double_sweep(const CSRGraph<V>& g, const BfsOptions& bfs = {}) {
  BfsOptions o = bfs;
  o.compute_depth = true;
  BfsWorkspace<V> ws;
  return diameter_double_sweep(g, [&](V source, BfsResult<V>& r) { bfs_direction_optimizing(g, source, o, r, ws); });
}

}  // namespace numagraph::kernels
