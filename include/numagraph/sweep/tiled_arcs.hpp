// Two-dimensional cache blocking of one direction of a CSR ("tiles"), for
// the pull sweeps of Jacobi PageRank and SpMV once their vertex values
// outgrow the last-level cache.
//
// A pull sweep computes, for every row r (a vertex), the sum of
// w * values[c] over the columns c in r's list. The (row, column) pairs are
// cut into tiles of 2^row_bits rows by 2^col_bits columns. A thread takes a
// block of rows and adds its tiles, one column range after another, into a
// buffer of 2^row_bits sums that the L2 cache holds; then it finishes the
// rows from the buffer. Within a tile the arcs are ordered by column, so the
// reads of `values` walk a window of 2^col_bits values forward (the hardware
// prefetcher follows them) and the random accesses are the updates of the
// row buffer, which stay in the L2.
//
// Why not only segmented lists (segmented_lists.hpp, which keep each row's
// sum in a register but read a window of a million values at random from the
// L3): a tile reads its window forward and updates a buffer in the L2, which
// is faster. Tiles are ordered by column, not by row: on a skewed graph runs
// of one hot row would chain every addition through the same buffer entry.
// Measured: docs/kernels/pr.md, "Tiles against segments".
//
// Layout: the arcs tile by tile, row block major; tile (b, s) is
// [tile_begin(b, s), tile_end(b, s)). An arc is one 32-bit word,
// (row - first row of block b) << col_bits | (column - first column of range
// s), so col_bits + row_bits <= 32 (and col_bits <= 31); weights (float)
// alongside. Each row adds its arcs in increasing column order, so its sum
// is the same sequence of additions whatever the number of threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph {

template <typename V>
class TiledArcs {
 public:
  // Tiles the lists of `g` that a pull sweep reads: in-lists when
  // `in_direction` (PageRank: row v sums over its in-neighbours), else
  // out-lists (SpMV: row u over its out-neighbours). They are built from the
  // opposite lists (column c's list names the rows whose lists hold c), so
  // that every tile comes out in column order without a sort: a directed
  // graph tiled by out-lists needs its in-edges.
  TiledArcs(const CSRGraph<V>& g, bool in_direction, TileShape shape)
      : rows_(g.num_vertices()), col_bits_(shape.col_bits), row_bits_(shape.row_bits) {
    if (!shape.tiled() || col_bits_ > 31 || row_bits_ < 0 || col_bits_ + row_bits_ > 32)
      throw UsageError("a tile needs at most 31 column bits and at most 32 bits in all (got " +
                       std::to_string(col_bits_) + " and " + std::to_string(row_bits_) + ")");
    if (!in_direction && !g.has_in_edges())
      throw UsageError("tiling the out-lists of a directed graph needs its in-edges: build the graph with in-edges");
    col_blocks_ = blocks(rows_, col_bits_);
    row_blocks_ = blocks(rows_, row_bits_);
    if (g.weighted())
      build<true>(g, in_direction);
    else
      build<false>(g, in_direction);
  }

  std::int64_t num_rows() const { return rows_; }
  int col_bits() const { return col_bits_; }
  int row_bits() const { return row_bits_; }
  std::int64_t col_blocks() const { return col_blocks_; }
  std::int64_t row_blocks() const { return row_blocks_; }
  eid_t tile_begin(std::int64_t b, std::int64_t s) const { return offsets_[static_cast<std::size_t>(b * col_blocks_ + s)]; }
  eid_t tile_end(std::int64_t b, std::int64_t s) const { return offsets_[static_cast<std::size_t>(b * col_blocks_ + s + 1)]; }
  const std::uint32_t* arcs() const { return arcs_.data(); }
  const weight_t* weights() const { return weights_.data(); }

 private:
  static std::int64_t blocks(std::int64_t n, int bits) { return std::max<std::int64_t>(1, ((n - 1) >> bits) + 1); }

