// Delta-stepping SSSP and its Dijkstra verifier: hand-drawn weighted graphs
// (integer and real weights, 32- and 64-bit ids), unweighted graphs as hop
// counts, every delta from tiny to huge, refused inputs, caught corruptions.
// The engine variant (engine_delta_stepping.hpp): Dijkstra's distances on
// every synthetic topology, and remote random reads only to skip stale hubs.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/engine_delta_stepping.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/verify/sssp.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::first_vertex_with_edges;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;
using numagraph::test_graphs::queue_bfs;

namespace {

constexpr double kInf = kernels::kUnreachable;

// 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (1), 2 -> 3 (7), 3 -> 4 (3),
// 5 -> 0 (1): 5 is unreachable from 0, 6 is isolated.
const std::vector<test_graphs::Arc> kDirected = {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1},
                                             {2, 3, 7}, {3, 4, 3}, {5, 0, 1}};

class SsspIds : public ::testing::TestWithParam<bool> {};

TEST_P(SsspIds, HandDrawnDirectedIntegerWeightsAnyDelta) {
  const AnyGraph any = make_graph(kDirected, 7, true, GetParam(), WeightKind::kInteger);
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const std::vector<double> expected = {0, 3, 1, 4, 7, kInf, kInf};
        for (const double delta : {0.25, 1.0, 2.0, 3.0, 1e9}) {
          const auto d = kernels::sssp_delta_stepping(g, V{0}, delta);
          for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_EQ(d[v], expected[v]) << "vertex " << v;
          const auto ok = verify::sssp(g, V{0}, d.data());
          EXPECT_TRUE(ok.ok) << ok.message;
        }
      },
      any);
}

