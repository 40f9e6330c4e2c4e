// PageRank, pull direction, Jacobi iteration (the "SpMV" formulation, gapbs's
// pr_spmv): each iteration first computes every contribution x[u]/outdeg(u)
// into its own array, then every vertex sums its in-neighbours'
// contributions. All writes of an iteration go to arrays nobody reads in it,
// so the loop needs no atomics and the result does not depend on threads.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

// Sum of contrib[u] over a neighbour list with four independent partial
// sums: one running sum makes every edge wait for the previous addition, four
// let the random loads of contrib overlap.
template <typename V, typename C>
double sum_contributions(std::span<const V> nb, const C* contrib) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t j = 0;
  for (; j + 4 <= nb.size(); j += 4) {
    s0 += static_cast<double>(contrib[nb[j]]);
    s1 += static_cast<double>(contrib[nb[j + 1]]);
    s2 += static_cast<double>(contrib[nb[j + 2]]);
    s3 += static_cast<double>(contrib[nb[j + 3]]);
  }
  for (; j < nb.size(); ++j) s0 += static_cast<double>(contrib[nb[j]]);
  return (s0 + s1) + (s2 + s3);
}

template <typename V, typename C>
PageRankResult pagerank_pull_jacobi_with(const CSRGraph<V>& g, const PageRankOptions& o) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n));
  if (n == 0) return r;
  NumaArray<C> contrib(static_cast<std::size_t>(n));
  const double init = 1.0 / static_cast<double>(n);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { r.scores[v] = init; });
  for (int it = 0; it < o.max_iterations; ++it) {
    double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
    for (std::int64_t u = 0; u < n; ++u) {
      const eid_t d = g.out_degree(static_cast<V>(u));
      contrib[u] = static_cast<C>(d ? r.scores[u] / static_cast<double>(d) : 0.0);
      if (!d) dangling += r.scores[u];
    }
    const double base = (1 - o.damping) / static_cast<double>(n) +
                        (o.networkx ? o.damping * dangling / static_cast<double>(n) : 0.0);
    double change = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : change)
    for (std::int64_t v = 0; v < n; ++v) {
      const double sum = sum_contributions(g.in_neighbors(static_cast<V>(v)), contrib.data());
      const double next = base + o.damping * sum;
      change += std::fabs(next - r.scores[v]);
      r.scores[v] = next;
    }
    r.iterations = it + 1;
    r.last_change = change;
    const double limit = o.networkx ? o.tolerance * static_cast<double>(n) : o.tolerance;
    if (o.tolerance > 0 && change < limit) break;
  }
  return r;
}

// Contributions are read once per edge in random order, so their width is
// what the memory system feels: 32-bit floats (as gapbs uses) unless the run
// asks for more precision than a float carries (NetworkX mode, or a
// tolerance below 1e-6). Scores and sums are always doubles.
template <typename V>
PageRankResult pagerank_pull_jacobi(const CSRGraph<V>& g, const PageRankOptions& o) {
  return needs_double_contributions(o) ? pagerank_pull_jacobi_with<V, double>(g, o)
                                       : pagerank_pull_jacobi_with<V, float>(g, o);
}

}  // namespace numagraph::kernels
