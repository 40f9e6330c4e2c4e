// The tiled copy built from a matrix's own row lists (TiledArcs's
// rectangular constructor, sweep/tiled_arcs.hpp), as the distributed
// PageRank builds it from a rank's block: on a square graph it is the copy
// built from the column lists, word for word; on a rectangular matrix with
// unsorted lists and repeated columns every arc is in its tile once, and
// each row meets its arcs in column order, repeats in list order; columns
// out of range and missing weights are refused with a reason. from_columns,
// reading a column callback, gives the column lists' copy too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/sweep/tiled_arcs.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_kron;

namespace {

const TileShape kShapes[] = {TileShape{3, 2}, TileShape{4, 10}, TileShape{10, 0}, TileShape{0, 5},
                             TileShape{7, 7}, TileShape{31, 1}, TileShape{2, 30}, TileShape{8, 2}};

template <typename V>
void expect_same_tiles(const TiledArcs<V>& a, const TiledArcs<V>& b, bool weighted) {
  ASSERT_EQ(a.row_blocks(), b.row_blocks());
  ASSERT_EQ(a.col_blocks(), b.col_blocks());
  for (std::int64_t r = 0; r < a.row_blocks(); ++r)
    for (std::int64_t s = 0; s < a.col_blocks(); ++s) {
      ASSERT_EQ(a.tile_begin(r, s), b.tile_begin(r, s));
      ASSERT_EQ(a.tile_end(r, s), b.tile_end(r, s));
    }
  const eid_t arcs = a.tile_end(a.row_blocks() - 1, a.col_blocks() - 1);
  for (eid_t k = 0; k < arcs; ++k) {
    ASSERT_EQ(a.arcs()[k], b.arcs()[k]) << "arc " << k;
    if (weighted) {
      ASSERT_EQ(a.weights()[k], b.weights()[k]) << "arc " << k;
    }
  }
}

TEST(TiledRows, SquareRowListsGiveTheColumnListsTiles) {
  for (const bool force64 : {false, true})
    for (const bool directed : {false, true}) {
      const AnyGraph any = make_kron(10, directed, force64, true);
      numagraph::visit(
          [&](const auto& g) {
            using V = typename std::decay_t<decltype(g)>::vertex_type;
            const std::int64_t n = g.num_vertices();
            for (const int threads : {1, 3})
              for (const TileShape shape : kShapes)
                for (const bool in : {false, true}) {
                  const kernels::ThreadLimit limit(threads);
                  const TiledArcs<V> by_columns(g, in, shape);
                  const TiledArcs<V> by_rows(n, n, in ? g.in_arrays() : g.out(), true, shape);
                  SCOPED_TRACE(::testing::Message() << "shape " << shape.col_bits << " x " << shape.row_bits
                                                    << ", in " << in << ", directed " << directed);
                  expect_same_tiles(by_columns, by_rows, true);
                  const TiledArcs<V> unweighted(n, n, in ? g.in_arrays() : g.out(), false, shape);
                  expect_same_tiles(by_columns, unweighted, false);
                  // Read through a column callback (from_columns), as a rank's block is.
                  const CSRArrays<V>& cols = in ? g.out() : g.in_arrays();
                  const auto column = [&](std::int64_t c, auto&& visit) {
                    for (eid_t j = cols.offsets[c]; j < cols.offsets[c + 1]; ++j) visit(cols.neighbors[j], cols.weights[j]);
                  };
                  expect_same_tiles(by_columns, TiledArcs<V>::from_columns(n, n, column, true, shape), true);
                  expect_same_tiles(by_columns, TiledArcs<V>::from_columns(n, n, column, false, shape), false);
                }
          },
          any);
    }
}

// Rows' lists of random columns in [0, cols), unsorted, some repeated.
CSRArrays<std::uint32_t> random_rows(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::pair<std::uint32_t, weight_t>>> lists(static_cast<std::size_t>(rows));
  eid_t arcs = 0;
  for (auto& l : lists) {
    const auto len = static_cast<std::size_t>(rng() % 40);
    for (std::size_t j = 0; j < len; ++j)
      l.emplace_back(static_cast<std::uint32_t>(j > 0 && rng() % 8 == 0 ? l[j - 1].first : rng() % cols),
                     static_cast<weight_t>(rng() % 1000));
    arcs += static_cast<eid_t>(len);
  }
  CSRArrays<std::uint32_t> a;
  a.offsets = NumaArray<eid_t>(static_cast<std::size_t>(rows + 1));
  a.neighbors = NumaArray<std::uint32_t>(static_cast<std::size_t>(arcs));
  a.weights = NumaArray<weight_t>(static_cast<std::size_t>(arcs));
  eid_t k = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    a.offsets[static_cast<std::size_t>(r)] = k;
    for (const auto& [c, w] : lists[static_cast<std::size_t>(r)]) {
      a.neighbors[static_cast<std::size_t>(k)] = c;
      a.weights[static_cast<std::size_t>(k++)] = w;
    }
  }
  a.offsets[static_cast<std::size_t>(rows)] = k;
  return a;
}

