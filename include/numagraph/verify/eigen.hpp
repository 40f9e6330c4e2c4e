// Eigenvector and Katz centrality verifiers. Both recompute A^T x serially by
// pushing every vertex's value along its out-edges (the kernels pull over
// in-edges), in long double, and check the defining equation to a stated
// tolerance: the run stops when an iteration moves x by less than n * tol
// in L1 (limit), so one more iteration must move it by little more; we
// accept twice the limit.
//   eigenvector: x finite, >= 0, ||x||_2 = 1 (to 1e-9); lambda is the
//     Rayleigh quotient x.A^T x / x.x and the residual
//     ||A^T x - lambda x||_1 <= 2 (lambda + 1) limit + 1e-9 ||A^T x||_1
//     (one iteration of (A^T + I) moves a normalized x by its residual
//     over ||(A^T + I) x|| ~ lambda + 1);
//   Katz: x finite; unnormalized, ||alpha A^T x + beta - x||_1 <= 2 limit;
//     normalized, x = s x* for the unnormalized fixed point x*, so
//     x - alpha A^T x must be the constant s beta (s = its mean / beta,
//     ||x||_2 = 1) and the residual <= 2 s limit.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/eigen/options.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

namespace detail {

// A^T x by pushing along out-edges, weighted when asked.
template <typename V>
std::vector<long double> transpose_product(const CSRGraph<V>& g, bool weighted, const double* x) {
  const std::int64_t n = g.num_vertices();
  std::vector<long double> z(static_cast<std::size_t>(n), 0.0L);
  for (std::int64_t u = 0; u < n; ++u) {
    const auto nb = g.out_neighbors(static_cast<V>(u));
    const auto w = weighted ? g.out_weights(static_cast<V>(u)) : std::span<const weight_t>{};
    for (std::size_t j = 0; j < nb.size(); ++j)
      z[static_cast<std::size_t>(nb[j])] += static_cast<long double>(x[u]) * (weighted ? w[j] : 1.0L);
  }
  return z;
}

template <typename V>
Result check_finite(const CSRGraph<V>& g, const double* x, bool nonnegative) {
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (!std::isfinite(x[v]) || (nonnegative && x[v] < 0))
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " has centrality " +
                          std::to_string(x[v]));
  return Result::pass();
}

inline std::string number(long double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12Lg", x);
  return buf;
}

}  // namespace detail

template <typename V>
Result eigenvector_centrality(const CSRGraph<V>& g, const kernels::EigenvectorOptions& o, const double* x) {
  const std::int64_t n = g.num_vertices();
  if (n == 0) return Result::pass();
  if (Result r = detail::check_finite(g, x, true); !r.ok) return r;
  long double squares = 0;
  for (std::int64_t v = 0; v < n; ++v) squares += static_cast<long double>(x[v]) * x[v];
  if (std::fabs(std::sqrt(squares) - 1.0L) > 1e-9L)
    return Result::fail("the vector's L2 norm is " + detail::number(std::sqrt(squares)) + ", not 1");
  const auto z = detail::transpose_product(g, o.use_weights && g.weighted(), x);
  long double xz = 0, z_l1 = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    xz += x[v] * z[static_cast<std::size_t>(v)];
    z_l1 += std::fabs(z[static_cast<std::size_t>(v)]);
  }
  const long double lambda = xz / squares;
  long double residual = 0, worst = -1;
  std::int64_t worst_vertex = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    const long double d = std::fabs(z[static_cast<std::size_t>(v)] - lambda * x[v]);
    residual += d;
    if (d > worst) worst = d, worst_vertex = v;
  }
  const long double limit = static_cast<long double>(o.tolerance) * static_cast<long double>(n);
  const long double allowed = 2 * (lambda + 1) * limit + 1e-9L * z_l1;
  if (residual > allowed)
    return Result::fail("||A^T x - lambda x||_1 = " + detail::number(residual) + " exceeds " +
                        detail::number(allowed) + " (lambda " + detail::number(lambda) +
                        "); the largest term is at vertex " + std::to_string(g.label(static_cast<V>(worst_vertex))));
  return Result::pass();
}

template <typename V>
Result katz_centrality(const CSRGraph<V>& g, const kernels::KatzOptions& o, const double* x) {
  const std::int64_t n = g.num_vertices();
  if (n == 0) return Result::pass();
  if (Result r = detail::check_finite(g, x, false); !r.ok) return r;
  const auto z = detail::transpose_product(g, o.use_weights && g.weighted(), x);
  // x - alpha A^T x, which is beta (times the scale s when normalized) at the fixed point.
  long double s = 1, squares = 0, mean = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    squares += static_cast<long double>(x[v]) * x[v];
    mean += x[v] - o.alpha * z[static_cast<std::size_t>(v)];
  }
  mean /= static_cast<long double>(n);
  if (o.normalized) {
    if (std::fabs(std::sqrt(squares) - 1.0L) > 1e-9L && squares > 0)
      return Result::fail("the vector's L2 norm is " + detail::number(std::sqrt(squares)) + ", not 1");
    s = o.beta != 0 ? mean / o.beta : 1;
  }
  long double residual = 0, worst = -1, x_l1 = 0;
  std::int64_t worst_vertex = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    const long double d = std::fabs(x[v] - o.alpha * z[static_cast<std::size_t>(v)] - s * o.beta);
    residual += d;
    x_l1 += std::fabs(x[v]);
    if (d > worst) worst = d, worst_vertex = v;
  }
  const long double limit = static_cast<long double>(o.tolerance) * static_cast<long double>(n);
  const long double allowed = 2 * std::fabs(s) * limit + 1e-9L * x_l1;
  if (residual > allowed)
    return Result::fail("||x - alpha A^T x - beta||_1 = " + detail::number(residual) + " exceeds " +
                        detail::number(allowed) + "; the largest term is at vertex " +
                        std::to_string(g.label(static_cast<V>(worst_vertex))));
  return Result::pass();
}

}  // namespace numagraph::verify
