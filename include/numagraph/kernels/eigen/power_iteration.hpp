// Eigenvector and Katz centrality, the flat kernel: NetworkX's power
// iteration (options.hpp) as Jacobi pull sweeps over the in-lists, the SpMV
// loop of kernels/spmv/csr_rows.hpp with the update of options.hpp folded
// into the sweep. One sweep reads every in-arc once (O(m) per iteration),
// plus for eigenvector a pass over the vertices that normalizes and takes
// the L1 change (NetworkX's order: normalize, then compare).
// When x outgrows one core's L2 the sweep is tiled as PageRank's Jacobi
// sweep is (sweep/tiled_arcs.hpp, tiled_gather.hpp); the tiles are built in
// the call and counted in its time.
// Every sum over vertices (norm, change) is added per fixed piece of
// vertices in vertex order, and the pieces in order: the same bits on every
// run, for any thread count when not tiled.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/eigen/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/sweep/tiled_gather.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// Vertices per piece of the fixed-order sums when not tiled (tiled: a row block).
inline constexpr std::int64_t kCentralityPiece = 1024;

// The tiling of the flat sweep: as PageRank's Jacobi sweep (a tile's arc is one 32-bit word).
template <typename V>
TileShape centrality_tile_shape(const CSRGraph<V>& g, const PowerIteration& p) {
  CacheBlockRequest r;
  r.vertices = g.num_vertices();
  r.arcs = static_cast<std::int64_t>(g.num_arcs());
  r.value_bytes = sizeof(double);
  r.arc_bytes = sizeof(std::uint32_t) + (p.weighted ? sizeof(weight_t) : 0);
  r.sweeps = p.max_iterations;
  r.block_bytes = p.cache_block_bytes;
  return cache_tile_shape(r, parallel::max_threads());
}

// Sum of the pieces, in order.
inline double sum_in_order(const std::vector<double>& pieces) {
  double s = 0;
  for (const double x : pieces) s += x;
  return s;
}