TEST_P(SsspIds, UndirectedRealWeights) {
  // Triangle 0-1-2 with a cheaper two-hop path and a real-valued tail.
  const AnyGraph any =
      make_graph({{0, 1, 2.5f}, {1, 2, 0.25f}, {0, 2, 3.0f}, {2, 3, 0.125f}}, 5, false, GetParam(), WeightKind::kReal);
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto d = kernels::sssp_delta_stepping(g, V{3}, kernels::default_delta(g));
        const std::vector<double> expected = {2.875, 0.375, 0.125, 0, kInf};
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(d[v], expected[v]) << "vertex " << v;
        EXPECT_TRUE(verify::sssp(g, V{3}, d.data()).ok);
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, SsspIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Ids64" : "Ids32"; });

TEST(Sssp, UnweightedGraphsCountHops) {
  const AnyGraph any = make_kron(10, false, false);
  const auto& g = std::get<Graph32>(any);
  EXPECT_EQ(kernels::default_delta(g), 1);
  const auto root = kernels::pick_roots(g, 1, 5)[0];
  const auto d = kernels::sssp_delta_stepping(g, root, 1);
  const auto hops = queue_bfs(g, root);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    ASSERT_EQ(d[v], hops[v] < 0 ? kInf : hops[v]) << "vertex " << v;
}

// 32-bit distances: taken only where every shortest distance fits them
// exactly, and the same answers as the double search.
TEST(SsspDistances, NarrowOnlyWhereEverySimplePathFits) {
  auto fits = [](const std::vector<test_graphs::Arc>& arcs, WeightKind kind) {
    return kernels::narrow_distances_fit(std::get<Graph32>(make_graph(arcs, 4, true, false, kind)));
  };
  EXPECT_TRUE(fits({{0, 1, 4}, {1, 2, 7}}, WeightKind::kInteger));
  EXPECT_FALSE(fits({{0, 1, 4}, {1, 2, 0.5f}}, WeightKind::kReal));
  // Heaviest out-edges summing to 4e9 (< 2^32 - 1) fit; to 6e9 they do not.
  EXPECT_TRUE(fits({{0, 1, 2e9f}, {1, 2, 2e9f}}, WeightKind::kInteger));
  EXPECT_FALSE(fits({{0, 1, 3e9f}, {1, 2, 3e9f}}, WeightKind::kInteger));
  // Only the heaviest edge of each vertex counts: four edges of 2e9 out of
  // one vertex can never sit on one path together.
  EXPECT_TRUE(fits({{0, 1, 2e9f}, {0, 2, 2e9f}, {0, 3, 2e9f}, {1, 3, 2e9f}}, WeightKind::kInteger));
  EXPECT_TRUE(kernels::narrow_distances_fit(std::get<Graph32>(make_kron(8, false, false))));
}

TEST(SsspDistances, NearTwoToThe32BothSearchesAreExact) {
  // 0 -> 1 -> 2 at 2e9 each: 4e9, just below 2^32 - 1, on 32-bit distances;
  // at 3e9 each, 6e9 on doubles (a 32-bit search would leave 2 unreached).
  for (const float w : {2e9f, 3e9f}) {
    const AnyGraph any = make_graph({{0, 1, w}, {1, 2, w}, {2, 3, 1}}, 4, true, false, WeightKind::kInteger);
    const auto& g = std::get<Graph32>(any);
    EXPECT_EQ(kernels::narrow_distances_fit(g), w < 2.1e9f);
    const auto d = kernels::sssp_delta_stepping(g, std::uint32_t{0}, 1e8);
    EXPECT_EQ(d[2], 2.0 * w);
    EXPECT_EQ(d[3], 2.0 * w + 1);
    EXPECT_TRUE(verify::sssp(g, std::uint32_t{0}, d.data()).ok);
  }
}

TEST(SsspDistances, NarrowAndDoubleSearchesAgree) {
  const AnyGraph any = make_kron(11, true, false, true);
  const auto& g = std::get<Graph32>(any);
  ASSERT_TRUE(kernels::narrow_distances_fit(g));
  const auto root = kernels::pick_roots(g, 1, 3)[0];
  for (const double delta : {1.0, 2.2, 32.0, 1e6}) {
    NumaArray<double> narrow, wide;
    kernels::SsspWorkspace ws_narrow, ws_wide;
    ws_wide.narrow = false;
    for (int call = 0; call < 2; ++call) {  // the second call reuses the workspace's array
      kernels::sssp_delta_stepping(g, root, delta, narrow, &ws_narrow);
      kernels::sssp_delta_stepping(g, root, delta, wide, &ws_wide);
      ASSERT_EQ(ws_narrow.narrow_dist.size(), static_cast<std::size_t>(g.num_vertices()));
      EXPECT_EQ(ws_wide.narrow_dist.size(), 0u);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(narrow[v], wide[v]) << "v=" << v << " delta=" << delta;
      EXPECT_TRUE(verify::sssp(g, root, narrow.data()).ok);
    }
  }
}

// The round bookkeeping with two threads, played in turn: each round reads
// the slots of the smallest bucket any thread holds; a slot holding a later
// bucket goes back to its owner's bins and comes round when its turn does.
TEST(SsspRoundSlots, EachRoundTakesTheSmallestBucketAndReturnsTheRest) {
  using kernels::sssp_detail::kNoBucket;
  kernels::sssp_detail::RoundSlots<int> slots(2);
  kernels::sssp_detail::BucketBins<int> bins0, bins1;
  std::vector<std::int64_t> start;
  slots.seed(7, 0);
  ASSERT_EQ(slots.begin(0, 0, bins0, start), 0u);
  EXPECT_EQ(start, (std::vector<std::int64_t>{0, 1, 1}));
  ASSERT_EQ(slots.begin(0, 1, bins1, start), 0u);
  EXPECT_EQ(slots.slot(0, slots.slot_of(start, 0))[0], 7);
  // Round 0 queued 1 and 2 in bucket 5 on thread 0, 3 in bucket 2 on thread 1.
  bins0[5] = {1, 2};
  bins1[2] = {3};
  slots.end(0, 0, bins0, 0);
  slots.end(0, 1, bins1, 0);
  EXPECT_TRUE(bins0[5].empty()) << "handed to the next round's slot";
  ASSERT_EQ(slots.begin(1, 0, bins0, start), 2u);
  EXPECT_EQ(bins0[5], (std::vector<int>{1, 2})) << "bucket 5 is not round 1's: back to its bin";
  ASSERT_EQ(slots.begin(1, 1, bins1, start), 2u);
  EXPECT_EQ(start, (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(slots.slot(1, slots.slot_of(start, 0))[0], 3);
  slots.end(1, 0, bins0, 2);
  slots.end(1, 1, bins1, 2);
  ASSERT_EQ(slots.begin(2, 0, bins0, start), 5u);
  ASSERT_EQ(slots.begin(2, 1, bins1, start), 5u);
  ASSERT_EQ(start.back(), 2);
  EXPECT_EQ(slots.slot(2, slots.slot_of(start, 1))[1], 2);
  slots.end(2, 0, bins0, 5);
  slots.end(2, 1, bins1, 5);
  EXPECT_EQ(slots.begin(3, 0, bins0, start), kNoBucket);
  EXPECT_EQ(slots.begin(3, 1, bins1, start), kNoBucket);
}

// Long chains of tiny rounds (a weighted grid with delta 1: thousands of
// rounds of a few entries) with more threads than cores, so threads are
// descheduled mid-round while others fill the next round's slots.
TEST(Sssp, ManyTinyRoundsWithOversubscribedThreadsMatchDijkstra) {
  const int side = 60;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> weight(1, 40);
  std::vector<test_graphs::Arc> arcs;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int v = r * side + c;
      if (c + 1 < side) arcs.push_back({static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v + 1), static_cast<float>(weight(rng))});
      if (r + 1 < side)
        arcs.push_back({static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v + side), static_cast<float>(weight(rng))});
    }
  const AnyGraph any = make_graph(arcs, side * side, false, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  const int saved = omp_get_max_threads();
  for (const int threads : {3, 5})
    for (const double delta : {1.0, 7.0, 100.0}) {
      omp_set_num_threads(threads);
      const auto d = kernels::sssp_delta_stepping(g, std::uint32_t{0}, delta);
      omp_set_num_threads(saved);
      const auto ok = verify::sssp(g, std::uint32_t{0}, d.data());
      ASSERT_TRUE(ok.ok) << ok.message << " (" << threads << " threads, delta " << delta << ")";
    }
}

TEST(Sssp, WeightedKroneckerMatchesDijkstraForManyDeltas) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, false, true);
    const auto& g = std::get<Graph32>(any);
    for (const auto root : kernels::pick_roots(g, 2, 9))
      for (const double delta : {1.0, 16.0, kernels::default_delta(g), 5000.0}) {
        const auto d = kernels::sssp_delta_stepping(g, root, delta);
        const auto ok = verify::sssp(g, root, d.data());
        ASSERT_TRUE(ok.ok) << ok.message << " (delta " << delta << ")";
      }
  }
}

