// PageRank, pull direction, Jacobi iteration (the "SpMV" formulation, gapbs's
// pr_spmv): every vertex sums its in-neighbours' contributions x[u]/outdeg(u)
// of the previous iterate. Contributions are double-buffered: the sweep that
// computes x'[v] also writes v's next contribution into the second buffer,
// so an iteration is one pass over the vertices (no separate pass that
// divides every score by its degree), reads of the current buffer never race
// with writes, and the result does not depend on threads. Dangling mass for
// the NetworkX mode is summed in the same pass.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/pr/pull_jacobi_segmented.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
PageRankResult pagerank_pull_jacobi_with(const CSRGraph<V>& g, const PageRankOptions& o) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n));
  if (n == 0) return r;
  NumaArray<C> contrib(static_cast<std::size_t>(n)), next_contrib(static_cast<std::size_t>(n));
  const double init = 1.0 / static_cast<double>(n);
  double dangling = 0;  // score mass on vertices without out-edges
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (std::int64_t v = 0; v < n; ++v) {
    r.scores[v] = init;
    const eid_t d = g.out_degree(static_cast<V>(v));
    contrib[v] = static_cast<C>(d ? init / static_cast<double>(d) : 0.0);
    if (!d) dangling += init;
  }
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    const double base = (1 - o.damping) / static_cast<double>(n) +
                        (o.networkx ? o.damping * dangling / static_cast<double>(n) : 0.0);
    double change = 0, next_dangling = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : change, next_dangling)
    for (std::int64_t v = 0; v < n; ++v) {
      const double next = base + o.damping * gather_sum(g.in_neighbors(static_cast<V>(v)), contrib.data());
      change += std::fabs(next - r.scores[v]);
      r.scores[v] = next;
      const eid_t d = g.out_degree(static_cast<V>(v));
      next_contrib[v] = static_cast<C>(d ? next / static_cast<double>(d) : 0.0);
      if (!d) next_dangling += next;
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

// Contributions are read once per edge in random order, so their width is
// what the memory system feels: 32-bit floats (as gapbs uses) unless the run
// asks for more precision than a float carries (NetworkX mode, or a
// tolerance below 1e-6). Scores and sums are always doubles.
// When the contributions outgrow the last-level cache the sweep is blocked
// (pull_jacobi_segmented.hpp; o.cache_block_bytes decides).
template <typename V>
PageRankResult pagerank_pull_jacobi(const CSRGraph<V>& g, const PageRankOptions& o) {
  const bool wide = needs_double_contributions(o);
  const std::int64_t width = pagerank_block_width(g, o);
  if (width > 0)
    return wide ? pagerank_pull_jacobi_segmented<V, double>(g, o, width)
                : pagerank_pull_jacobi_segmented<V, float>(g, o, width);
  return wide ? pagerank_pull_jacobi_with<V, double>(g, o) : pagerank_pull_jacobi_with<V, float>(g, o);
}

}  // namespace numagraph::kernels
