// Repeated sparse matrix-vector product, the flat kernel. A[u][v] is the
// weight of arc u -> v (1 when unweighted), so row u of y = A x runs over u's
// out-edges: one sequential pass over the CSR per product, random reads of x.
// Each iteration feeds back x <- y / sum(|y|) (the power iteration), which
// keeps values finite for any number of iterations; x starts at 1/n. The
// result is the last y. Same model as the NUMA engine's SpMV.
// The normalisation is folded into the next product (y' = (A y) / sum|y|),
// so an iteration is one pass: no separate pass that rescales x.
// When x outgrows the last-level cache the product is tiled: the arcs cut by
// column range and by row block (sweep/tiled_arcs.hpp, weights travel with
// their arcs), each row block summed tile by tile into a buffer the L2 holds
// (kernels/pr/tiled_gather.hpp). The tiled copy is built inside the call and
// counted in the kernel's time; a directed graph without in-edges (from
// which the copy is built) is not tiled.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/sweep/tiled_gather.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// The blocking request of a product over g's out-lists, `arc_bytes` per
// arc of the blocked copy (sweep/cache_blocking.hpp).
template <typename V>
CacheBlockRequest spmv_block_request(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes,
                                     std::size_t arc_bytes) {
  CacheBlockRequest r;
  r.vertices = g.num_vertices();
  r.arcs = static_cast<std::int64_t>(g.num_arcs());
  r.value_bytes = sizeof(double);
  r.arc_bytes = arc_bytes + (g.weighted() ? sizeof(weight_t) : 0);
  r.sweeps = iterations;
  r.block_bytes = cache_block_bytes;
  return r;
}

// Columns per cache block of the NUMA engine's segmented product, or 0:
// `cache_block_bytes` is kAutoBlock, 0 (off) or bytes of x per block.
template <typename V>
std::int64_t spmv_block_width(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes) {
  return cache_block_width(spmv_block_request(g, iterations, cache_block_bytes, sizeof(V)));
}

// The tiling of the flat product (a tile's arc is one 32-bit word): none for
// a directed graph without in-edges, from which the tiles are built.
template <typename V>
TileShape spmv_tile_shape(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes) {
  if (!g.has_in_edges()) return {};
  return cache_tile_shape(spmv_block_request(g, iterations, cache_block_bytes, sizeof(std::uint32_t)),
                          parallel::max_threads());
}

// The products, tiled over `tiles` or not (a template argument, as in
// pull_jacobi.hpp: no run-time test in the row loop); an unblocked product
// prefetches with Prefetch (kernels/pr/gather_sum.hpp).
template <bool Tiled, bool Prefetch, typename V>
NumaArray<double> spmv_products(const CSRGraph<V>& g, int iterations, const TiledArcs<V>* tiles) {
  const std::int64_t n = g.num_vertices();
  // x is filled below and every product writes all of y.
  auto x = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("x"));
  auto y = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("y"));
  TileSums sums(Tiled ? tiles->row_bits() : 0);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { x[v] = 1.0 / static_cast<double>(n); });
  const bool weighted = g.weighted();
  // sum|y| is added up per fixed piece of rows (a row block when tiled,
  // kRowsPerPiece rows when not), each piece by one thread in row order, and
  // the pieces in order: the same bits on every run and, unblocked, for any
  // thread count (a reduction clause would add in schedule order).
  constexpr std::int64_t kRowsPerPiece = 1024;
  const std::int64_t pieces = Tiled ? tiles->row_blocks() : (n + kRowsPerPiece - 1) / kRowsPerPiece;
  std::vector<double> piece_norm(static_cast<std::size_t>(pieces));
  double scale = 1;  // x of this product = scale * the vector held in `x`
  for (int it = 0; it < iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    if constexpr (Tiled) {
#pragma omp parallel
      {
        double* const mine = sums.mine();
        double block_norm = 0;
        auto finish = [&](std::int64_t u, double sum) {
          y[u] = scale * sum;
          block_norm += std::fabs(y[u]);
        };
        auto block_done = [&](std::int64_t b) {
          piece_norm[static_cast<std::size_t>(b)] = block_norm;
          block_norm = 0;
        };
        if (weighted)
          tiled_sweep<true>(*tiles, x.data(), mine, finish, block_done);
        else
          tiled_sweep<false>(*tiles, x.data(), mine, finish, block_done);
      }
    } else {  // one combined construct, as in pull_jacobi.hpp
      const eid_t* const off = g.out().offsets.data();
      const V* const nb = g.out().neighbors.data();
      const weight_t* const w = weighted ? g.out().weights.data() : nullptr;
      const eid_t last = last_arc(off, n);  // the prefetch's bound (gather_sum.hpp)
      const double* const xs = x.data();
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t p = 0; p < pieces; ++p) {
        double piece = 0;
        const std::int64_t end = std::min(n, (p + 1) * kRowsPerPiece);
        for (std::int64_t u = p * kRowsPerPiece; u < end; ++u) {
          const double sum = weighted ? gather_weighted_sum_ahead<Prefetch>(nb, w, off[u], off[u + 1], last, xs)
                                      : gather_sum_ahead<Prefetch>(nb, off[u], off[u + 1], last, xs);
          y[u] = scale * sum;
          piece += std::fabs(y[u]);
        }
        piece_norm[static_cast<std::size_t>(p)] = piece;
      }
    }
    if (it + 1 == iterations) break;
    double norm = 0;
    for (const double piece : piece_norm) norm += piece;
    scale = norm > 0 ? 1.0 / norm : 1.0;
    x.swap(y);
  }
  return y;
}

// The products with the tiling given (TileShape{}: not tiled). With
// `copy_seconds`, stores the seconds spent building the tiles (0 untiled).
template <typename V>
NumaArray<double> spmv_rows(const CSRGraph<V>& g, int iterations, TileShape shape, double* copy_seconds = nullptr) {
  if (copy_seconds) *copy_seconds = 0;
  const auto* none = static_cast<const TiledArcs<V>*>(nullptr);
  if (!shape.tiled() || g.num_vertices() == 0)
    return prefetch_pays(g.num_vertices(), sizeof(double)) ? spmv_products<false, true>(g, iterations, none)
                                                           : spmv_products<false, false>(g, iterations, none);
  const profile::Timer copy;
  const TiledArcs<V> tiles(g, false, shape);
  if (copy_seconds) *copy_seconds = copy.seconds();
  return spmv_products<true, false>(g, iterations, &tiles);
}

// The products, tiled as cache_block_bytes decides (spmv_tile_shape).
template <typename V>
NumaArray<double> spmv_rows(const CSRGraph<V>& g, int iterations, std::int64_t cache_block_bytes = kAutoBlock) {
  return spmv_rows(g, iterations, spmv_tile_shape(g, iterations, cache_block_bytes));
}

}  // namespace numagraph::kernels