// Queued entries keep their distance as a float rounded down; past 2^24 a
// float cannot tell neighbouring distances apart. Weights near 2^22 put most
// distances there, with many vertices improved several times before their
// turn: every distance must still equal Dijkstra's.
TEST(Sssp, DistancesBeyondFloatPrecisionStayExact) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> vertex(0, 1999);
  std::uniform_int_distribution<int> small(0, 1000);
  std::vector<test_graphs::Arc> arcs;
  for (int i = 0; i < 12000; ++i)
    arcs.push_back({vertex(rng), vertex(rng), static_cast<float>((1 << 22) + small(rng))});
  const AnyGraph any = make_graph(arcs, 2000, true, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  for (const auto root : kernels::pick_roots(g, 3, 11))
    for (const double delta : {1000.0, 4194304.0, 1e9}) {
      const auto d = kernels::sssp_delta_stepping(g, root, delta);
      double farthest = 0;
      for (std::int64_t v = 0; v < g.num_vertices(); ++v)
        if (d[v] != kInf) farthest = std::max(farthest, d[v]);
      ASSERT_GT(farthest, 16777216.0);  // the test reaches distances floats cannot hold exactly
      const auto ok = verify::sssp(g, root, d.data());
      ASSERT_TRUE(ok.ok) << ok.message << " (delta " << delta << ")";
    }
}

// A delta that does not divide the distances evenly: with delta 1.1 the
// multiply puts distance 55 in bucket 50 (55 * (1 / 1.1) = 50), while 1.1 * 50
// rounds to 55.000000000000007. The kernel once compared distances with
// delta * bucket, took vertex 1 (distance 55) for settled in an earlier
// bucket and never relaxed its edges: vertex 2 stayed unreached.
TEST(Sssp, DeltaThatDoesNotDivideDistancesEvenlyLosesNoVertex) {
  const AnyGraph pair = make_graph({{0, 1, 55}, {1, 2, 1}}, 3, true, false, WeightKind::kInteger);
  const auto d = kernels::sssp_delta_stepping(std::get<Graph32>(pair), std::uint32_t{0}, 1.1);
  EXPECT_EQ(d[2], 56.0);
  // A unit-weight path reaches every distance up to 999 (128 of them round
  // this way for delta 1.1 and 2.2); random weights mix the cases.
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t v = 0; v + 1 < 1000; ++v) arcs.push_back({v, v + 1, 1.0f});
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::uint64_t> vertex(0, 999);
  std::uniform_int_distribution<int> weight(1, 60);
  for (int i = 0; i < 3000; ++i) arcs.push_back({vertex(rng), vertex(rng), static_cast<float>(weight(rng))});
  const AnyGraph any = make_graph(arcs, 1000, true, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  for (const double delta : {1.1, 2.2, 0.3, 1.0 / 3.0, 7.7}) {
    const auto dist = kernels::sssp_delta_stepping(g, std::uint32_t{0}, delta);
    const auto ok = verify::sssp(g, std::uint32_t{0}, dist.data());
    ASSERT_TRUE(ok.ok) << ok.message << " (delta " << delta << ")";
  }
}