  template <bool Weighted>
  void build(const CSRGraph<V>& g, bool in_direction) {
    // Column c's list: its out-neighbours for in-direction rows, else its in-neighbours.
    const CSRArrays<V>& columns = in_direction ? g.out() : g.in_arrays();
    const eid_t* col_off = columns.offsets.data();
    const V* col_rows = columns.neighbors.data();
    const weight_t* col_w = Weighted ? columns.weights.data() : nullptr;
    const std::int64_t n = rows_, nr = row_blocks_, ns = col_blocks_;
    const int col_bits = col_bits_, row_bits = row_bits_;
    // Tasks are pieces of column ranges, 2^piece_bits columns each, at
    // least 4 per thread: the rule may cut fewer ranges than threads. A
    // piece's start per row block costs 8 bytes, so the split stops before
    // those outgrow 2^22 starts (32 MiB) or the tiles' own offsets.
    // Measured: docs/kernels/pr.md, "The tiled copy on 16 cores".
    const std::int64_t most_starts = std::max<std::int64_t>(nr * ns, std::int64_t{1} << 22);
    int piece_bits = col_bits;
    while (piece_bits > 0 && blocks(n, piece_bits) < 4 * static_cast<std::int64_t>(parallel::max_threads()) &&
           nr * blocks(n, piece_bits - 1) <= most_starts)
      --piece_bits;
    const std::int64_t np = blocks(n, piece_bits), per_range = std::int64_t{1} << (col_bits - piece_bits);
    // Count the arcs of every (row block, piece), one piece per task into
    // its own counts; a prefix sum in row-block major order then gives every
    // piece's start, and a tile is its range's pieces in turn.
    std::vector<eid_t> starts(static_cast<std::size_t>(nr * np + 1), 0);
    eid_t* const piece_start = starts.data();
    parallel::for_dynamic(std::int64_t{0}, np, [&](std::int64_t p) {
      std::vector<eid_t> count(static_cast<std::size_t>(nr), 0);
      const eid_t end = col_off[std::min(n, (p + 1) << piece_bits)];
      for (eid_t j = col_off[p << piece_bits]; j < end; ++j) ++count[static_cast<std::uint64_t>(col_rows[j]) >> row_bits];
      for (std::int64_t b = 0; b < nr; ++b) piece_start[b * np + p] = count[static_cast<std::size_t>(b)];
    }, std::int64_t{1});
    parallel::exclusive_prefix_sum(piece_start, piece_start, nr * np);
    const std::int64_t tiles = nr * ns;
    offsets_.assign(static_cast<std::size_t>(tiles + 1), 0);
    for (std::int64_t b = 0; b < nr; ++b)
      for (std::int64_t s = 0; s < ns; ++s) offsets_[static_cast<std::size_t>(b * ns + s)] = piece_start[b * np + s * per_range];
    const eid_t arcs = piece_start[nr * np];
    offsets_[static_cast<std::size_t>(tiles)] = arcs;
    // The fill below writes every slot once (the pieces' starts partition them).
    arcs_ = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(arcs));
    if (Weighted) weights_ = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(arcs));
    std::uint32_t* out = arcs_.data();
    weight_t* out_w = weights_.data();
    const std::uint64_t row_mask = (std::uint64_t{1} << row_bits) - 1;
    // Fill: a piece walks its columns in order and appends each arc to its
    // row block's tile, so tiles come out ordered by column.
    parallel::for_dynamic(std::int64_t{0}, np, [&](std::int64_t p) {
      std::vector<eid_t> cursor(static_cast<std::size_t>(nr));
      for (std::int64_t b = 0; b < nr; ++b) cursor[static_cast<std::size_t>(b)] = piece_start[b * np + p];
      eid_t* at = cursor.data();
      const std::int64_t range_first = (p >> (col_bits - piece_bits)) << col_bits;
      for (std::int64_t c = p << piece_bits; c < std::min(n, (p + 1) << piece_bits); ++c) {
        const auto local_c = static_cast<std::uint32_t>(c - range_first);
        for (eid_t j = col_off[c]; j < col_off[c + 1]; ++j) {
          const auto r = static_cast<std::uint64_t>(col_rows[j]);
          const eid_t k = at[r >> row_bits]++;
          out[k] = static_cast<std::uint32_t>(((r & row_mask) << col_bits) | local_c);
          if constexpr (Weighted) out_w[k] = col_w[j];
        }
      }
    }, std::int64_t{1});
  }

  std::int64_t rows_ = 0;
  int col_bits_ = 0;
  int row_bits_ = 0;
  std::int64_t col_blocks_ = 1;
  std::int64_t row_blocks_ = 1;
  std::vector<eid_t> offsets_;
  NumaArray<std::uint32_t> arcs_;
  NumaArray<weight_t> weights_;
};

}  // namespace numagraph
