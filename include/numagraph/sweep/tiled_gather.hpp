// The sweep over tiled arcs (sweep/tiled_arcs.hpp) shared by the flat pull
// kernels (Jacobi PageRank, SpMV): every row's sum of values[c] (times the
// arc's weight when Weighted), handed to finish(row, sum) once complete.
// Sums are added in increasing column order, so they differ from the
// unblocked sweep's (in-list order, gather_sum.hpp) only in
// the last bits, and do not depend on the number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/sweep/tiled_arcs.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

// Each thread's buffer of 2^row_bits sums for the tiled sweep, kept for a
// whole kernel call (every iteration reuses it) and allocated by the thread
// that uses it (first touch), on its first call to mine().
class TileSums {
 public:
  explicit TileSums(int row_bits)
      : size_(std::size_t{1} << row_bits), buffers_(static_cast<std::size_t>(parallel::max_threads())) {}
  // This thread's buffer; call it inside the parallel region.
  double* mine() {
    NumaArray<double>& b = buffers_[static_cast<std::size_t>(parallel::thread_id())];
    if (b.size() != size_) b = NumaArray<double>::for_overwrite(size_);  // zeroed per row block
    return b.data();
  }

 private:
  std::size_t size_;
  std::vector<NumaArray<double>> buffers_;
};

// How far ahead (in arcs) the sweep prefetches its arc stream (and weights),
// and how many arcs it takes per prefetch (one 64-byte line). The stream is
// read in order, yet the hardware prefetcher alone lets the sweep wait on it,
// as the random buffer updates between its loads keep few misses in flight.
// Measured: docs/kernels/pr.md, "Arc prefetch".
inline constexpr eid_t kArcPrefetchAhead = 512;
inline constexpr eid_t kArcsPerPrefetch = 16;

// One tile's arcs [k, end) added into `sums` in order (so the same bits
// whatever the batching).
template <bool Weighted, typename T>
[[gnu::always_inline]] inline void add_tile(const std::uint32_t* arcs, const weight_t* weights, eid_t k, eid_t end,
                                            const T* window, int col_bits, double* sums) {
  const std::uint32_t col_mask = (1u << col_bits) - 1;  // col_bits <= 31 (tiled_arcs.hpp)
  auto add = [&](eid_t j) {
    const std::uint32_t a = arcs[j];
    const double x = static_cast<double>(window[a & col_mask]);
    if constexpr (Weighted)
      sums[a >> col_bits] += static_cast<double>(weights[j]) * x;
    else
      sums[a >> col_bits] += x;
  };
  for (; k + kArcsPerPrefetch <= end; k += kArcsPerPrefetch) {
    // Past the array's end near the last tile: a prefetch never faults.
    __builtin_prefetch(arcs + k + kArcPrefetchAhead);
    if constexpr (Weighted) __builtin_prefetch(weights + k + kArcPrefetchAhead);
#pragma GCC unroll 16
    for (eid_t j = 0; j < kArcsPerPrefetch; ++j) add(k + j);
  }
  for (; k < end; ++k) add(k);
}

// Call it from inside a parallel region, by every thread, with this thread's
// buffer of 2^row_bits doubles (TileSums::mine): the row blocks are shared out one at a time
// (a block is thousands of rows, and blocks differ in arcs on skewed graphs).
// One thread finishes a block's rows in increasing order, then calls
// block_done(b): what is summed over a block there does not depend on the
// schedule.
template <bool Weighted, typename V, typename T, typename Finish, typename BlockDone>
void tiled_sweep(const TiledArcs<V>& t, const T* values, double* sums, Finish&& finish, BlockDone&& block_done) {
  const std::int64_t n = t.num_rows();
  const int col_bits = t.col_bits(), row_bits = t.row_bits();
  const std::uint32_t* arcs = t.arcs();
  const weight_t* weights = t.weights();
#pragma omp for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < t.row_blocks(); ++b) {
    const std::int64_t lo = b << row_bits, hi = std::min(n, (b + 1) << row_bits);
    std::fill(sums, sums + (hi - lo), 0.0);
    for (std::int64_t s = 0; s < t.col_blocks(); ++s)
      add_tile<Weighted>(arcs, weights, t.tile_begin(b, s), t.tile_end(b, s), values + (s << col_bits), col_bits,
                         sums);
    for (std::int64_t v = lo; v < hi; ++v) finish(v, sums[v - lo]);
    block_done(b);
  }
}

template <bool Weighted, typename V, typename T, typename Finish>
void tiled_sweep(const TiledArcs<V>& t, const T* values, double* sums, Finish&& finish) {
  tiled_sweep<Weighted>(t, values, sums, finish, [](std::int64_t) {});
}

}  // namespace numagraph::kernels
