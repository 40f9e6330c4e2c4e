#include "pagerank.hpp"

#include <cmath>
#include <optional>

#include "exchange.hpp"
#include "ghost_targets.hpp"
#include "ghosts.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/sweep/tiled_arcs.hpp"
#include "numagraph/sweep/tiled_gather.hpp"

namespace numagraph::dist {

namespace {

// The model's per-vertex arrays for my vertices (model.hpp's PageRankModel).
struct LocalModel {
  std::vector<double> teleport;        // (1 - d) p[v]
  std::vector<double> dangling_share;  // d q[v] in NetworkX's mode, else 0
  std::vector<double> inv_out;         // 1 / W(v), 0 when dangling
};

LocalModel make_local_model(const DistCsr& g, const DistPageRankOptions& o, bool weighted) {
  const std::int64_t n = g.local_n;
  LocalModel m;
  m.teleport.resize(static_cast<std::size_t>(n));
  m.dangling_share.resize(static_cast<std::size_t>(n));
  m.inv_out.resize(static_cast<std::size_t>(n));
  const std::vector<double>& p = o.personalization;
  const std::vector<double>& q = o.dangling.empty() ? p : o.dangling;
  const double uniform = 1.0 / static_cast<double>(g.n), d = o.damping;
  const eid_t* off = g.out.offsets.data();
  const weight_t* w = weighted ? g.out.weights.data() : nullptr;
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    m.teleport[v] = (1 - d) * (p.empty() ? uniform : p[v]);
    m.dangling_share[v] = o.networkx ? d * (q.empty() ? uniform : q[v]) : 0.0;
    double out = 0;
    if (w)
      for (eid_t j = off[v]; j < off[v + 1]; ++j) out += static_cast<double>(w[j]);
    else
      out = static_cast<double>(off[v + 1] - off[v]);
    m.inv_out[v] = out > 0 ? 1.0 / out : 0.0;
  }
  return m;
}

// Adds my L1 change and dangling score into the whole graph's.
void sum_over_ranks(const DistCsr& g, double (&pair)[2], StepTimes& times) {
  wait_for_all(times, g.comm);
  Timed t(times.exchange);
  double total[2] = {0, 0};
  check(MPI_Allreduce(pair, total, 2, MPI_DOUBLE, MPI_SUM, g.comm), "MPI_Allreduce(PageRank sums)");
  pair[0] = total[0];
  pair[1] = total[1];
}

// My block's tiled copy of the in-arcs (sweep/tiled_arcs.hpp), as the shared
// Jacobi kernels tile theirs: rows my vertices, columns my vertices and
// ghosts (the contributions the sweep reads at random).
using LocalTiles = TiledArcs<std::uint32_t>;

// The shared Jacobi kernels' tiling rule (pagerank_tile_shape, and
// pull_jacobi_weighted.hpp's with weights) applied to my block: the values
// read at random are my columns' contributions, the arcs my in-arcs.
TileShape local_tile_shape(const DistCsr& g, const DistPageRankOptions& o, bool doubles, bool weighted) {
  CacheBlockRequest q;
  q.vertices = g.local_total();
  q.arcs = g.local_n > 0 ? static_cast<std::int64_t>(g.in_arcs().offsets[g.local_n]) : 0;
  q.value_bytes = doubles ? sizeof(double) : sizeof(float);
  q.arc_bytes = sizeof(std::uint32_t) + (weighted ? sizeof(weight_t) : 0);
  q.sweeps = o.max_iterations;
  q.block_bytes = o.cache_block_bytes;
  return cache_tile_shape(q, parallel::max_threads());
}

// General: model.hpp's update (teleport and dangling shares per vertex,
// contribution x / W); else pull_jacobi.hpp's (one base for all, contribution
// by the out-degree, dangling mass d D / n in NetworkX's mode). Weighted: the
// sums weight the arcs. Tiled: the sums come from `tiles` (tiled_gather.hpp),
// else from the in-lists, prefetched with Prefetch (gather_sum.hpp).
template <bool Tiled, bool General, bool Weighted, bool Prefetch, typename C>
void iterate(const DistCsr& g, const DistPageRankOptions& o, const LocalModel& m, const LocalTiles* tiles,
             DistPageRankResult& r, StepTimes& times) {
  const std::int64_t n = g.local_n;
  kernels::TileSums tile_sums(Tiled ? tiles->row_bits() : 0);
  const double whole_n = static_cast<double>(g.n);
  // My vertices, then my ghosts. NumaArray, as the shared kernels' arrays:
  // its huge pages spare the random reads of the pull most TLB misses.
  NumaArray<C> contrib(static_cast<std::size_t>(g.local_total()));
  NumaArray<C> next_contrib(contrib.size());
  const eid_t* const in_off = g.in_arcs().offsets.data();
  const std::uint32_t* const in_nb = g.in_arcs().neighbors.data();
  const weight_t* const in_w = Weighted ? g.in_arcs().weights.data() : nullptr;
  const eid_t* const out_off = g.out.offsets.data();
  const double* const teleport = m.teleport.data();
  const double* const dangling_share = m.dangling_share.data();
  const double* const inv_out = m.inv_out.data();
  double* const score = r.scores.data();
  const double damping = o.damping;
  const double init = 1.0 / whole_n;
  const eid_t last = kernels::last_arc(in_off, n);  // the prefetch's bound
  double sums[2] = {0, 0};  // L1 change, dangling score
  {
    Timed t(times.compute);
    C* const x = contrib.data();
    double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
    for (std::int64_t v = 0; v < n; ++v) {
      score[v] = init;
      if constexpr (General) {
        x[v] = static_cast<C>(init * inv_out[v]);
        dangling += inv_out[v] > 0 ? 0.0 : init;
      } else {
        const eid_t d = out_off[v + 1] - out_off[v];
        const double kept = kernels::score_if_out_arcs(init, d);
        x[v] = kernels::contribution<C>(kept, d);
        dangling += init - kept;
      }
    }
    sums[1] = dangling;
  }
  sum_over_ranks(g, sums, times);
  for (int it = 0; it < o.max_iterations; ++it) {
    wait_for_all(times, g.comm);
    {
      Timed t(times.exchange);
      values_to_ghosts(g, contrib.data(), contrib.data() + n);
    }
    {
      Timed t(times.compute);
      const C* const x = contrib.data();
      C* const next_x = next_contrib.data();
      const double mass = sums[1];
      const double base = (1 - damping) / whole_n + (o.networkx ? damping * mass / whole_n : 0.0);
      double change = 0, next_dangling = 0;
      // Finishes vertex v from its whole sum: score, L1 change, next contribution.
      auto finish = [=](std::int64_t v, double sum, double& my_change, double& my_dangling) {
        if constexpr (General) {
          const double next = teleport[v] + mass * dangling_share[v] + damping * sum;
          my_change += std::fabs(next - score[v]);
          score[v] = next;
          next_x[v] = static_cast<C>(next * inv_out[v]);
          my_dangling += inv_out[v] > 0 ? 0.0 : next;
        } else {
          const double next = base + damping * sum;
          my_change += std::fabs(next - score[v]);
          score[v] = next;
          const eid_t d = out_off[v + 1] - out_off[v];
          const double kept = kernels::score_if_out_arcs(next, d);
          next_x[v] = kernels::contribution<C>(kept, d);
          my_dangling += next - kept;
        }
      };
      if constexpr (Tiled) {
        // Sums in increasing local column order: my vertices, then my ghosts
        // (the shared tiled sweep's order, up to where the ghosts below my
        // block come), so scores agree with the shared kernel's to rounding.
#pragma omp parallel reduction(+ : change, next_dangling)
        {
          kernels::tiled_sweep<Weighted>(*tiles, x, tile_sums.mine(),
                                         [&](std::int64_t v, double sum) { finish(v, sum, change, next_dangling); });
        }
      } else {
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : change, next_dangling)
        for (std::int64_t v = 0; v < n; ++v) {
          // The shared unblocked kernels' sums: the same additions in the same order.
          const double sum =
              Weighted ? kernels::gather_weighted_sum_ahead<Prefetch>(in_nb, in_w, in_off[v], in_off[v + 1], last, x)
                       : kernels::gather_sum_ahead<Prefetch>(in_nb, in_off[v], in_off[v + 1], last, x);
          finish(v, sum, change, next_dangling);
        }
      }
      sums[0] = change;
      sums[1] = next_dangling;
    }
    sum_over_ranks(g, sums, times);
    contrib.swap(next_contrib);
    r.iterations = it + 1;
    r.last_change = sums[0];
    if (o.tolerance > 0 && sums[0] < (o.networkx ? o.tolerance * whole_n : o.tolerance)) break;
  }
}

