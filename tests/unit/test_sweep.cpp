// The sweep layer (include/numagraph/sweep/): the carried-pointer list sums
// of the Gauss-Seidel sweep (gather_sum.hpp); the cache blocking: the segmented
// copy of the lists (segmented_lists.hpp) and the tiled copy (tiled_arcs.hpp)
// keep every arc and weight, each in its range, the tiles in column order;
// the width and tile-shape rules' thresholds; and tiled PageRank and SpMV
// sweeps of many shapes give the unblocked kernels' results (to rounding),
// pass their verifiers and give the same bits on 1 and 2 threads, with 32- and
// 64-bit ids. The blocked kernels themselves are tested in test_pr.cpp and
// test_spmv.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/sweep/segmented_lists.hpp"
#include "numagraph/sweep/tiled_arcs.hpp"
#include "numagraph/verify/pr.hpp"
#include "numagraph/verify/spmv.hpp"
#include "sweep_test_util.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::sweep_test::expect_close;
using numagraph::sweep_test::kMiB;
using numagraph::sweep_test::request;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

class BlockingIds : public ::testing::TestWithParam<bool> {};

// Calls f(g, in) for in-lists and out-lists of weighted Kronecker graphs,
// directed and undirected, with 64-bit ids when `force64`.
template <typename F>
void on_weighted_krons(bool force64, F f) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, force64, true);
    numagraph::visit(
        [&](const auto& g) {
          for (const bool in : {false, true}) f(g, in);
        },
        any);
  }
}

TEST_P(BlockingIds, PiecesPartitionEveryListInOrder) {
  on_weighted_krons(GetParam(), [](const auto& g, bool in) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    for (const std::int64_t width : {16, 64, 256, 4096}) {  // 64 .. 1 segments of 1024 vertices
      const SegmentedLists<V> seg(g, in, width);
      const std::int64_t n = g.num_vertices();
      ASSERT_EQ(seg.num_segments(), static_cast<int>(std::max<std::int64_t>(1, (n + width - 1) / width)));
      for (std::int64_t v = 0; v < n; ++v) {
        const auto list = in ? g.in_neighbors(static_cast<V>(v)) : g.out_neighbors(static_cast<V>(v));
        const auto weights = in ? g.in_weights(static_cast<V>(v)) : g.out_weights(static_cast<V>(v));
        std::size_t at = 0;  // sorted lists: the pieces, in segment order, are the list
        for (int s = 0; s < seg.num_segments(); ++s) {
          const auto piece = seg.piece(s, v);
          const weight_t* w = seg.piece_weights(s, v);
          for (std::size_t j = 0; j < piece.size(); ++j, ++at) {
            ASSERT_LT(at, list.size());
            EXPECT_EQ(piece[j], list[at]);
            EXPECT_EQ(w[j], weights[at]);
            EXPECT_EQ(static_cast<std::int64_t>(piece[j]) / width, s);
          }
        }
        EXPECT_EQ(at, list.size()) << "vertex " << v;
      }
    }
  });
}

// gather_sums_of_range (the Gauss-Seidel sweep's loop) hands every vertex of
// its range to fn once, in order, with the same sum as gather_sum_ahead over
// the vertex's list (the same additions: equal bits), and returns the total
// of fn's values; with and without the prefetch, for ranges that start and
// end anywhere (an empty one and the whole graph included).
TEST_P(BlockingIds, CarriedListSumsMatchPerListSums) {
  on_weighted_krons(GetParam(), [](const auto& g, bool in) {
    const auto& a = in ? g.in_arrays() : g.out();
    const std::int64_t n = g.num_vertices();
    std::vector<float> x(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) x[v] = 1.0f / static_cast<float>(v % 97 + 3);
    const eid_t* off = a.offsets.data();
    const auto* nb = a.neighbors.data();
    const eid_t last = kernels::last_arc(off, n);
    auto check = [&](auto prefetch, std::int64_t lo, std::int64_t hi) {
      constexpr bool kPrefetch = decltype(prefetch)::value;
      std::int64_t next = lo;
      double expected_total = 0;
      const double total = kernels::gather_sums_of_range<kPrefetch, double>(
          nb, off, lo, hi, last, x.data(), [&](std::int64_t v, double sum) {
            EXPECT_EQ(v, next++);
            EXPECT_EQ(sum, kernels::gather_sum_ahead<kPrefetch>(nb, off[v], off[v + 1], last, x.data())) << v;
            const double share = sum * 0.5 + static_cast<double>(v);
            expected_total += share;
            return share;
          });
      EXPECT_EQ(next, hi);
      EXPECT_EQ(total, expected_total);
    };
    for (const auto& [lo, hi] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {0, n}, {0, 1}, {5, 5}, {17, 300}, {n / 2, n}, {n - 1, n}}) {
      check(std::false_type{}, lo, hi);
      check(std::true_type{}, lo, hi);
    }
  });
}