// Weights far above delta put entries millions of buckets ahead. The bins
// were a vector indexed by bucket: a weight of 1e12 with delta 1 asked for
// 10^12 of them (bad_alloc); 1e30 overflowed the bucket index.
TEST(Sssp, WeightsFarAboveDeltaNeedNoBinPerBucket) {
  const AnyGraph huge =
      make_graph({{0, 1, 1e12f}, {1, 2, 1}, {0, 3, 1e30f}, {3, 4, 1}, {2, 4, 5}}, 5, true, false, WeightKind::kReal);
  const auto& h = std::get<Graph32>(huge);
  for (const double delta : {1.0, 1e-3}) {
    const auto d = kernels::sssp_delta_stepping(h, std::uint32_t{0}, delta);
    const auto ok = verify::sssp(h, std::uint32_t{0}, d.data());
    ASSERT_TRUE(ok.ok) << ok.message << " (delta " << delta << ")";
    EXPECT_EQ(d[4], static_cast<double>(1e12f) + 6);
  }
  // Many entries beyond the bins' window (weights 5000-20000, delta 1), so
  // far buckets fill, then move into the window as the search reaches them.
  std::mt19937 rng(4);
  std::uniform_int_distribution<std::uint64_t> vertex(0, 2999);
  std::uniform_int_distribution<int> weight(5000, 20000);
  std::vector<test_graphs::Arc> arcs;
  for (int i = 0; i < 15000; ++i) arcs.push_back({vertex(rng), vertex(rng), static_cast<float>(weight(rng))});
  const AnyGraph any = make_graph(arcs, 3000, false, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  const int saved = omp_get_max_threads();
  for (const int threads : {1, 3}) {
    omp_set_num_threads(threads);
    const auto d = kernels::sssp_delta_stepping(g, std::uint32_t{0}, 1.0);
    omp_set_num_threads(saved);
    const auto ok = verify::sssp(g, std::uint32_t{0}, d.data());
    ASSERT_TRUE(ok.ok) << ok.message << " (" << threads << " threads)";
  }
}

TEST(SsspBucketBins, FarBucketsWaitOutsideTheWindowAndComeInOrder) {
  using kernels::sssp_detail::BucketBins;
  using kernels::sssp_detail::kNoBucket;
  BucketBins<int> bins;
  const std::size_t window = BucketBins<int>::kWindow;
  const std::size_t saturated = kernels::sssp_detail::bucket_of(1e300, 1.0);
  EXPECT_EQ(saturated, std::size_t{1} << 62);
  EXPECT_EQ(kernels::sssp_detail::bucket_of(55.0, 1.0 / 1.1), 50u);
  bins[3].push_back(1);
  bins[window + 10].push_back(2);
  bins[1000000000].push_back(3);
  bins[saturated].push_back(4);
  EXPECT_EQ(bins.first_nonempty(0), 3u);
  bins[3].clear();
  EXPECT_EQ(bins.first_nonempty(3), window + 10);
  bins.advance(window + 10);  // bucket window + 10 moves into the ring
  EXPECT_EQ(bins[window + 10], std::vector<int>{2});
  EXPECT_EQ(bins.first_nonempty(window + 10), window + 10);
  bins[window + 10].clear();
  EXPECT_EQ(bins.first_nonempty(window + 10), 1000000000u);
  bins.advance(1000000000);
  EXPECT_EQ(bins[1000000000], std::vector<int>{3});
  bins[1000000000].clear();
  EXPECT_EQ(bins.first_nonempty(1000000000), saturated);
  bins.advance(saturated);
  EXPECT_EQ(bins[saturated], std::vector<int>{4});
  bins[saturated].clear();
  EXPECT_EQ(bins.first_nonempty(saturated), kNoBucket);
}

TEST(SsspBucketBins, ResetEmptiesEveryBinAndStartsAgainAtZero) {
  using kernels::sssp_detail::BucketBins;
  using kernels::sssp_detail::kNoBucket;
  BucketBins<int> bins;
  const std::size_t window = BucketBins<int>::kWindow;
  bins[2].push_back(1);
  bins[2].clear();
  bins.advance(7);
  bins[9].push_back(3);
  bins[7 + 2 * window].push_back(2);  // beyond the window: the map
  bins.reset();
  EXPECT_EQ(bins.base(), 0u);
  EXPECT_EQ(bins.first_nonempty(0), kNoBucket);
  bins[0].push_back(4);
  bins[window + 1].push_back(5);
  EXPECT_EQ(bins.first_nonempty(0), 0u);
  bins[0].clear();
  EXPECT_EQ(bins.first_nonempty(0), window + 1);
}

// A search's scratch, prepared again for the same threads: every bin and
// slot empty, every thread's bins back at bucket 0. (The searches' answers
// cannot tell: delta-stepping corrects labels, so entries relaxed in a wrong
// order still give Dijkstra's distances, only later.)
TEST(SsspSearchScratch, PrepareEmptiesBinsAndSlotsOfTheLastSearch) {
  using kernels::sssp_detail::kNoBucket;
  using Scratch = kernels::sssp_detail::SearchScratch<int>;
  Scratch scratch;
  scratch.prepare(2);
  const std::size_t window = kernels::sssp_detail::BucketBins<int>::kWindow;
  for (auto& t : scratch.threads) {
    t.bins.advance(5000);
    t.bins[5001].push_back(1);
    t.bins[5000 + 3 * window].push_back(2);
  }
  scratch.frontier.seed(7, 12);
  scratch.prepare(2);
  for (auto& t : scratch.threads) {
    EXPECT_EQ(t.bins.base(), 0u);
    EXPECT_EQ(t.bins.first_nonempty(0), kNoBucket);
  }
  std::vector<std::int64_t> start;
  EXPECT_EQ(scratch.frontier.begin(0, 0, scratch.threads[0].bins, start), kNoBucket);
  EXPECT_TRUE(scratch.frontier.slot(0, 0).empty());
  scratch.prepare(3);  // another thread count: built afresh
  EXPECT_EQ(scratch.threads.size(), 3u);
  EXPECT_EQ(scratch.frontier.threads(), 3);
}

// The flat kernel keeps its bins and round slots in the workspace: one
// workspace for searches from other roots, with other deltas (some queueing
// beyond the bins' window) and other thread counts, each equal to Dijkstra's.
TEST(Sssp, OneWorkspaceServesSearchesOfEveryDeltaAndThreadCount) {
  const AnyGraph any = make_kron(10, true, false, true);
  const auto& g = std::get<Graph32>(any);
  kernels::SsspWorkspace ws;
  NumaArray<double> d;
  const int saved = omp_get_max_threads();
  const auto roots = kernels::pick_roots(g, 3, 11);
  int searches = 0;
  for (const int threads : {3, 1, 2})
    for (const double delta : {1000.0, 0.01, 16.0, 1.0})
      for (const auto root : roots) {
        omp_set_num_threads(threads);
        kernels::sssp_delta_stepping(g, root, delta, d, &ws);
        omp_set_num_threads(saved);
        const auto ok = verify::sssp(g, root, d.data());
        ASSERT_TRUE(ok.ok) << ok.message << " (" << threads << " threads, delta " << delta << ", root " << root << ")";
        ++searches;
      }
  EXPECT_EQ(searches, 36);
  EXPECT_TRUE(ws.search_scratch.has_value());
}

// An undirected side x side grid, its weights drawn from `weight`.
AnyGraph weighted_grid(int side, std::mt19937& rng, std::uniform_int_distribution<int>& weight) {
  std::vector<test_graphs::Arc> arcs;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const auto v = static_cast<std::uint64_t>(r * side + c);
      if (c + 1 < side) arcs.push_back({v, v + 1, static_cast<float>(weight(rng))});
      if (r + 1 < side) arcs.push_back({v, v + side, static_cast<float>(weight(rng))});
    }
  return make_graph(arcs, static_cast<std::uint64_t>(side) * static_cast<std::uint64_t>(side), false, false,
                    WeightKind::kInteger);
}