template <bool General, bool Weighted>
void iterate_with_width(const DistCsr& g, const DistPageRankOptions& o, const LocalModel& m, const LocalTiles* tiles,
                        DistPageRankResult& r, StepTimes& times) {
  auto with = [&](auto width) {
    using C = decltype(width);
    if (tiles)
      iterate<true, General, Weighted, false, C>(g, o, m, tiles, r, times);
    else if (kernels::prefetch_pays(g.local_total(), sizeof(C)))
      iterate<false, General, Weighted, true, C>(g, o, m, nullptr, r, times);
    else
      iterate<false, General, Weighted, false, C>(g, o, m, nullptr, r, times);
  };
  if (r.double_contributions)
    with(double{});
  else
    with(float{});
}

}  // namespace

DistPageRankResult pagerank(const DistCsr& g, const DistPageRankOptions& o, StepTimes& times) {
  DistPageRankResult r;
  r.weights_used = o.use_weights && g.weighted;
  r.general_model = r.weights_used || !o.personalization.empty() || !o.dangling.empty();
  kernels::PageRankOptions shared;  // the shared kernels' rule for the contributions' width
  shared.networkx = o.networkx;
  shared.tolerance = o.tolerance;
  r.double_contributions = kernels::needs_double_contributions(shared);
  r.scores.resize(static_cast<std::size_t>(g.local_n));
  if (g.n == 0) return r;
  LocalModel m;
  if (r.general_model) {
    Timed t(times.compute);
    m = make_local_model(g, o, r.weights_used);
  }
  // The tiled copy is built inside the call and counted in its time, as the
  // shared kernels count theirs (cache_copy_s).
  std::optional<LocalTiles> tiles;
  if (const TileShape shape = local_tile_shape(g, o, r.double_contributions, r.weights_used); shape.tiled()) {
    Timed t(times.compute);
    const double t0 = MPI_Wtime();
    if (g.ghost_targets.offsets.size() == static_cast<std::size_t>(g.ghosts() + 1))
      tiles.emplace(LocalTiles::from_columns(g.local_n, g.local_total(), BlockColumns{g, r.weights_used},
                                             r.weights_used, shape));
    else  // the same tiles, sorted from the rows (a DistCsr loaded without ghost targets)
      tiles.emplace(g.local_n, g.local_total(), g.in_arcs(), r.weights_used, shape);
    r.cache_copy_s = MPI_Wtime() - t0;
    r.cache_segments = static_cast<int>(tiles->col_blocks());
    r.tile_row_bits = tiles->row_bits();
  }
  const LocalTiles* const tiled = tiles ? &*tiles : nullptr;
  if (!r.general_model)
    iterate_with_width<false, false>(g, o, m, tiled, r, times);
  else if (r.weights_used)
    iterate_with_width<true, true>(g, o, m, tiled, r, times);
  else
    iterate_with_width<true, false>(g, o, m, tiled, r, times);
  return r;
}

