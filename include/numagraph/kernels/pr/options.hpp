// PageRank parameters and result, shared by every PageRank variant.
//
// Model: damping d (0.85); scores start at 1/n; every iteration sets
//   x[v] = (1 - d)/n + d * sum over in-neighbours u of x[u] / outdeg(u)
// and stops after `max_iterations` or when the L1 change of an iteration is
// below `tolerance` (0 = never: run exactly max_iterations, Polymer-style).
// Dangling vertices (no out-edges): by default their mass is dropped, as in
// gapbs; with `networkx` it is spread uniformly, and the stopping rule is
// NetworkX's (L1 change < n * tolerance), so scores match networkx.pagerank
// on the same (unweighted) graph.
#pragma once

#include "numagraph/graph/cache_blocking.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::kernels {

struct PageRankOptions {
  double damping = 0.85;
  int max_iterations = 20;
  double tolerance = 1e-4;
  bool networkx = false;
  // Cache blocking of the sweep (pull_jacobi_segmented.hpp,
  // pull_gauss_seidel_segmented.hpp): kAutoBlock, 0 (off) or bytes of
  // contributions per block.
  std::int64_t cache_block_bytes = kAutoBlock;
};

// Whether per-edge contributions must be doubles: a float carries about 7
// digits, enough for tolerances down to 1e-6 (the gapbs default is 1e-4).
inline bool needs_double_contributions(const PageRankOptions& o) {
  return o.networkx || (o.tolerance > 0 && o.tolerance < 1e-6);
}

// The cache-blocking decision for a PageRank sweep over the in-lists of g.
template <typename G>
std::int64_t pagerank_block_width(const G& g, const PageRankOptions& o) {
  CacheBlockRequest r;
  r.vertices = g.num_vertices();
  r.arcs = static_cast<std::int64_t>(g.num_arcs());
  r.value_bytes = needs_double_contributions(o) ? sizeof(double) : sizeof(float);
  r.arc_bytes = sizeof(typename G::vertex_type);
  r.sweeps = o.max_iterations;
  r.block_bytes = o.cache_block_bytes;
  return cache_block_width(r);
}

struct PageRankResult {
  NumaArray<double> scores;
  int iterations = 0;
  double last_change = 0;  // L1 change of the last iteration
  int cache_segments = 1;  // segments of a cache-blocked sweep (1: not blocked)
};

}  // namespace numagraph::kernels
