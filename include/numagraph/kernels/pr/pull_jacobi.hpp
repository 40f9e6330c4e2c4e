// PageRank, pull direction, Jacobi iteration (the "SpMV" formulation, gapbs's
// pr_spmv): every vertex sums its in-neighbours' contributions x[u]/outdeg(u)
// of the previous iterate. Contributions are double-buffered: the sweep that
// computes x'[v] also writes v's next contribution into the second buffer,
// so an iteration is one pass over the vertices (no separate pass that
// divides every score by its degree), reads of the current buffer never race
// with writes, and the result does not depend on threads. Dangling mass for
// the NetworkX mode is summed in the same pass.
// When the contributions outgrow one core's L2 the sweep is tiled:
// the in-arcs are cut by source range and by target block
// (sweep/tiled_arcs.hpp) and each block of vertices is summed tile by tile
// into a buffer the L2 holds (tiled_gather.hpp); each vertex is then
// finished as the unblocked sweep does. The tiled copy is built inside the
// call (about two unblocked iterations' time) and counted in the kernel's
// time.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/sweep/tiled_gather.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// An iteration's totals over a share of the vertices: L1 change and dangling mass.
struct JacobiTotals {
  double change = 0, dangling = 0;
  JacobiTotals& operator+=(const JacobiTotals& o) {
    change += o.change;
    dangling += o.dangling;
    return *this;
  }
};

// The iterations, tiled over `tiles` or not (a template argument: a
// run-time test in the vertex loop is slower); an unblocked sweep
// prefetches with Prefetch, or, with ShortLists, sums lists of up to 4 arcs
// without a loop (gather_sum.hpp; on a graph that splits statically).
// Measured: docs/kernels/pr.md, "Loop shape".
template <bool Tiled, bool Prefetch, typename V, typename C, bool ShortLists = false>
void pagerank_jacobi_iterations(const CSRGraph<V>& g, const PageRankOptions& o, const TiledArcs<V>* tiles,
                                PageRankResult& r) {
  const std::int64_t n = g.num_vertices();
  TileSums sums(Tiled ? tiles->row_bits() : 0);
  // start_pagerank fills contrib, and every sweep writes all of next_contrib.
  auto contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  auto next_contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("contrib"));
  double dangling = start_pagerank(g, r, contrib.data());  // score mass on vertices without out-edges
  // Raw pointers, read once and captured by value: through references the
  // compiler reloaded the graph's and options' fields per vertex (it cannot
  // tell the stores leave them alone).
  const eid_t* const in_off = g.in_arrays().offsets.data();
  const V* const in_nb = g.in_arrays().neighbors.data();
  const eid_t* const out_off = g.out().offsets.data();
  double* const score = r.scores.data();
  const double damping = o.damping;
  const eid_t last = last_arc(in_off, n);  // the prefetch's bound (gather_sum.hpp)
  const bool static_split = splits_statically(g);
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    profile::InnerPhase phase("iteration");
    const double base = (1 - damping) / static_cast<double>(n) +
                        (o.networkx ? damping * dangling / static_cast<double>(n) : 0.0);
    const C* const x = contrib.data();
    C* const next_x = next_contrib.data();
    double change = 0, next_dangling = 0;
    // Finishes vertex v from its whole sum: score, L1 change, next contribution.
    auto finish = [=](std::int64_t v, double sum, double& my_change, double& my_dangling) {
      const double next = base + damping * sum;
      my_change += std::fabs(next - score[v]);
      score[v] = next;
      const eid_t d = out_off[v + 1] - out_off[v];
      const double kept = score_if_out_arcs(next, d);
      next_x[v] = contribution<C>(kept, d);
      my_dangling += next - kept;
    };
    if constexpr (Tiled) {
#pragma omp parallel reduction(+ : change, next_dangling)
      {
        tiled_sweep<false>(*tiles, x, sums.mine(),
                           [&](std::int64_t v, double sum) { finish(v, sum, change, next_dangling); });
      }
    } else {
      // One combined construct: an orphaned loop in a parallel region is
      // slower (docs/kernels/pr.md, "Loop shape").
      auto update = [=](std::int64_t v, double& my_change, double& my_dangling) {
        finish(v, gather_sum_ahead<Prefetch>(in_nb, in_off[v], in_off[v + 1], last, x), my_change, my_dangling);
      };
      // Equal shares of the vertices on sparse graphs (kernels/static_split.hpp).
      if (ShortLists && static_split) {
        const std::int64_t shares = parallel::max_threads();
#pragma omp parallel for schedule(static) reduction(+ : change, next_dangling)
        for (std::int64_t t = 0; t < shares; ++t) {
          const JacobiTotals mine = gather_sums_of_short_lists<JacobiTotals>(
              in_nb, in_off, t * n / shares, (t + 1) * n / shares, x, [=](std::int64_t v, double sum) {
                JacobiTotals share;
                finish(v, sum, share.change, share.dangling);
                return share;
              });
          change += mine.change;
          next_dangling += mine.dangling;
        }
      } else if (static_split) {
#pragma omp parallel for schedule(static) reduction(+ : change, next_dangling)
        for (std::int64_t v = 0; v < n; ++v) update(v, change, next_dangling);
      } else {
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : change, next_dangling)
        for (std::int64_t v = 0; v < n; ++v) update(v, change, next_dangling);
      }
    }
    contrib.swap(next_contrib);
    dangling = next_dangling;
    r.iterations = it + 1;
    r.last_change = change;
    if (o.tolerance > 0 && change < stop_limit(o, n)) break;
  }
}

// `shape`: the tiling, or TileShape{} (not tiled).
template <typename V, typename C>
PageRankResult pagerank_pull_jacobi_with(const CSRGraph<V>& g, const PageRankOptions& o, TileShape shape) {
  PageRankResult r;
  // start_pagerank fills it
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(g.num_vertices()),
      numa::placement_for("ranks"));
  if (g.num_vertices() == 0) return r;
  if (!shape.tiled()) {
    if (prefetch_pays(g.num_vertices(), sizeof(C)))
      pagerank_jacobi_iterations<false, true, V, C>(g, o, nullptr, r);
    else if (splits_statically(g) && lists_mostly_short(g.in_arrays().offsets.data(), g.num_vertices()))
      pagerank_jacobi_iterations<false, false, V, C, true>(g, o, nullptr, r);
    else
      pagerank_jacobi_iterations<false, false, V, C>(g, o, nullptr, r);
    return r;
  }
  const profile::Timer copy;
  const TiledArcs<V> tiles(g, true, shape);
  r.cache_copy_s = copy.seconds();
  r.cache_segments = static_cast<int>(tiles.col_blocks());
  r.tile_row_bits = tiles.row_bits();
  pagerank_jacobi_iterations<true, false, V, C>(g, o, &tiles, r);
  return r;
}

// Contributions are read once per edge in random order, so their width is
// what the memory system feels: 32-bit floats (as gapbs uses) unless the run
// asks for more precision than a float carries (NetworkX mode, or a
// tolerance below 1e-6). Scores and sums are always doubles. Tiling as
// o.cache_block_bytes decides (sweep/cache_blocking.hpp).
template <typename V>
PageRankResult pagerank_pull_jacobi(const CSRGraph<V>& g, const PageRankOptions& o) {
  const TileShape shape = pagerank_tile_shape(g, o);
  return with_contribution_type(o, [&](auto c) { return pagerank_pull_jacobi_with<V, decltype(c)>(g, o, shape); });
}

}  // namespace numagraph::kernels