// A directed broom: vertex 0's `fan` children, each with a child of its own,
// those grandchildren joined in a path; weights drawn from `weight`.
AnyGraph weighted_broom(std::uint64_t fan, std::mt19937& rng, std::uniform_int_distribution<int>& weight) {
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t i = 1; i <= fan; ++i) {
    arcs.push_back({0, i, static_cast<float>(weight(rng))});
    arcs.push_back({i, fan + i, static_cast<float>(weight(rng))});
    if (i > 1) arcs.push_back({fan + i - 1, fan + i, static_cast<float>(weight(rng))});
  }
  return make_graph(arcs, 2 * fan + 1, false, false, WeightKind::kInteger);
}

// A team splits each round's entries statically on sparse graphs and in
// chunks on dense ones (kernels/static_split.hpp): both splits, on a weighted
// grid and a Kronecker graph, on 2 and 3 threads, give the verified distances.
TEST(Sssp, RoundsSplitStaticallyOrByChunks) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> weight(1, 60);
  const int side = 150;
  const AnyGraph grid_any = weighted_grid(side, rng, weight);
  const AnyGraph kron_any = make_kron(12, false, false, true);
  const int saved = omp_get_max_threads();
  for (const AnyGraph* any : {&grid_any, &kron_any}) {
    const auto& g = std::get<Graph32>(*any);
    EXPECT_EQ(kernels::splits_statically(g), any == &grid_any);
    const std::uint32_t source = first_vertex_with_edges(g);
    const std::int64_t n = g.num_vertices();
    for (const int threads : {2, 3})
      for (const bool static_rounds : {true, false}) {
        kernels::SsspWorkspace ws;
        std::vector<double> dist(static_cast<std::size_t>(n), kernels::kUnreachable);
        dist[source] = 0;
        omp_set_num_threads(threads);
        const int rounds = kernels::sssp_detail::delta_stepping_search(
            g.out().offsets.data(), g.out().neighbors.data(), g.out().weights.data(), source, 32.0, dist.data(), ws,
            static_rounds);
        omp_set_num_threads(saved);
        EXPECT_GT(rounds, 2);
        const auto ok = verify::sssp(g, source, dist.data());
        ASSERT_TRUE(ok.ok) << ok.message << " (" << threads << " threads, static " << static_rounds << ")";
      }
  }
}