// gather_sums_of_short_lists (the sweep on graphs of mostly short lists)
// hands every vertex of its range to fn once, in order, with the loop's sum:
// the same bits on lists of up to 3 arcs and on those the loop sums (longer
// ones, and those whose slots would pass the range's last arc), within a
// rounding on lists of 4 (summed in pairs); kron10's lists have every length.
// gather_sums_of_short_lists_in_pairs hands out the same sums, each vertex
// once, in order within each half of the range.
TEST_P(BlockingIds, ShortListSumsMatchPerListSums) {
  on_weighted_krons(GetParam(), [](const auto& g, bool in) {
    const auto& a = in ? g.in_arrays() : g.out();
    const std::int64_t n = g.num_vertices();
    std::vector<float> x(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) x[v] = 1.0f / static_cast<float>(v % 97 + 3);
    const eid_t* off = a.offsets.data();
    const auto* nb = a.neighbors.data();
    const eid_t last = kernels::last_arc(off, n);
    std::int64_t lists_of_four = 0;
    auto check = [&](bool pairs, std::int64_t lo, std::int64_t hi) {
      const std::int64_t mid = pairs ? lo + (hi - lo + 1) / 2 : hi;
      std::int64_t next_first = lo, next_second = mid;
      double expected_total = 0;
      auto fn = [&](std::int64_t v, double sum) {
        EXPECT_EQ(v, v < mid ? next_first++ : next_second++);
        const double loop = kernels::gather_sum_ahead<false>(nb, off[v], off[v + 1], last, x.data());
        if (off[v + 1] - off[v] == kernels::kShortListArcs) {
          ++lists_of_four;
          EXPECT_DOUBLE_EQ(sum, loop) << v;
        } else {
          EXPECT_EQ(sum, loop) << v;
        }
        const double share = sum * 0.5 + static_cast<double>(v);
        expected_total += share;
        return share;
      };
      const double total = pairs ? kernels::gather_sums_of_short_lists_in_pairs<double>(nb, off, lo, hi, x.data(), fn)
                                 : kernels::gather_sums_of_short_lists<double>(nb, off, lo, hi, x.data(), fn);
      EXPECT_EQ(next_first, mid);
      EXPECT_EQ(next_second, pairs ? hi : mid);
      EXPECT_NEAR(total, expected_total, 1e-12 * expected_total);
    };
    for (const bool pairs : {false, true})
      for (const auto& [lo, hi] : std::vector<std::pair<std::int64_t, std::int64_t>>{
               {0, n}, {0, 1}, {5, 5}, {17, 300}, {17, 301}, {n / 2, n}, {n - 1, n}})
        check(pairs, lo, hi);
    EXPECT_GT(lists_of_four, 0);
  });
}

// lists_mostly_short: a grid's lists (2 to 4 arcs) are, kron10's are not.
TEST(Sweep, GridListsAreMostlyShortKroneckerListsAreNot) {
  constexpr std::uint64_t kSide = 40;
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t r = 0; r < kSide; ++r)
    for (std::uint64_t c = 0; c < kSide; ++c) {
      if (c + 1 < kSide) arcs.push_back({r * kSide + c, r * kSide + c + 1});
      if (r + 1 < kSide) arcs.push_back({r * kSide + c, (r + 1) * kSide + c});
    }
  auto mostly_short = [](const AnyGraph& any) {
    bool answer = false;
    numagraph::visit(
        [&](const auto& g) { answer = kernels::lists_mostly_short(g.in_arrays().offsets.data(), g.num_vertices()); },
        any);
    return answer;
  };
  EXPECT_TRUE(mostly_short(make_graph(arcs, kSide * kSide, false, false)));
  EXPECT_FALSE(mostly_short(make_kron(10, false, false)));
  const eid_t none[] = {0};
  EXPECT_FALSE(kernels::lists_mostly_short(none, 0));
}

