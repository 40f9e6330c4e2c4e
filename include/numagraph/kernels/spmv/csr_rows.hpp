// Repeated sparse matrix-vector product, the flat kernel. A[u][v] is the
// weight of arc u -> v (1 when unweighted), so row u of y = A x runs over u's
// out-edges: one sequential pass over the CSR per product, random reads of x.
// Each iteration feeds back x <- y / sum(|y|) (the power iteration), which
// keeps values finite for any number of iterations; x starts at 1/n. The
// result is the last y. Same model as the NUMA engine's SpMV.
// The normalisation is folded into the next product (y' = (A y) / sum|y|),
// so an iteration is one pass: no separate pass that rescales x.
// When x outgrows the last-level cache the rows are blocked: cut by column
// range (graph/segmented_lists.hpp, weights travel with their arcs) and each
// row's sum gathered range by range (kernels/pr/blocked_gather.hpp), the
// partial sums kept in y itself until the last range completes them. The
// blocked copy is built inside the call and counted in the kernel's time.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/blocked_gather.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// Columns per cache block, or 0: `cache_block_bytes` is kAutoBlock, 0 (off)
// or bytes of x per block. This is the decision (graph/cache_blocking.hpp).
template <typename V>
std::int64_t spmv_block_width(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes) {
  CacheBlockRequest r;
  r.vertices = g.num_vertices();
  r.arcs = static_cast<std::int64_t>(g.num_arcs());
  r.value_bytes = sizeof(double);
  r.arc_bytes = sizeof(V) + (g.weighted() ? sizeof(weight_t) : 0);
  r.sweeps = iterations;
  r.block_bytes = cache_block_bytes;
  return cache_block_width(r);
}

// The products, blocked over `lists` or not (a template argument, as in
// pull_jacobi.hpp: no run-time test in the row loop).
template <bool Blocked, typename V>
NumaArray<double> spmv_products(const CSRGraph<V>& g, int iterations, const SegmentedLists<V>* lists) {
  const std::int64_t n = g.num_vertices();
  NumaArray<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = 1.0 / static_cast<double>(n); });
  const bool weighted = g.weighted();
  double scale = 1;  // x of this product = scale * the vector held in `x`
  for (int it = 0; it < iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    double norm = 0;
    if constexpr (Blocked) {
#pragma omp parallel reduction(+ : norm)
      {
        gather_leading_pieces(*lists, weighted, x.data(), y.data());
#pragma omp for schedule(dynamic, 1024)
        for (std::int64_t u = 0; u < n; ++u) {
          y[u] = scale * gather_last_piece(*lists, weighted, u, x.data(), y.data());
          norm += std::fabs(y[u]);
        }
      }
    } else {  // one combined construct, as in pull_jacobi.hpp
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : norm)
      for (std::int64_t u = 0; u < n; ++u) {
        const auto nb = g.out_neighbors(static_cast<V>(u));
        const double sum = weighted ? gather_weighted_sum(nb, g.out_weights(static_cast<V>(u)).data(), x.data())
                                    : gather_sum(nb, x.data());
        y[u] = scale * sum;
        norm += std::fabs(y[u]);
      }
    }
    if (it + 1 == iterations) break;
    scale = norm > 0 ? 1.0 / norm : 1.0;
    x.swap(y);
  }
  return y;
}

template <typename V>
NumaArray<double> spmv_rows(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes = kAutoBlock) {
  const std::int64_t width = spmv_block_width(g, iterations, cache_block_bytes);
  if (width == 0) return spmv_products<false>(g, iterations, static_cast<const SegmentedLists<V>*>(nullptr));
  const SegmentedLists<V> lists(g, false, width);
  return spmv_products<true>(g, iterations, &lists);
}

}  // namespace numagraph::kernels