// A search that starts alone calls the team at its first round of
// `team_entries` entries or more (kFusionLimit here). A broom (the source's
// 2,000 children, each with a child on a weighted path) gets there at round 1; a grid,
// whose rounds stay narrow, never does. Both must equal Dijkstra's distances
// whichever way the search went, on 2 and 3 threads, with one workspace.
TEST(Sssp, StartingAloneCallsTheTeamAtTheFirstWideRound) {
  const std::uint64_t fan = 2000;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> weight(1, 40);
  const AnyGraph broom_any = weighted_broom(fan, rng, weight);
  const int side = 40;
  const AnyGraph grid_any = weighted_grid(side, rng, weight);
  using Scratch = kernels::sssp_detail::SearchScratch<kernels::sssp_detail::QueuedEntry<std::uint32_t, std::uint32_t>>;
  const int saved = omp_get_max_threads();
  const auto team_entries = static_cast<std::int64_t>(kernels::sssp_detail::kFusionLimit);
  for (const bool wide : {true, false}) {
    const auto& g = std::get<Graph32>(wide ? broom_any : grid_any);
    const std::int64_t n = g.num_vertices();
    kernels::SsspWorkspace ws;
    for (const int threads : {2, 3})
      for (const double delta : {1e6, 64.0}) {  // every child in bucket 0 either way
        std::vector<std::uint32_t> dist(static_cast<std::size_t>(n), kernels::kNarrowInfinity);
        dist[0] = 0;
        omp_set_num_threads(threads);
        kernels::sssp_detail::delta_stepping_search(g.out().offsets.data(), g.out().neighbors.data(),
                                                    g.out().weights.data(), std::uint32_t{0}, delta, dist.data(), ws,
                                                    kernels::splits_statically(g), team_entries);
        omp_set_num_threads(saved);
        std::vector<double> d(dist.begin(), dist.end());
        for (auto& x : d)
          if (x == kernels::kNarrowInfinity) x = kernels::kUnreachable;
        const auto ok = verify::sssp(g, std::uint32_t{0}, d.data());
        ASSERT_TRUE(ok.ok) << ok.message << " (" << threads << " threads, delta " << delta << ")";
        const int team_from = ws.scratch<Scratch>().team_from_round;
        if (wide) EXPECT_EQ(team_from, 1) << "the broom's second round holds its " << fan << " children";
        else EXPECT_EQ(team_from, -1) << "the grid's rounds never reach kFusionLimit entries";
      }
    omp_set_num_threads(2);
    NumaArray<double> d;
    kernels::sssp_delta_stepping(g, std::uint32_t{0}, 64.0, d, &ws);  // not starting alone: the team throughout
    omp_set_num_threads(saved);
    EXPECT_EQ(ws.scratch<Scratch>().team_from_round, 0);
    EXPECT_TRUE(verify::sssp(g, std::uint32_t{0}, d.data()).ok);
  }
}