// Every arc of the pulled lists (in-lists, or out-lists) is in exactly one
// tile, the one of its row block and column range, with its weight; within
// a tile the columns never decrease.
TEST_P(BlockingIds, TilesHoldEveryArcOnceInColumnOrder) {
  on_weighted_krons(GetParam(), [](const auto& g, bool in) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    using Arc = std::tuple<std::int64_t, std::int64_t, weight_t>;
    const std::int64_t n = g.num_vertices();
    std::vector<Arc> expected;
    for (std::int64_t r = 0; r < n; ++r) {
      const auto list = in ? g.in_neighbors(static_cast<V>(r)) : g.out_neighbors(static_cast<V>(r));
      const auto w = in ? g.in_weights(static_cast<V>(r)) : g.out_weights(static_cast<V>(r));
      for (std::size_t j = 0; j < list.size(); ++j) expected.emplace_back(r, list[j], w[j]);
    }
    std::sort(expected.begin(), expected.end());
    // The copy's tasks split column ranges into pieces by the thread count:
    // 4 ranges ({8, 2}) and 16 ({6, 3}) are split on 3 and 16 threads.
    for (const int threads : {1, 3, 16})
    for (const TileShape shape : {TileShape{3, 2}, TileShape{4, 10}, TileShape{10, 0}, TileShape{0, 5},
                                  TileShape{7, 7}, TileShape{31, 1}, TileShape{2, 30}, TileShape{8, 2},
                                  TileShape{6, 3}}) {
      const kernels::ThreadLimit limit(threads);
      const TiledArcs<V> t(g, in, shape);
      ASSERT_EQ(t.col_blocks(), ((n - 1) >> shape.col_bits) + 1);
      ASSERT_EQ(t.row_blocks(), ((n - 1) >> shape.row_bits) + 1);
      std::vector<Arc> found;
      for (std::int64_t b = 0; b < t.row_blocks(); ++b)
        for (std::int64_t s = 0; s < t.col_blocks(); ++s) {
          std::int64_t last_col = -1;
          for (eid_t k = t.tile_begin(b, s); k < t.tile_end(b, s); ++k) {
            const std::uint32_t a = t.arcs()[k];
            const std::int64_t row = (b << shape.row_bits) + (static_cast<std::uint64_t>(a) >> shape.col_bits);
            const std::int64_t col = (s << shape.col_bits) + (a & ((std::uint64_t{1} << shape.col_bits) - 1));
            ASSERT_LT(row, std::min(n, (b + 1) << shape.row_bits));
            ASSERT_LT(col, std::min(n, (s + 1) << shape.col_bits));
            EXPECT_GE(col, last_col) << "tile (" << b << ", " << s << ") is not in column order";
            last_col = col;
            found.emplace_back(row, col, t.weights()[k]);
          }
        }
      std::sort(found.begin(), found.end());
      EXPECT_EQ(found, expected) << "shape " << shape.col_bits << " x " << shape.row_bits << ", " << threads << " threads";
    }
  });
}

TEST(Blocking, BadTilesAreRefusedWithAReason) {
  const AnyGraph any = make_kron(10, false, false);
  const auto& g = std::get<CSRGraph<std::uint32_t>>(any);
  EXPECT_THROW(TiledArcs<std::uint32_t>(g, true, TileShape{}), UsageError);        // not tiled
  EXPECT_THROW(TiledArcs<std::uint32_t>(g, true, TileShape{32, 0}), UsageError);   // 32 column bits
  EXPECT_THROW(TiledArcs<std::uint32_t>(g, true, TileShape{20, 13}), UsageError);  // 33 bits
  EXPECT_THROW(TiledArcs<std::uint32_t>(g, true, TileShape{4, -1}), UsageError);
  // Out-lists are tiled from in-lists: a directed graph built without them
  // cannot be, and the SpMV rule then does not tile it.
  const AnyGraph no_in = make_graph({{0, 1}, {1, 2}}, 3, true, false, WeightKind::kNone, /*in_edges=*/false);
  const auto& d = std::get<CSRGraph<std::uint32_t>>(no_in);
  EXPECT_THROW(TiledArcs<std::uint32_t>(d, false, TileShape{0, 0}), UsageError);
  EXPECT_NO_THROW(TiledArcs<std::uint32_t>(d, true, TileShape{0, 0}));
  EXPECT_FALSE(kernels::spmv_tile_shape(d, 5, 8).tiled());
}

