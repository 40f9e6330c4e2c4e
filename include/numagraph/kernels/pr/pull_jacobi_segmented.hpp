// PageRank, pull direction, Jacobi iteration, cache-blocked: the same
// iteration as pull_jacobi.hpp (gapbs's pr_spmv), with the in-lists cut into
// segments of sources (graph/segmented_lists.hpp) so that the random reads of
// contributions during one sweep stay within one cache-sized range. A vertex's
// sum is carried from segment to segment in `partial`; the last segment
// finishes the vertex exactly as the unblocked kernel does (score, L1 change,
// next contribution, dangling mass). Sums are added segment by segment, so
// scores differ from the unblocked kernel's in the last bits only, and do not
// depend on the number of threads.
//
// The segmented copy of the in-lists is built inside the call (one pass over
// the edges, about one iteration's time) and counted in the kernel's time.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/segmented_lists.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// `segment_width`: sources per segment, a power of two (cache_block_width).
template <typename V, typename C>
PageRankResult pagerank_pull_jacobi_segmented(const CSRGraph<V>& g, const PageRankOptions& o,
                                              std::int64_t segment_width) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n));
  if (n == 0) return r;
  const SegmentedLists<V> in(g, true, segment_width);
  const int last = in.num_segments() - 1;
  r.cache_segments = in.num_segments();
  NumaArray<C> contrib(static_cast<std::size_t>(n)), next_contrib(static_cast<std::size_t>(n));
  NumaArray<double> partial(static_cast<std::size_t>(n));
  const double init = 1.0 / static_cast<double>(n);
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (std::int64_t v = 0; v < n; ++v) {
    r.scores[v] = init;
    const eid_t d = g.out_degree(static_cast<V>(v));
    contrib[v] = static_cast<C>(d ? init / static_cast<double>(d) : 0.0);
    if (!d) dangling += init;
  }
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();
    const double base = (1 - o.damping) / static_cast<double>(n) +
                        (o.networkx ? o.damping * dangling / static_cast<double>(n) : 0.0);
    double change = 0, next_dangling = 0;
#pragma omp parallel reduction(+ : change, next_dangling)
    {
      // Segments before the last only accumulate; the implicit barrier after
      // each loop keeps every thread on the same segment, so the cache holds
      // one range of contributions for both.
      for (int s = 0; s < last; ++s) {
#pragma omp for schedule(dynamic, 1024)
        for (std::int64_t v = 0; v < n; ++v) {
          const double sum = gather_sum(in.piece(s, v), contrib.data());
          partial[v] = s == 0 ? sum : partial[v] + sum;
        }
      }
#pragma omp for schedule(dynamic, 1024)
      for (std::int64_t v = 0; v < n; ++v) {
        const double carried = last == 0 ? 0.0 : partial[v];
        const double next = base + o.damping * (carried + gather_sum(in.piece(last, v), contrib.data()));
        change += std::fabs(next - r.scores[v]);
        r.scores[v] = next;
        const eid_t d = g.out_degree(static_cast<V>(v));
        next_contrib[v] = static_cast<C>(d ? next / static_cast<double>(d) : 0.0);
        if (!d) next_dangling += next;
      }
    }
    contrib.swap(next_contrib);
    dangling = next_dangling;
    r.iterations = it + 1;
    r.last_change = change;
    const double limit = o.networkx ? o.tolerance * static_cast<double>(n) : o.tolerance;
    if (o.tolerance > 0 && change < limit) break;
  }
  return r;
}

}  // namespace numagraph::kernels