std::string pagerank_input_problem(const DistCsr& g, const DistPageRankOptions& o) {
  if (!(o.damping >= 0 && o.damping <= 1))
    return "the damping factor must be in [0, 1] (got " + std::to_string(o.damping) + ")";
  if (o.max_iterations < 1) return "PageRank needs at least 1 iteration";
  if (!(o.tolerance >= 0)) return "the tolerance must be zero or positive";
  if (!o.dangling.empty() && !o.networkx)
    return "a dangling distribution needs NetworkX's model (--networkx): the default model drops the dangling mass";
  for (const auto* dist : {&o.personalization, &o.dangling}) {
    const char* what = dist == &o.personalization ? "personalization" : "dangling distribution";
    if (dist->empty()) continue;
    if (static_cast<std::int64_t>(dist->size()) != g.local_n)
      return std::string("the ") + what + " has " + std::to_string(dist->size()) + " values for rank " +
             std::to_string(g.rank) + "'s " + std::to_string(g.local_n) + " vertices (one value per vertex)";
    for (std::size_t v = 0; v < dist->size(); ++v)
      if (!((*dist)[v] >= 0) || !std::isfinite((*dist)[v]))
        return std::string("the ") + what + " gives vertex " + std::to_string(g.first + static_cast<std::int64_t>(v)) +
               " the value " + std::to_string((*dist)[v]) + ": values must be finite and >= 0";
  }
  if (!(o.use_weights && g.weighted) || g.local_n == 0) return "";
  if (g.out.weights.size() != g.out.neighbors.size() || g.in_arcs().weights.size() != g.in_arcs().neighbors.size())
    return "rank " + std::to_string(g.rank) + "'s block of the graph lacks the weights of its out- or in-arcs: build "
           "the DistCsr with both (or run with --unweighted)";
  for (std::int64_t v = 0; v < g.local_n; ++v)
    for (eid_t j = g.out.offsets[v]; j < g.out.offsets[v + 1]; ++j)
      if (!(g.out.weights[j] >= 0))
        return "PageRank needs edge weights >= 0: the edge " + std::to_string(g.first + v) + " -> " +
               std::to_string(g.global_of(g.out.neighbors[j])) + " has weight " + std::to_string(g.out.weights[j]) +
               " (ignore the weights with --unweighted)";
  return "";
}

}  // namespace numagraph::dist