TEST(Blocking, BadWidthsAreRefusedWithAReason) {
  const AnyGraph any = make_kron(10, false, false);
  const auto& g = std::get<CSRGraph<std::uint32_t>>(any);
  EXPECT_THROW(SegmentedLists<std::uint32_t>(g, true, 100), UsageError);  // not a power of two
  EXPECT_THROW(SegmentedLists<std::uint32_t>(g, true, 0), UsageError);
  EXPECT_THROW(SegmentedLists<std::uint32_t>(g, true, 8), UsageError);  // 128 segments
}

TEST(Blocking, WidthRule) {
  const MachineResources m{32 * kMiB, std::size_t{16} << 30};
  const std::int64_t n22 = std::int64_t{1} << 22, arcs22 = 32 * n22;
  // urand22 PageRank: 16 MiB of floats -> blocks of 4 MiB = 1 Mi floats.
  EXPECT_EQ(cache_block_width(request(n22, arcs22, 4), m), std::int64_t{1} << 20);
  // 8 MiB of floats (a quarter of the cache): not blocked.
  EXPECT_EQ(cache_block_width(request(n22 / 2, arcs22 / 2, 4), m), 0);
  // urand22 SpMV: 32 MiB of doubles; 4 MiB blocks would leave 4 arcs per
  // piece, so the blocks widen to 4 segments.
  EXPECT_EQ(cache_block_width(request(n22, arcs22, 8), m), std::int64_t{1} << 20);
  // A road-like graph (2 arcs per vertex): never worth blocking by itself.
  EXPECT_EQ(cache_block_width(request(n22 * 4, n22 * 8, 4), m), 0);
  // Too few sweeps to pay for the copy, or not enough free memory for it.
  auto short_run = request(n22, arcs22, 4);
  short_run.sweeps = 2;
  EXPECT_EQ(cache_block_width(short_run, m), 0);
  EXPECT_EQ(cache_block_width(request(n22, arcs22, 4), {32 * kMiB, std::size_t{1} << 30}), 0);
  EXPECT_EQ(cache_block_width(request(n22, arcs22, 4), {32 * kMiB, 0}), 0);
  // Off, and explicit sizes taken as given (at most 64 segments), whatever
  // the sweeps and the free memory.
  EXPECT_EQ(cache_block_width(request(n22, arcs22, 4, 0), m), 0);
  EXPECT_EQ(cache_block_width(request(10000, 20000, 4, 1024), m), 256);
  EXPECT_EQ(cache_block_width(request(10000, 20000, 4, 1024), {0, 0}), 256);
  EXPECT_EQ(cache_block_width(request(10000, 20000, 4, 4), m), 256);  // 10000 / 64 -> 157 -> 256
  EXPECT_EQ(cache_block_width(request(100, 200, 4, 1 << 20), m), 0);  // fits in one block
  EXPECT_EQ(cache_block_width(request(0, 0, 4), m), 0);
}

// A tiling as (column bits, row bits), for comparisons.
std::pair<int, int> shape(TileShape t) { return {t.col_bits, t.row_bits}; }

