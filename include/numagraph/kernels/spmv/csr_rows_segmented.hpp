// Repeated SpMV, the flat kernel, cache-blocked: the same products as
// csr_rows.hpp with the rows cut into segments of columns
// (graph/segmented_lists.hpp), so that the random reads of x during one
// sweep stay within one cache-sized range of x. Each row's partial sum is
// kept in y itself until the last segment adds its piece and scales it.
// Sums are added segment by segment: results differ from the unblocked
// kernel's in the last bits only and do not depend on the number of threads.
// The segmented copy of the rows (and their weights) is built inside the call
// and counted in the kernel's time.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/segmented_lists.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// `segment_width`: columns per segment, a power of two (cache_block_width).
template <typename V>
NumaArray<double> spmv_rows_segmented(const CSRGraph<V>& g, int iterations, std::int64_t segment_width) {
  const std::int64_t n = g.num_vertices();
  NumaArray<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  if (n == 0) return y;
  const SegmentedLists<V> rows(g, false, segment_width);
  const int last = rows.num_segments() - 1;
  const bool weighted = g.weighted();
  auto piece_sum = [&](int s, std::int64_t u) {
    const auto nb = rows.piece(s, u);
    return weighted ? gather_weighted_sum(nb, rows.piece_weights(s, u), x.data()) : gather_sum(nb, x.data());
  };
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = 1.0 / static_cast<double>(n); });
  double scale = 1;  // x of this product = scale * the vector held in `x`
  for (int it = 0; it < iterations; ++it) {
    throw_if_cancelled();
    double norm = 0;
#pragma omp parallel reduction(+ : norm)
    {
      // All threads sweep the same segment (the barrier after each loop), so
      // the cache holds one range of x for both.
      for (int s = 0; s < last; ++s) {
#pragma omp for schedule(dynamic, 1024)
        for (std::int64_t u = 0; u < n; ++u) y[u] = s == 0 ? piece_sum(s, u) : y[u] + piece_sum(s, u);
      }
#pragma omp for schedule(dynamic, 1024)
      for (std::int64_t u = 0; u < n; ++u) {
        y[u] = scale * ((last == 0 ? 0.0 : y[u]) + piece_sum(last, u));
        norm += std::fabs(y[u]);
      }
    }
    if (it + 1 == iterations) break;
    scale = norm > 0 ? 1.0 / norm : 1.0;
    x.swap(y);
  }
  return y;
}

}  // namespace numagraph::kernels
