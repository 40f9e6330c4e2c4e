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
#include <utility>
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
      : TiledArcs(g.num_vertices(), g.num_vertices(), shape) {
    if (!in_direction && !g.has_in_edges())
      throw UsageError("tiling the out-lists of a directed graph needs its in-edges: build the graph with in-edges");
    // Column c's list: its out-neighbours for in-direction rows, else its in-neighbours.
    const CSRArrays<V>& columns = in_direction ? g.out() : g.in_arrays();
    const ListColumns lists{columns.offsets.data(), columns.neighbors.data(), columns.weights.data()};
    if (g.weighted())
      build<true, false>(lists);
    else
      build<false, false>(lists);
  }

  // The tiles of a rows x cols matrix read by column: `column(c, visit)`
  // calls visit(row, weight) for every arc of column c in [0, cols), rows
  // ascending, a row's repeats in the order its own list holds them. The
  // same tiles as the row-list constructor below builds from the matrix's
  // rows, word for word, at the cost of the column-list constructor above:
  // no sort. A distributed rank's block read by column is its out-lists and
  // its ghosts' lists of targets (mpi/tool/ghost_targets.hpp). A row
  // outside [0, rows) is refused with a reason.
  template <typename Column>
  static TiledArcs from_columns(std::int64_t rows, std::int64_t cols, const Column& column, bool weighted,
                                TileShape shape) {
    TiledArcs t(rows, cols, shape);
    const CallbackColumns<Column> columns{column};
    if (weighted)
      t.template build<true, true>(columns);
    else
      t.template build<false, true>(columns);
    return t;
  }

  // Tiles a rectangular matrix given by its rows' own lists: `rows` rows
  // whose lists in `lists` (offsets over the rows) name columns in
  // [0, cols), in any order, with lists.weights alongside when `weighted`.
  // The same tiles as the constructor above builds from column lists (sorted
  // ones): a row adds its arcs in increasing column order, repeats of one
  // column in their list's order. A distributed rank's block is such a
  // matrix: rows its vertices, columns its vertices and ghosts.
  TiledArcs(std::int64_t rows, std::int64_t cols, const CSRArrays<V>& lists, bool weighted, TileShape shape)
      : TiledArcs(rows, cols, shape) {
    if (rows > 0 && lists.offsets.size() != static_cast<std::size_t>(rows + 1))
      throw UsageError("tiling " + std::to_string(rows) + " rows needs " + std::to_string(rows + 1) +
                       " list offsets (got " + std::to_string(lists.offsets.size()) + ")");
    if (weighted && lists.weights.size() != lists.neighbors.size())
      throw UsageError("tiling weighted lists needs one weight per arc (got " + std::to_string(lists.weights.size()) +
                       " weights for " + std::to_string(lists.neighbors.size()) + " arcs)");
    if (weighted)
      build_from_rows<true>(lists);
    else
      build_from_rows<false>(lists);
  }

  std::int64_t num_rows() const { return rows_; }
  std::int64_t num_cols() const { return cols_; }
  int col_bits() const { return col_bits_; }
  int row_bits() const { return row_bits_; }
  std::int64_t col_blocks() const { return col_blocks_; }
  std::int64_t row_blocks() const { return row_blocks_; }
  eid_t tile_begin(std::int64_t b, std::int64_t s) const { return offsets_[static_cast<std::size_t>(b * col_blocks_ + s)]; }
  eid_t tile_end(std::int64_t b, std::int64_t s) const { return offsets_[static_cast<std::size_t>(b * col_blocks_ + s + 1)]; }
  const std::uint32_t* arcs() const { return arcs_.data(); }
  const weight_t* weights() const { return weights_.data(); }

 private:
  // What build() reads, two ways: rows_in(c0, c1, f) calls f(row) for every
  // arc of columns [c0, c1) (the count), column(c, f) calls f(row, weight)
  // for column c's arcs (the fill).
  struct ListColumns {  // column lists in one CSR: the count is one loop over the arcs
    const eid_t* off;
    const V* rows;
    const weight_t* w;
    template <typename F>
    void rows_in(std::int64_t c0, std::int64_t c1, F&& f) const {
      for (eid_t j = off[c0]; j < off[c1]; ++j) f(rows[j]);
    }
    template <typename F>
    void column(std::int64_t c, F&& f) const {
      for (eid_t j = off[c]; j < off[c + 1]; ++j) f(rows[j], w != nullptr ? w[j] : weight_t{1});
    }
  };
  template <typename Column>
  struct CallbackColumns {
    const Column& read;
    template <typename F>
    void rows_in(std::int64_t c0, std::int64_t c1, F&& f) const {
      for (std::int64_t c = c0; c < c1; ++c) read(c, [&](V r, weight_t) { f(r); });
    }
    template <typename F>
    void column(std::int64_t c, F&& f) const {
      read(c, f);
    }
  };

  static std::int64_t blocks(std::int64_t n, int bits) { return std::max<std::int64_t>(1, ((n - 1) >> bits) + 1); }

  // The shape checked, no arcs yet.
  TiledArcs(std::int64_t rows, std::int64_t cols, TileShape shape)
      : rows_(rows), cols_(cols), col_bits_(shape.col_bits), row_bits_(shape.row_bits) {
    if (!shape.tiled() || col_bits_ > 31 || row_bits_ < 0 || col_bits_ + row_bits_ > 32)
      throw UsageError("a tile needs at most 31 column bits and at most 32 bits in all (got " +
                       std::to_string(col_bits_) + " and " + std::to_string(row_bits_) + ")");
    col_blocks_ = blocks(cols_, col_bits_);
    row_blocks_ = blocks(rows_, row_bits_);
  }

  // Row block b's arcs, sorted by column (rows ascending within a column,
  // a row's repeats in list order), are its tiles (b, 0), (b, 1), ... in
  // turn, and they fill the same range [row_off[first row], row_off[end
  // row]) as the block's lists. Two stable counting sorts per block, one
  // block per task: the arcs into their tiles, row by row (a counter per
  // tile), then each tile by column (a counter per column of the tile,
  // which the L2 holds; a tile with few arcs for its width is sorted by
  // comparison instead): O(arcs + columns) in all. One counting sort over
  // all columns per block would cost O(columns) per block, and a rank's
  // columns (its vertices and ghosts) grow with the graph while its blocks
  // grow with its share.
  template <bool Weighted>
  void build_from_rows(const CSRArrays<V>& lists) {
    const eid_t* row_off = lists.offsets.data();
    const V* row_cols = lists.neighbors.data();
    const weight_t* row_w = Weighted ? lists.weights.data() : nullptr;
    const std::int64_t rows = rows_, cols = cols_, nr = row_blocks_, ns = col_blocks_;
    const int col_bits = col_bits_, row_bits = row_bits_;
    const eid_t arcs = rows > 0 ? row_off[rows] : 0;
    offsets_.assign(static_cast<std::size_t>(nr * ns + 1), 0);
    offsets_[static_cast<std::size_t>(nr * ns)] = arcs;
    // The fill below writes every slot once (the blocks' ranges partition them).
    arcs_ = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(arcs));
    if (Weighted) weights_ = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(arcs));
    std::uint32_t* out = arcs_.data();
    weight_t* out_w = weights_.data();
    eid_t* tile_start = offsets_.data();
    const std::uint64_t col_mask = (std::uint64_t{1} << col_bits) - 1;
    std::vector<char> bad(static_cast<std::size_t>(nr), 0);  // a block naming a column >= cols (thrown after)
    if (rows == 0) return;
    // Each thread's counters and its block's arcs in tile order, kept over
    // its blocks (fresh arrays per block would fault their pages in again).
    struct Scratch {
      std::vector<eid_t> tile_at, col_at;
      std::vector<std::uint32_t> words;
      std::vector<weight_t> weights;
      std::vector<std::pair<std::uint32_t, weight_t>> few;
    };
    std::vector<Scratch> scratch(static_cast<std::size_t>(parallel::max_threads()));
    parallel::for_dynamic(std::int64_t{0}, nr, [&](std::int64_t b) {
      const std::int64_t lo = b << row_bits, hi = std::min(rows, (b + 1) << row_bits);
      const eid_t first = row_off[lo], last = row_off[hi];
      Scratch& sc = scratch[static_cast<std::size_t>(parallel::thread_id())];
      std::vector<eid_t>& at = sc.tile_at;
      at.assign(static_cast<std::size_t>(ns + 1), 0);
      for (eid_t j = first; j < last; ++j) {
        const auto c = static_cast<std::uint64_t>(row_cols[j]);
        if (c >= static_cast<std::uint64_t>(cols)) {
          bad[static_cast<std::size_t>(b)] = 1;
          return;
        }
        ++at[(c >> col_bits) + 1];
      }
      for (std::int64_t s = 0; s < ns; ++s) {
        at[static_cast<std::size_t>(s + 1)] += at[static_cast<std::size_t>(s)];
        tile_start[b * ns + s] = first + at[static_cast<std::size_t>(s)];
      }
      // Into the tiles, rows ascending, each row's arcs in list order.
      sc.words.resize(static_cast<std::size_t>(last - first));
      if (Weighted) sc.weights.resize(static_cast<std::size_t>(last - first));
      for (std::int64_t r = lo; r < hi; ++r) {
        const auto row_word = static_cast<std::uint64_t>(r - lo) << col_bits;
        for (eid_t j = row_off[r]; j < row_off[r + 1]; ++j) {
          const auto c = static_cast<std::uint64_t>(row_cols[j]);
          const eid_t k = at[c >> col_bits]++;
          sc.words[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(row_word | (c & col_mask));
          if constexpr (Weighted) sc.weights[static_cast<std::size_t>(k)] = row_w[j];
        }
      }
      // Each tile by column, stably.
      for (std::int64_t s = 0; s < ns; ++s) {
        const eid_t tb = tile_start[b * ns + s] - first, te = (s + 1 < ns ? tile_start[b * ns + s + 1] : last) - first;
        if (te == tb) continue;
        const std::int64_t width = std::min<std::int64_t>(std::int64_t{1} << col_bits, cols - (s << col_bits));
        const eid_t to = first + tb;
        if ((te - tb) * 8 < static_cast<eid_t>(width)) {
          sc.few.clear();
          for (eid_t k = tb; k < te; ++k)
            sc.few.emplace_back(sc.words[static_cast<std::size_t>(k)],
                                Weighted ? sc.weights[static_cast<std::size_t>(k)] : weight_t{});
          std::stable_sort(sc.few.begin(), sc.few.end(),
                           [&](const auto& x, const auto& y) { return (x.first & col_mask) < (y.first & col_mask); });
          for (std::size_t i = 0; i < sc.few.size(); ++i) {
            out[to + static_cast<eid_t>(i)] = sc.few[i].first;
            if constexpr (Weighted) out_w[to + static_cast<eid_t>(i)] = sc.few[i].second;
          }
          continue;
        }
        std::vector<eid_t>& col_at = sc.col_at;
        col_at.assign(static_cast<std::size_t>(width + 1), 0);
        for (eid_t k = tb; k < te; ++k) ++col_at[(sc.words[static_cast<std::size_t>(k)] & col_mask) + 1];
        for (std::int64_t c = 0; c < width; ++c) col_at[static_cast<std::size_t>(c + 1)] += col_at[static_cast<std::size_t>(c)];
        for (eid_t k = tb; k < te; ++k) {
          const std::uint32_t w = sc.words[static_cast<std::size_t>(k)];
          const eid_t dst = to + col_at[w & col_mask]++;
          out[dst] = w;
          if constexpr (Weighted) out_w[dst] = sc.weights[static_cast<std::size_t>(k)];
        }
      }
    }, std::int64_t{1});
    for (std::int64_t b = 0; b < nr; ++b)
      if (bad[static_cast<std::size_t>(b)])
        throw UsageError("a list of rows [" + std::to_string(b << row_bits) + ", " +
                         std::to_string(std::min(rows, (b + 1) << row_bits)) + ") names a column beyond the " +
                         std::to_string(cols) + " columns: build the lists with columns in [0, cols)");
  }

  // Tiles the arcs given by their columns (ListColumns or CallbackColumns),
  // rows ascending within a column. Checked: rows beyond rows_ are refused
  // (the graph constructor's rows are its vertices).
  template <bool Weighted, bool Checked, typename Columns>
  void build(const Columns& columns) {
    const std::int64_t n = cols_, nr = row_blocks_, ns = col_blocks_;
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
    const auto rows = static_cast<std::uint64_t>(rows_);
    std::vector<std::int64_t> bad(static_cast<std::size_t>(np), -1);  // a column naming a row >= rows (thrown after)
    parallel::for_dynamic(std::int64_t{0}, np, [&](std::int64_t p) {
      std::vector<eid_t> count(static_cast<std::size_t>(nr), 0);
      columns.rows_in(p << piece_bits, std::min(n, (p + 1) << piece_bits), [&](V r) {
        if (Checked && static_cast<std::uint64_t>(r) >= rows) {
          bad[static_cast<std::size_t>(p)] = p << piece_bits;
          return;
        }
        ++count[static_cast<std::uint64_t>(r) >> row_bits];
      });
      for (std::int64_t b = 0; b < nr; ++b) piece_start[b * np + p] = count[static_cast<std::size_t>(b)];
    }, std::int64_t{1});
    if (Checked)
      for (const std::int64_t c : bad)
        if (c >= 0)
          throw UsageError("a column from " + std::to_string(c) + " on names a row beyond the " +
                           std::to_string(rows_) + " rows: give each column's rows in [0, rows)");
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
        columns.column(c, [&](V row, weight_t w) {
          const auto r = static_cast<std::uint64_t>(row);
          const eid_t k = at[r >> row_bits]++;
          out[k] = static_cast<std::uint32_t>(((r & row_mask) << col_bits) | local_c);
          if constexpr (Weighted) out_w[k] = w;
        });
      }
    }, std::int64_t{1});
  }

  std::int64_t rows_ = 0;
  std::int64_t cols_ = 0;
  int col_bits_ = 0;
  int row_bits_ = 0;
  std::int64_t col_blocks_ = 1;
  std::int64_t row_blocks_ = 1;
  std::vector<eid_t> offsets_;
  NumaArray<std::uint32_t> arcs_;
  NumaArray<weight_t> weights_;
};

}  // namespace numagraph