TEST(TiledRows, RectangularTilesHoldEveryArcOnceInColumnOrder) {
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {300, 1000}, {1000, 300}, {1, 5000}, {777, 777}}) {
    const CSRArrays<std::uint32_t> lists = random_rows(rows, cols, static_cast<std::uint64_t>(rows * cols));
    // Each row's arcs as its sweep adds them: by column, repeats in list order.
    std::vector<std::vector<std::pair<std::int64_t, weight_t>>> expected(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) {
      auto& e = expected[static_cast<std::size_t>(r)];
      for (eid_t j = lists.offsets[r]; j < lists.offsets[r + 1]; ++j) e.emplace_back(lists.neighbors[j], lists.weights[j]);
      std::stable_sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    for (const int threads : {1, 3})
      for (const TileShape shape : kShapes) {
        const kernels::ThreadLimit limit(threads);
        const TiledArcs<std::uint32_t> t(rows, cols, lists, true, shape);
        SCOPED_TRACE(::testing::Message() << rows << " x " << cols << ", shape " << shape.col_bits << " x "
                                          << shape.row_bits);
        ASSERT_EQ(t.num_rows(), rows);
        ASSERT_EQ(t.num_cols(), cols);
        ASSERT_EQ(t.row_blocks(), ((rows - 1) >> shape.row_bits) + 1);
        ASSERT_EQ(t.col_blocks(), ((cols - 1) >> shape.col_bits) + 1);
        std::vector<std::vector<std::pair<std::int64_t, weight_t>>> found(static_cast<std::size_t>(rows));
        for (std::int64_t b = 0; b < t.row_blocks(); ++b)
          for (std::int64_t s = 0; s < t.col_blocks(); ++s)
            for (eid_t k = t.tile_begin(b, s); k < t.tile_end(b, s); ++k) {
              const std::uint32_t a = t.arcs()[k];
              const std::int64_t row = (b << shape.row_bits) + (static_cast<std::uint64_t>(a) >> shape.col_bits);
              const std::int64_t col = (s << shape.col_bits) + (a & ((std::uint64_t{1} << shape.col_bits) - 1));
              ASSERT_LT(row, std::min(rows, (b + 1) << shape.row_bits));
              ASSERT_LT(col, std::min(cols, (s + 1) << shape.col_bits));
              found[static_cast<std::size_t>(row)].emplace_back(col, t.weights()[k]);
            }
        EXPECT_EQ(found, expected);
      }
  }
}

TEST(TiledRows, ColumnsNamingRowsBeyondTheMatrixAreRefused) {
  const auto column = [](std::int64_t c, auto&& visit) { visit(static_cast<std::uint32_t>(c == 5 ? 40 : c % 10), 1.0f); };
  EXPECT_THROW(TiledArcs<std::uint32_t>::from_columns(10, 20, column, false, TileShape{2, 2}), UsageError);
  const auto fine = [](std::int64_t c, auto&& visit) { visit(static_cast<std::uint32_t>(c % 10), 1.0f); };
  EXPECT_NO_THROW(TiledArcs<std::uint32_t>::from_columns(10, 20, fine, false, TileShape{2, 2}));
}

TEST(TiledRows, BadListsAreRefusedWithAReason) {
  const CSRArrays<std::uint32_t> lists = random_rows(50, 100, 7);
  EXPECT_THROW(TiledArcs<std::uint32_t>(50, 50, lists, false, TileShape{3, 3}), UsageError);  // columns up to 99
  CSRArrays<std::uint32_t> unweighted = random_rows(50, 100, 7);
  unweighted.weights = NumaArray<weight_t>();
  EXPECT_THROW(TiledArcs<std::uint32_t>(50, 100, unweighted, true, TileShape{3, 3}), UsageError);
  EXPECT_NO_THROW(TiledArcs<std::uint32_t>(50, 100, unweighted, false, TileShape{3, 3}));
  EXPECT_THROW(TiledArcs<std::uint32_t>(50, 100, lists, false, TileShape{}), UsageError);
}

}  // namespace
