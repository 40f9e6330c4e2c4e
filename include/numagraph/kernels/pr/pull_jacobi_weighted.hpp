// PageRank, pull direction, Jacobi iteration, in the weighted and
// personalized model (kernels/pr/model.hpp): the sweep of pull_jacobi.hpp
// (double-buffered contributions, one pass per iteration, tiled once the
// contributions outgrow one core's L2), where a vertex's contribution is
// x[u] / W(u), a sum weights its arcs when the weights are used, and a
// vertex's teleport and dangling shares come from the model's arrays. Runs
// only when weights or a distribution are asked for; the unweighted kernel
// keeps its own loop.
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/model.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/sweep/tiled_gather.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// The blocking request of a weighted sweep: an arc of the blocked copy
// carries its weight too.
template <typename G>
CacheBlockRequest pagerank_weighted_block_request(const G& g, const PageRankOptions& o, std::size_t id_bytes,
                                                  bool weighted) {
  return pagerank_block_request(g, o, id_bytes + (weighted ? sizeof(weight_t) : 0));
}

template <bool Tiled, bool Prefetch, bool Weighted, typename V, typename C>
void pagerank_weighted_jacobi_iterations(const CSRGraph<V>& g, const PageRankOptions& o, const PageRankModel& m,
                                         const TiledArcs<V>* tiles, PageRankResult& r) {
  const std::int64_t n = g.num_vertices();
  TileSums sums(Tiled ? tiles->row_bits() : 0);
  auto contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  auto next_contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  const eid_t* const in_off = g.in_arrays().offsets.data();
  const V* const in_nb = g.in_arrays().neighbors.data();
  const weight_t* const in_w = Weighted ? g.in_arrays().weights.data() : nullptr;
  const double* const teleport = m.teleport.data();
  const double* const dangling_share = m.dangling_share.data();
  const double* const inv_out = m.inv_out.data();
  double* const score = r.scores.data();
  const double damping = o.damping;
  const eid_t last = last_arc(in_off, n);
  const bool static_split = splits_statically(g);
  const double init = 1.0 / static_cast<double>(n);
  double dangling = 0;  // score on dangling vertices (W = 0)
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (std::int64_t v = 0; v < n; ++v) {
    score[v] = init;
    contrib[v] = static_cast<C>(init * inv_out[v]);
    dangling += inv_out[v] > 0 ? 0.0 : init;
  }
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();
    profile::InnerPhase phase("iteration");
    const C* const x = contrib.data();
    C* const next_x = next_contrib.data();
    const double mass = dangling;  // dangling_share is 0 outside NetworkX's mode: the mass is dropped
    double change = 0, next_dangling = 0;
    auto finish = [=](std::int64_t v, double sum, double& my_change, double& my_dangling) {
      const double next = teleport[v] + mass * dangling_share[v] + damping * sum;
      my_change += std::fabs(next - score[v]);
      score[v] = next;
      next_x[v] = static_cast<C>(next * inv_out[v]);
      my_dangling += inv_out[v] > 0 ? 0.0 : next;
    };
    if constexpr (Tiled) {
#pragma omp parallel reduction(+ : change, next_dangling)
      {
        tiled_sweep<Weighted>(*tiles, x, sums.mine(),
                              [&](std::int64_t v, double sum) { finish(v, sum, change, next_dangling); });
      }
    } else {
      auto update = [=](std::int64_t v, double& my_change, double& my_dangling) {
        double sum;
        if constexpr (Weighted)
          sum = gather_weighted_sum_ahead<Prefetch>(in_nb, in_w, in_off[v], in_off[v + 1], last, x);
        else
          sum = gather_sum_ahead<Prefetch>(in_nb, in_off[v], in_off[v + 1], last, x);
        finish(v, sum, my_change, my_dangling);
      };
      if (static_split) {
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

template <bool Weighted, typename V, typename C>
PageRankResult pagerank_pull_jacobi_weighted_with(const CSRGraph<V>& g, const PageRankOptions& o,
                                                  const PageRankModel& m, TileShape shape) {
  PageRankResult r;
  r.variant = PageRankVariant::kJacobi;
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(g.num_vertices()),
                                              numa::placement_for("ranks"));
  if (g.num_vertices() == 0) return r;
  if (!shape.tiled()) {
    if (prefetch_pays(g.num_vertices(), sizeof(C)))
      pagerank_weighted_jacobi_iterations<false, true, Weighted, V, C>(g, o, m, nullptr, r);
    else
      pagerank_weighted_jacobi_iterations<false, false, Weighted, V, C>(g, o, m, nullptr, r);
    return r;
  }
  const profile::Timer copy;
  const TiledArcs<V> tiles(g, true, shape);
  r.cache_copy_s = copy.seconds();
  r.cache_segments = static_cast<int>(tiles.col_blocks());
  r.tile_row_bits = tiles.row_bits();
  pagerank_weighted_jacobi_iterations<true, false, Weighted, V, C>(g, o, m, &tiles, r);
  return r;
}

// Contribution width and tiling as pull_jacobi.hpp decides them.
template <typename V>
PageRankResult pagerank_pull_jacobi_weighted(const CSRGraph<V>& g, const PageRankOptions& o, const PageRankModel& m) {
  const TileShape shape = cache_tile_shape(pagerank_weighted_block_request(g, o, sizeof(std::uint32_t), m.weighted),
                                           parallel::max_threads());
  return with_contribution_type(o, [&](auto c) {
    using C = decltype(c);
    return m.weighted ? pagerank_pull_jacobi_weighted_with<true, V, C>(g, o, m, shape)
                      : pagerank_pull_jacobi_weighted_with<false, V, C>(g, o, m, shape);
  });
}

}  // namespace numagraph::kernels