TEST(Blocking, TileShapeRule) {
  const MachineResources m{32 * kMiB, std::size_t{16} << 30, kMiB / 2};  // 32 MiB L3, 512 KiB L2
  const std::int64_t n22 = std::int64_t{1} << 22, arcs22 = 32 * n22;
  // urand22 PageRank: 16 MiB of floats (half the L3): windows of 256 KiB
  // (2^16 floats), buffers of 256 KiB (2^15 doubles).
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 4), m, 2)), std::pair(16, 15));
  // urand22 SpMV: 32 MiB of doubles stream from memory per row block: a
  // buffer of the whole L2, at least 1 MiB.
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 8), m, 2)), std::pair(15, 17));
  // A 1 MiB L2 (the Zen 4 host): PageRank 2^16 rows, the automatic window
  // narrowed to fit the arc's 32 bits (rows win); SpMV 2^17 rows.
  const MachineResources zen4{32 * kMiB, std::size_t{16} << 30, kMiB};
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 4), zen4, 2)), std::pair(16, 16));
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 8), zen4, 2)), std::pair(15, 17));
  // An explicit window is kept and the rows give way: 2^20 columns leave 12 row bits.
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 4, 4 * kMiB), zen4, 2)), std::pair(20, 12));
  // Many threads: narrower row blocks, 4 per thread.
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 4), m, 64)), std::pair(16, 14));
  // No L2 size known: the 512 KiB fallback.
  EXPECT_EQ(shape(cache_tile_shape(request(n22, arcs22, 4), {32 * kMiB, std::size_t{16} << 30}, 2)),
            std::pair(16, 15));
  // Values past the L2 are tiled (windows of half the L2), with fewer sweeps
  // once they are past 4 L2s: kron20 PageRank, 4 MiB of floats in a 1 MiB L2.
  const std::int64_t n20 = std::int64_t{1} << 20, n17 = std::int64_t{1} << 17;
  EXPECT_EQ(shape(cache_tile_shape(request(n20, 32 * n20, 4), zen4, 2)), std::pair(16, 16));
  auto few = [&](std::int64_t n, int sweeps) {
    auto r = request(n, 32 * n, 4);
    r.sweeps = sweeps;
    return r;
  };
  EXPECT_TRUE(cache_tile_shape(few(n20, 5), zen4, 2).tiled());      // 4 L2s, 5 sweeps
  EXPECT_FALSE(cache_tile_shape(few(n20, 4), zen4, 2).tiled());     // 4 L2s, 4 sweeps
  EXPECT_TRUE(cache_tile_shape(few(2 * n20, 3), zen4, 2).tiled());  // 8 L2s, 3 sweeps
  // Not tiled: values within the L2, too few sweeps, too little memory, off.
  EXPECT_FALSE(cache_tile_shape(request(n17, 32 * n17, 4), m, 2).tiled());  // 512 KiB: the L2
  EXPECT_TRUE(cache_tile_shape(request(2 * n17, 64 * n17, 4), m, 2).tiled());
  auto short_run = request(n22, arcs22, 4);
  short_run.sweeps = 2;
  EXPECT_FALSE(cache_tile_shape(short_run, m, 2).tiled());
  EXPECT_FALSE(cache_tile_shape(request(n22, arcs22, 4), {32 * kMiB, std::size_t{1} << 30, kMiB / 2}, 2).tiled());
  EXPECT_FALSE(cache_tile_shape(request(n22, arcs22, 4, 0), m, 2).tiled());
  EXPECT_FALSE(cache_tile_shape(request(0, 0, 4), m, 2).tiled());
  // Explicit sizes: the column window as given, the rows down to 2^10 for
  // two threads' eight blocks; one window holding every value is no tiling.
  EXPECT_EQ(shape(cache_tile_shape(request(10000, 20000, 4, 1024), m, 2)), std::pair(8, 10));
  EXPECT_EQ(shape(cache_tile_shape(request(10000, 20000, 4, 1024), {0, 0, 0}, 2)), std::pair(8, 10));
  EXPECT_FALSE(cache_tile_shape(request(100, 200, 4, 1 << 20), m, 2).tiled());
  // Two billion vertices with one arc each and tiny explicit blocks: the
  // tiles would average under 16 arcs even at 32 bits, so none.
  EXPECT_FALSE(cache_tile_shape(request(std::int64_t{1} << 31, std::int64_t{1} << 31, 4, 64), m, 2).tiled());
  // Rows widen to keep the tile count down: 2^28 vertices in windows of 16
  // and 2^34 arcs allow 2^30 tiles, so 2^6 row blocks of 2^22 rows.
  const TileShape wide = cache_tile_shape(request(std::int64_t{1} << 28, std::int64_t{1} << 34, 4, 64), m, 2);
  EXPECT_EQ(shape(wide), std::pair(4, 22));
}

