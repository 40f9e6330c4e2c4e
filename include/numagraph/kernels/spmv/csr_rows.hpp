// Repeated sparse matrix-vector product, the flat kernel. A[u][v] is the
// weight of arc u -> v (1 when unweighted), so row u of y = A x runs over u's
// out-edges: one sequential pass over the CSR per product, random reads of x.
// Each iteration feeds back x <- y / sum(|y|) (the power iteration), which
// keeps values finite for any number of iterations; x starts at 1/n. The
// result is the last y. Same model as the NUMA engine's SpMV.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

template <typename V>
NumaArray<double> spmv_rows(const CSRGraph<V>& g, int iterations) {
  const std::int64_t n = g.num_vertices();
  NumaArray<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = 1.0 / static_cast<double>(n); });
  const bool weighted = g.weighted();
  for (int it = 0; it < iterations; ++it) {
    double norm = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : norm)
    for (std::int64_t u = 0; u < n; ++u) {
      const auto nb = g.out_neighbors(static_cast<V>(u));
      const weight_t* w = weighted ? g.out_weights(static_cast<V>(u)).data() : nullptr;
      double sum = 0;
      for (std::size_t j = 0; j < nb.size(); ++j) sum += (weighted ? static_cast<double>(w[j]) : 1.0) * x[nb[j]];
      y[u] = sum;
      norm += std::fabs(sum);
    }
    if (it + 1 == iterations) break;
    const double scale = norm > 0 ? 1.0 / norm : 1.0;
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = y[v] * scale; });
  }
  return y;
}

}  // namespace numagraph::kernels
