// PageRank, pull direction, block Gauss-Seidel over cache blocks: the
// Gauss-Seidel counterpart of the blocked Jacobi sweep (pull_jacobi.hpp), for
// graphs whose contributions outgrow the last-level cache.
//
// The in-lists are cut into segments of sources (sweep/segmented_lists.hpp);
// segment s covers the sources of vertex range s. An iteration makes S
// steps; step s first finishes the vertices of range s (score, L1 change,
// new contribution) from their accumulated sums, then sweeps segment s: every
// vertex adds the piece of its sum that comes from range s, reading the
// contributions just updated. A vertex of range t is finished from pieces of
// ranges 0..t-1 computed in this iteration and of ranges t..S-1 from the
// previous one, so, as in Gauss-Seidel, part of every sum already sees this
// iteration's values (the lower ranges'), and the random reads of one sweep
// stay within one range. Within a range the update is Jacobi's, so the
// iteration is deterministic (the unblocked kernel's is not) and needs a few
// more iterations than vertex-by-vertex Gauss-Seidel for the same tolerance.
// Before the first iteration every vertex of range t accumulates its pieces
// from ranges t..S-1 (about half an iteration's work).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "numagraph/numa/roles.hpp"
#include "numagraph/sweep/segmented_lists.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// `segment_width`: vertices per range, a power of two (cache_block_width).
template <typename V, typename C>
PageRankResult pagerank_pull_gauss_seidel_segmented(const CSRGraph<V>& g, const PageRankOptions& o,
                                                    std::int64_t segment_width) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  // start_pagerank fills it and contrib
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("ranks"));
  if (n == 0) return r;
  const profile::Timer copy;
  const SegmentedLists<V> in(g, true, segment_width);
  r.cache_copy_s = copy.seconds();
  const int segments = in.num_segments();
  r.cache_segments = segments;
  auto range_end = [&](int s) { return std::min(n, (s + 1) * segment_width); };
  auto contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  auto sum = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n));  // zeroed below
  const double base = (1 - o.damping) / static_cast<double>(n);
  start_pagerank(g, r, contrib.data());  // the dangling mass is dropped, as unblocked
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { sum[v] = 0; });
#pragma omp parallel
  {
    for (int s = 0; s < segments; ++s) {  // ranges t <= s take their piece from range s
#pragma omp for schedule(dynamic, 1024)
      for (std::int64_t v = 0; v < range_end(s); ++v) sum[v] += gather_sum(in.piece(s, v), contrib.data());
    }
  }
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();
    profile::InnerPhase phase("iteration");
    double change = 0;
#pragma omp parallel reduction(+ : change)
    for (int s = 0; s < segments; ++s) {
#pragma omp for schedule(static)
      for (std::int64_t v = s * segment_width; v < range_end(s); ++v) {
        const double next = base + o.damping * sum[v];
        change += std::fabs(next - r.scores[v]);
        r.scores[v] = next;
        const eid_t d = g.out_degree(static_cast<V>(v));
        contrib[v] = contribution<C>(score_if_out_arcs(next, d), d);
        sum[v] = 0;
      }
      // The barrier above publishes range s's contributions to every thread.
#pragma omp for schedule(dynamic, 1024)
      for (std::int64_t v = 0; v < n; ++v) sum[v] += gather_sum(in.piece(s, v), contrib.data());
    }
    r.iterations = it + 1;
    r.last_change = change;
    if (o.tolerance > 0 && change < o.tolerance) break;
  }
  return r;
}

}  // namespace numagraph::kernels
