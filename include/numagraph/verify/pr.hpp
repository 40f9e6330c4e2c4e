// PageRank verifier: recompute one serial Jacobi iteration x' = F(x) from the
// result and check that x is (close to) its fixed point. A run that stopped
// with L1 change c has residual |F(x) - x|_1 <= d * c for Jacobi; we accept
// residual <= 2c + 1e-9 (Gauss-Seidel sweeps may land a little further), plus
// the rounding of float contributions when the kernel used them (each carries
// a relative error up to 2 x 2^-24: the score rounded to float, then the float
// quotient, kernels/pr/options.hpp; they add up to at most the total score),
// and require every score finite and non-negative.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
Result pagerank(const CSRGraph<V>& g, const kernels::PageRankOptions& o, const double* x, double last_change) {
  const std::int64_t n = g.num_vertices();
  double dangling = 0, total = 0;
  std::vector<double> contrib(static_cast<std::size_t>(n));
  for (std::int64_t u = 0; u < n; ++u) {
    if (!std::isfinite(x[u]) || x[u] < 0)
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(u))) + " has score " + std::to_string(x[u]));
    const auto d = g.out_degree(static_cast<V>(u));
    contrib[static_cast<std::size_t>(u)] = d ? x[u] / static_cast<double>(d) : 0.0;
    if (!d) dangling += x[u];
    total += x[u];
  }
  const double base = (1 - o.damping) / static_cast<double>(n) +
                      (o.networkx ? o.damping * dangling / static_cast<double>(n) : 0.0);
  double residual = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    double sum = 0;
    for (const V u : g.in_neighbors(static_cast<V>(v))) sum += contrib[u];
    residual += std::fabs(base + o.damping * sum - x[v]);
  }
  const double float_rounding = kernels::needs_double_contributions(o) ? 0.0 : 4 * std::ldexp(total, -24);
  if (residual > 2 * last_change + 1e-9 + float_rounding)
    return Result::fail("scores are not a PageRank fixed point: one more iteration changes them by " +
                        std::to_string(residual) + " (L1), more than twice the last change " + std::to_string(last_change));
  return Result::pass();
}

}  // namespace numagraph::verify
