// PageRank, pull direction, Gauss-Seidel iteration (gapbs's default `pr`):
// one contribution array is updated in place as soon as a vertex's new score
// is known, so later vertices of the same sweep already see it. It saves
// the separate contribution pass, but measured by the L1 change of a sweep it
// is not faster: on Kronecker and scale-free undirected graphs it needs about
// twice Jacobi's iterations for the same tolerance (gapbs's pr and pr_spmv
// show the same). Scores depend slightly on the schedule (within the
// tolerance). Not for the NetworkX-compatible mode, whose fixed-point rule is
// Jacobi's.
// Threads read contributions while other threads overwrite them: that race is
// the Gauss-Seidel method itself (a reader gets the old or the new value, both
// are valid iterates; an aligned float store is one instruction). The reads are
// plain loads on purpose: atomic loads would keep the compiler from
// overlapping them and cost ~40 % here.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel_segmented.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
PageRankResult pagerank_pull_gauss_seidel_with(const CSRGraph<V>& g, const PageRankOptions& o) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n));
  if (n == 0) return r;
  NumaArray<C> contrib(static_cast<std::size_t>(n));
  const double base = (1 - o.damping) / static_cast<double>(n);
  start_pagerank(g, r, contrib.data());  // the dangling mass is dropped (gapbs's model)
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    double change = 0;
#pragma omp parallel for schedule(dynamic, 16384) reduction(+ : change)
    for (std::int64_t v = 0; v < n; ++v) {
      const double next = base + o.damping * gather_sum(g.in_neighbors(static_cast<V>(v)), contrib.data());
      change += std::fabs(next - r.scores[v]);
      r.scores[v] = next;
      const eid_t d = g.out_degree(static_cast<V>(v));
      contrib[v] = static_cast<C>(d ? next / static_cast<double>(d) : 0.0);
    }
    r.iterations = it + 1;
    r.last_change = change;
    if (o.tolerance > 0 && change < o.tolerance) break;
  }
  return r;
}

// Float contributions unless the run needs more precision (see pull_jacobi.hpp).
// When the contributions outgrow the last-level cache the sweep becomes block
// Gauss-Seidel over cache blocks (pull_gauss_seidel_segmented.hpp;
// o.cache_block_bytes decides).
template <typename V>
PageRankResult pagerank_pull_gauss_seidel(const CSRGraph<V>& g, const PageRankOptions& o) {
  if (o.networkx) throw UsageError("the NetworkX-compatible PageRank is a Jacobi iteration: use the spmv variant");
  const std::int64_t width = pagerank_block_width(g, o);
  return with_contribution_type(o, [&](auto c) {
    using C = decltype(c);
    return width > 0 ? pagerank_pull_gauss_seidel_segmented<V, C>(g, o, width)
                     : pagerank_pull_gauss_seidel_with<V, C>(g, o);
  });
}

}  // namespace numagraph::kernels
