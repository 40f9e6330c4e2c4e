// SpMV verifier: the same power iteration computed serially (row by row, in
// CSR order, so sums are formed in the same order); every entry must agree to
// 1e-9 relative. Entries are normalised, hence small: the tolerance is purely
// relative (no absolute floor that would hide errors), and NaN fails.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
Result spmv(const CSRGraph<V>& g, int iterations, const double* y_result) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> x(n, 1.0 / static_cast<double>(n)), y(n, 0.0);
  for (int it = 0; it < iterations; ++it) {
    double norm = 0;
    for (std::size_t u = 0; u < n; ++u) {
      const auto nb = g.out_neighbors(static_cast<V>(u));
      double sum = 0;
      for (std::size_t j = 0; j < nb.size(); ++j)
        sum += (g.weighted() ? static_cast<double>(g.out_weights(static_cast<V>(u))[j]) : 1.0) * x[nb[j]];
      y[u] = sum;
      norm += std::fabs(sum);
    }
    if (it + 1 < iterations)
      for (std::size_t v = 0; v < n; ++v) x[v] = y[v] / (norm > 0 ? norm : 1.0);
  }
  for (std::size_t v = 0; v < n; ++v)
    if (!(std::fabs(y[v] - y_result[v]) <= 1e-9 * std::fabs(y[v])))
      return Result::fail("entry " + std::to_string(g.label(static_cast<V>(v))) + " is " + std::to_string(y_result[v]) +
                          ", the serial product gives " + std::to_string(y[v]));
  return Result::pass();
}

}  // namespace numagraph::verify