template <bool Tiled, bool Prefetch, bool Weighted, typename V>
void power_sweeps(const CSRGraph<V>& g, const PowerIteration& p, const TiledArcs<V>* tiles, CentralityResult& r) {
  const std::int64_t n = g.num_vertices();
  auto x = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("x"));
  auto y = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("y"));
  const double start = p.start(n);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = start; });
  TileSums sums(Tiled ? tiles->row_bits() : 0);
  const std::int64_t pieces = Tiled ? tiles->row_blocks() : (n + kCentralityPiece - 1) / kCentralityPiece;
  const std::int64_t piece_size = Tiled ? (std::int64_t{1} << tiles->row_bits()) : kCentralityPiece;
  std::vector<double> piece_sum(static_cast<std::size_t>(pieces));  // sweep: sum y^2 (eigen) or |y - x| (Katz)
  std::vector<double> piece_change(static_cast<std::size_t>(pieces));
  const eid_t* const off = g.in_arrays().offsets.data();
  const V* const nb = g.in_arrays().neighbors.data();
  const weight_t* const w = Weighted ? g.in_arrays().weights.data() : nullptr;
  const eid_t last = last_arc(off, n);
  const bool katz = p.rule == PowerRule::kKatz;
  const double alpha = p.alpha, beta = p.beta, limit = p.stop_limit(n);
  for (int it = 0; it < p.max_iterations; ++it) {
    throw_if_cancelled();
    profile::InnerPhase phase("iteration");
    const double* const xs = x.data();
    double* const ys = y.data();
    // Finishes vertex v from its in-sum; adds to its piece's sum.
    auto finish = [=](std::int64_t v, double sum, double& mine) {
      if (katz) {
        const double next = alpha * sum + beta;
        mine += std::fabs(next - xs[v]);
        ys[v] = next;
      } else {
        const double next = xs[v] + sum;
        mine += next * next;
        ys[v] = next;
      }
    };
    if constexpr (Tiled) {
#pragma omp parallel
      {
        double mine = 0;
        tiled_sweep<Weighted>(
            *tiles, xs, sums.mine(), [&](std::int64_t v, double sum) { finish(v, sum, mine); },
            [&](std::int64_t b) {
              piece_sum[static_cast<std::size_t>(b)] = mine;
              mine = 0;
            });
      }
    } else {
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t q = 0; q < pieces; ++q) {
        double mine = 0;
        const std::int64_t end = std::min(n, (q + 1) * kCentralityPiece);
        for (std::int64_t v = q * kCentralityPiece; v < end; ++v) {
          double sum;
          if constexpr (Weighted)
            sum = gather_weighted_sum_ahead<Prefetch>(nb, w, off[v], off[v + 1], last, xs);
          else
            sum = gather_sum_ahead<Prefetch>(nb, off[v], off[v + 1], last, xs);
          finish(v, sum, mine);
        }
        piece_sum[static_cast<std::size_t>(q)] = mine;
      }
    }
    double change;
    if (katz) {
      change = sum_in_order(piece_sum);
    } else {
      // NetworkX: norm = hypot(x') or 1; x' /= norm; change = sum |x' - x|.
      const double two_norm = std::sqrt(sum_in_order(piece_sum));
      r.eigenvalue = two_norm - 1;  // ||(A^T + I) x|| with ||x|| = 1, less the shift
      const double scale = two_norm > 0 ? 1.0 / two_norm : 1.0;
#pragma omp parallel for schedule(static)
      for (std::int64_t q = 0; q < pieces; ++q) {
        double mine = 0;
        const std::int64_t end = std::min(n, (q + 1) * piece_size);
        for (std::int64_t v = q * piece_size; v < end; ++v) {
          ys[v] *= scale;
          mine += std::fabs(ys[v] - xs[v]);
        }
        piece_change[static_cast<std::size_t>(q)] = mine;
      }
      change = sum_in_order(piece_change);
    }
    x.swap(y);
    r.iterations = it + 1;
    r.last_change = change;
    if (change < limit) {
      r.converged = true;
      break;
    }
  }
  if (katz && p.normalized && r.converged) {
    // NetworkX normalizes only a converged run's answer; by the L2 norm, or 1 when it is 0.
    for (std::int64_t q = 0; q < pieces; ++q) {
      double mine = 0;
      const std::int64_t end = std::min(n, (q + 1) * piece_size);
      for (std::int64_t v = q * piece_size; v < end; ++v) mine += x[v] * x[v];
      piece_sum[static_cast<std::size_t>(q)] = mine;
    }
    const double two_norm = std::sqrt(sum_in_order(piece_sum));
    const double scale = two_norm > 0 ? 1.0 / two_norm : 1.0;
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] *= scale; });
  }
  r.values = std::move(x);
}

template <bool Tiled, bool Prefetch, typename V>
void power_sweeps_of(const CSRGraph<V>& g, const PowerIteration& p, const TiledArcs<V>* tiles, CentralityResult& r) {
  if (p.weighted)
    power_sweeps<Tiled, Prefetch, true>(g, p, tiles, r);
  else
    power_sweeps<Tiled, Prefetch, false>(g, p, tiles, r);
}

// The power iteration on the flat CSR; the tiling as p.cache_block_bytes decides.
template <typename V>
CentralityResult power_iteration_pull(const CSRGraph<V>& g, const PowerIteration& p) {
  CentralityResult r;
  const std::int64_t n = g.num_vertices();
  if (n == 0) {
    r.converged = true;
    return r;
  }
  const TileShape shape = centrality_tile_shape(g, p);
  if (!shape.tiled()) {
    if (prefetch_pays(n, sizeof(double)))
      power_sweeps_of<false, true>(g, p, static_cast<const TiledArcs<V>*>(nullptr), r);
    else
      power_sweeps_of<false, false>(g, p, static_cast<const TiledArcs<V>*>(nullptr), r);
    return r;
  }
  const profile::Timer copy;
  const TiledArcs<V> tiles(g, true, shape);
  r.cache_copy_s = copy.seconds();
  r.cache_segments = static_cast<int>(tiles.col_blocks());
  power_sweeps_of<true, false>(g, p, &tiles, r);
  return r;
}

}  // namespace numagraph::kernels