// The rules on this machine read the free memory only when they would block
// with unlimited memory; they must decide as the rules given this machine's
// figures do: requests that block, that never block, and that block only
// until the free memory refuses their copy.
TEST(Blocking, ThisMachineDecidesAsTheRules) {
  const MachineResources here{numa::last_level_cache_bytes(), numa::available_memory_bytes(), numa::l2_cache_bytes()};
  // The second request's copy (about 160 MiB) stays far from half the free
  // memory, which may move between the reads.
  const std::int64_t n23 = std::int64_t{1} << 23;
  const std::vector<CacheBlockRequest> requests = {
      request(1000, 4000, 4),                  // values in the L2: never blocks
      request(n23, 4 * n23, 4),                // 32 MiB of values: tiles
      request(n23, std::int64_t{1} << 50, 4),  // a copy of petabytes: the free memory refuses it
      request(10000, 20000, 4, 1024),          // explicit
  };
  for (const CacheBlockRequest& r : requests) {
    EXPECT_EQ(cache_block_width(r), cache_block_width(r, here)) << r.vertices << " " << r.arcs;
    EXPECT_EQ(shape(cache_tile_shape(r, 2)), shape(cache_tile_shape(r, here, 2))) << r.vertices << " " << r.arcs;
  }
  EXPECT_FALSE(cache_tile_shape(requests[2], 2).tiled());
  EXPECT_EQ(cache_block_width(requests[2]), 0);
}

// Tiled sweeps of every shape, including one row per block and one column
// per range, against the unblocked kernels; the same bits on 1 and 2 threads.
TEST_P(BlockingIds, TiledSweepsMatchUnblockedOnEveryShape) {
  const std::vector<TileShape> shapes = {TileShape{3, 2}, TileShape{0, 0}, TileShape{5, 9}, TileShape{9, 6},
                                         TileShape{12, 3}};
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam(), true);
    numagraph::visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          kernels::PageRankOptions o;
          o.tolerance = 0;
          o.max_iterations = 12;
          o.use_weights = false;  // the unweighted sweep, which the verifier then checks
          const auto plain = kernels::pagerank_pull_jacobi_with<V, double>(g, o, TileShape{});
          const auto plain_spmv = kernels::spmv_rows(g, 5, TileShape{});
          for (const TileShape t : shapes) {
            const auto tiled = kernels::pagerank_pull_jacobi_with<V, double>(g, o, t);
            EXPECT_EQ(tiled.cache_segments, static_cast<int>(((g.num_vertices() - 1) >> t.col_bits) + 1));
            for (std::int64_t v = 0; v < g.num_vertices(); ++v) expect_close(tiled.scores[v], plain.scores[v], v);
            EXPECT_TRUE(verify::pagerank(g, o, tiled.scores.data(), tiled.last_change).ok);
            const auto y = kernels::spmv_rows(g, 5, t);
            for (std::int64_t v = 0; v < g.num_vertices(); ++v) expect_close(y[v], plain_spmv[v], v);
            EXPECT_TRUE(verify::spmv(g, 5, y.data()).ok);
            // Each row adds its arcs in column order: the thread count cannot
            // show. (One product only: later ones are scaled by a sum over all
            // rows, a reduction whose order does depend on the threads.)
            const int threads = parallel::max_threads();
            parallel::set_threads(1);
            const auto one = kernels::pagerank_pull_jacobi_with<V, float>(g, o, t);
            const auto y1 = kernels::spmv_rows(g, 1, t);
            parallel::set_threads(2);
            const auto two = kernels::pagerank_pull_jacobi_with<V, float>(g, o, t);
            const auto y2 = kernels::spmv_rows(g, 1, t);
            parallel::set_threads(threads);
            for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
              EXPECT_EQ(one.scores[v], two.scores[v]) << "vertex " << v;
              EXPECT_EQ(y1[v], y2[v]) << "vertex " << v;
            }
          }
        },
        any);
  }
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BlockingIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

}  // namespace