// How wide a round must be to call the team: kFusionLimit entries at least,
// and kTeamRoundArcs / (threads - 1) arcs at the graph's mean degree; never
// for a team of one or a graph without arcs.
TEST(Sssp, TheTeamIsCalledForRoundsWithEnoughArcsPerExtraThread) {
  using kernels::sssp_detail::team_round_entries;
  constexpr auto kNever = std::numeric_limits<std::int64_t>::max();
  const auto fusion = static_cast<std::int64_t>(kernels::sssp_detail::kFusionLimit);
  EXPECT_EQ(team_round_entries(4.0, 2), 12288);  // 49152 arcs on one extra thread
  EXPECT_EQ(team_round_entries(4.0, 5), 3072);   // a quarter with four
  EXPECT_EQ(team_round_entries(3.0, 2), 16384);  // ceil(49152 / 3)
  EXPECT_EQ(team_round_entries(5.0, 2), 9831);   // ceil(9830.4)
  EXPECT_EQ(team_round_entries(4.0, 16), fusion);  // never below kFusionLimit
  EXPECT_EQ(team_round_entries(100.0, 2), fusion);
  EXPECT_EQ(team_round_entries(4.0, 1), kNever);
  EXPECT_EQ(team_round_entries(0.0, 2), kNever);
  EXPECT_EQ(team_round_entries(1e-300, 2), kNever);

  // Through sssp_delta_stepping on 2 threads: a sparse broom (2,000 children
  // of 1.5 arcs per vertex on average) stays alone; a dense one, whose
  // 2,000 children each reach 60 of 100 shared sinks, calls the team at the
  // round of its children. Both answer as Dijkstra does.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> weight(1, 40);
  const std::uint64_t fan = 2000, sinks = 100;
  const AnyGraph sparse_any = weighted_broom(fan, rng, weight);
  std::vector<test_graphs::Arc> dense;
  for (std::uint64_t i = 1; i <= fan; ++i) {
    dense.push_back({0, i, static_cast<float>(weight(rng))});
    for (std::uint64_t k = 0; k < 60; ++k)
      dense.push_back({i, fan + 1 + (i * 7 + k) % sinks, static_cast<float>(weight(rng))});
  }
  const AnyGraph dense_any = make_graph(dense, fan + 1 + sinks, false, false, WeightKind::kInteger);
  using Scratch = kernels::sssp_detail::SearchScratch<kernels::sssp_detail::QueuedEntry<std::uint32_t, std::uint32_t>>;
  const int saved = omp_get_max_threads();
  for (const bool is_dense : {false, true}) {
    const auto& g = std::get<Graph32>(is_dense ? dense_any : sparse_any);
    kernels::SsspWorkspace ws;
    NumaArray<double> d;
    omp_set_num_threads(2);
    kernels::sssp_delta_stepping(g, std::uint32_t{0}, 1e6, d, &ws, /*start_alone=*/true);
    omp_set_num_threads(saved);
    EXPECT_TRUE(verify::sssp(g, std::uint32_t{0}, d.data()).ok);
    EXPECT_EQ(ws.scratch<Scratch>().team_from_round, is_dense ? 1 : -1)
        << (is_dense ? "2,000 entries x 58 arcs is above 49,152" : "2,000 entries x 1.5 arcs is below 49,152");
  }
}

TEST(Sssp, DefaultDeltaIsTheMeanWeight) {
  const AnyGraph any = make_graph({{0, 1, 10}, {1, 2, 30}}, 3, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::default_delta(std::get<Graph32>(any)), 20.0);
  const AnyGraph light = make_graph({{0, 1, 0.25f}}, 2, true, false, WeightKind::kReal);
  EXPECT_DOUBLE_EQ(kernels::default_delta(std::get<Graph32>(light)), 1.0);  // at least 1
}

