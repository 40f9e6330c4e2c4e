// PageRank verifier: recompute one serial Jacobi iteration x' = F(x) from the
// result and check that x is (close to) its fixed point. A run that stopped
// with L1 change c has residual |F(x) - x|_1 <= d * c for Jacobi; we accept
// residual <= 2c + 1e-9 (Gauss-Seidel sweeps may land a little further), plus
// the rounding of float contributions when the kernel used them (each carries
// a relative error up to 2 x 2^-24: the score rounded to float, then the float
// quotient, kernels/pr/options.hpp; they add up to at most the total score),
// and require every score finite and non-negative. The model is the run's:
// with weights or a personalization, NetworkX's weighted and personalized one
// (kernels/pr/model.hpp), recomputed here from the graph's own arrays.
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
  const bool weighted = o.use_weights && g.weighted();
  double dangling = 0, total = 0;
  std::vector<double> contrib(static_cast<std::size_t>(n));
  for (std::int64_t u = 0; u < n; ++u) {
    if (!std::isfinite(x[u]) || x[u] < 0)
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(u))) + " has score " + std::to_string(x[u]));
    double out = 0;  // W(u): u's out-weight, or its out-degree
    if (weighted)
      for (const weight_t w : g.out_weights(static_cast<V>(u))) out += static_cast<double>(w);
    else
      out = static_cast<double>(g.out_degree(static_cast<V>(u)));
    contrib[static_cast<std::size_t>(u)] = out > 0 ? x[u] / out : 0.0;
    if (!(out > 0)) dangling += x[u];
    total += x[u];
  }
  // The teleport p[v] and the dangling distribution q[v], normalized
  // (uniform without; q follows p without its own, as NetworkX's).
  auto normalized = [n](const std::vector<double>& values) {
    std::vector<double> out(static_cast<std::size_t>(n), 1.0 / static_cast<double>(n));
    if (values.empty()) return out;
    double sum = 0;
    for (const double a : values) sum += a;
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = values[v] / sum;
    return out;
  };
  const std::vector<double> p = normalized(o.personalization);
  const std::vector<double> q = o.dangling.empty() ? p : normalized(o.dangling);
  double residual = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    double sum = 0;
    const auto nb = g.in_neighbors(static_cast<V>(v));
    for (std::size_t j = 0; j < nb.size(); ++j)
      sum += (weighted ? static_cast<double>(g.in_weights(static_cast<V>(v))[j]) : 1.0) * contrib[nb[j]];
    const auto i = static_cast<std::size_t>(v);
    const double base = (1 - o.damping) * p[i] + (o.networkx ? o.damping * dangling * q[i] : 0.0);
    residual += std::fabs(base + o.damping * sum - x[v]);
  }
  const double float_rounding = kernels::needs_double_contributions(o) ? 0.0 : 4 * std::ldexp(total, -24);
  if (residual > 2 * last_change + 1e-9 + float_rounding)
    return Result::fail("scores are not a PageRank fixed point: one more iteration changes them by " +
                        std::to_string(residual) + " (L1), more than twice the last change " + std::to_string(last_change));
  return Result::pass();
}

}  // namespace numagraph::verify