TEST(Sssp, NegativeWeightsAndBadDeltaAreRefused) {
  const AnyGraph any = make_graph({{0, 1, 2}, {1, 2, -3}, {2, 0, -1}}, 3, true, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  try {
    kernels::refuse_negative_weights(g);
    FAIL() << "negative weight accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("edge 1 -> 2"), std::string::npos) << e.what();
  }
  const AnyGraph ok = make_graph(kDirected, 7, true, false, WeightKind::kInteger);
  EXPECT_NO_THROW(kernels::refuse_negative_weights(std::get<Graph32>(ok)));
  EXPECT_THROW(kernels::sssp_delta_stepping(std::get<Graph32>(ok), 0u, 0.0), UsageError);
  EXPECT_THROW(kernels::sssp_delta_stepping(std::get<Graph32>(ok), 0u, -1.0), UsageError);
}

TEST(SsspVerifier, CatchesWrongAndMissingDistances) {
  const AnyGraph any = make_graph(kDirected, 7, true, false, WeightKind::kInteger);
  const auto& g = std::get<Graph32>(any);
  const auto good = kernels::sssp_delta_stepping(g, 0u, 1);
  auto fails = [&](std::size_t v, double value) {
    std::vector<double> d(good.begin(), good.end());
    d[v] = value;
    return !verify::sssp(g, 0u, d.data()).ok;
  };
  EXPECT_TRUE(fails(3, 5));       // longer than the shortest path
  EXPECT_TRUE(fails(3, 3.5));     // shorter than possible
  EXPECT_TRUE(fails(4, kInf));    // reachable vertex reported unreachable
  EXPECT_TRUE(fails(5, 1));       // unreachable vertex given a distance
  EXPECT_TRUE(fails(1, 3 + 1e-7));  // integer weights: exact match required
}

// ---- The engine variant (engine_delta_stepping.hpp) ----

std::vector<double> serial_dijkstra(const Graph32& g, std::uint32_t s) {
  std::vector<double> d(static_cast<std::size_t>(g.num_vertices()), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  d[s] = 0;
  q.push({0, s});
  while (!q.empty()) {
    auto [du, u] = q.top();
    q.pop();
    if (du > d[u]) continue;
    auto nb = g.out_neighbors(u);
    auto w = g.out_weights(u);
    for (std::size_t j = 0; j < nb.size(); ++j)
      if (du + w[j] < d[nb[j]]) {
        d[nb[j]] = du + w[j];
        q.push({d[nb[j]], nb[j]});
      }
  }
  return d;
}

TEST(NumaEngine, SsspMatchesDijkstraOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed, /*weighted=*/true);
    const std::uint32_t root = first_vertex_with_edges(g);
    const auto expected = serial_dijkstra(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        // 1.1 does not divide the distances evenly; 0.01 puts entries
        // beyond the bins' window (weights up to 255: 25,500 buckets ahead).
        // Whole-number weights: the search runs on 32-bit distances unless
        // the workspace says otherwise; both must give Dijkstra's answer.
        for (bool narrow : {true, false}) {
          for (double delta : {8.0, 1000.0, 1.1, 0.01}) {
            engine::NoAccounting acc;
            kernels::SsspWorkspace ws;
            ws.narrow = narrow;
            auto r = kernels::sssp_numa(pg, root, delta, mode, acc, &ws);
            for (std::int64_t v = 0; v < g.num_vertices(); ++v)
              ASSERT_EQ(r.dist[v], expected[v])
                  << "v=" << v << " nodes=" << nodes << " delta=" << delta << " narrow=" << narrow;
          }
        }
      }
    }
  }
}

// Relaxations write only local targets; the one remote random access left is
// the staleness read of another node's hub entry (engine_delta_stepping.hpp),
// a small share of the accesses, and far fewer than the flat kernel's.
TEST(NumaEngine, SsspNumaModeReadsRemotelyOnlyToSkipStaleHubs) {
  Graph32 g = kron(10, false, true);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kNuma, numa_acc);
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kShared, flat_acc);
  const auto numa = numa_acc.total(), flat = flat_acc.total();
  const auto numa_all = numa.local_random + numa.local_sequential + numa.remote_random + numa.remote_sequential;
  EXPECT_LT(numa.remote_random * 100, numa_all);
  EXPECT_LT(numa.remote_random * 20, flat.remote_random);
  EXPECT_GT(flat.remote_random, 0);
}

}  // namespace
