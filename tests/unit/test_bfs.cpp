// Direction-optimizing BFS, its Graph500 verifier, the root picker and the
// double-sweep diameter on hand-drawn graphs (32- and 64-bit ids), plus
// Kronecker graphs forced through every direction and summary granularity,
// and top-down runs split statically or by chunks on a grid.
// The engine variant (engine_direction_optimizing.hpp): the serial depths on
// every synthetic topology in numa and shared mode, with one workspace reused
// across roots and graphs, and fewer remote random accesses in numa mode.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/bfs/direction_optimizing.hpp"
#include "numagraph/kernels/bfs/engine_direction_optimizing.hpp"
#include "numagraph/kernels/diameter/double_sweep.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/verify/bfs.hpp"
#include "numagraph/verify/diameter.hpp"
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

// Two components {0..5}, {7, 8} and the isolated vertex 6:
//   0 - 1 - 2 - 3        (and 1 - 4 - 5, 2 - 4)
const std::vector<test_graphs::Arc> kTwoComponents = {{0, 1}, {1, 2}, {2, 3}, {1, 4}, {4, 5}, {2, 4}, {7, 8}};

class BfsIds : public ::testing::TestWithParam<bool> {};

TEST_P(BfsIds, HandDrawnUndirectedDepthsAndVerifier) {
  const AnyGraph any = make_graph(kTwoComponents, 9, false, GetParam());
  EXPECT_EQ(std::holds_alternative<Graph64>(any), GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto r = kernels::bfs_direction_optimizing(g, V{0});
        const std::vector<std::int32_t> expected = {0, 1, 2, 3, 2, 3, -1, -1, -1};
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_EQ(r.depth[v], expected[v]) << "vertex " << v;
        EXPECT_EQ(r.parent[0], 0);
        EXPECT_LT(r.parent[6], 0);
        EXPECT_LT(r.parent[7], 0);
        const auto ok = verify::bfs_tree(g, V{0}, r.parent.data(), r.depth.data());
        EXPECT_TRUE(ok.ok) << ok.message;
        const auto derived = kernels::depths_from_parents(g, V{0}, r.parent.data());
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_EQ(derived[v], expected[v]);
      },
      any);
}

TEST_P(BfsIds, DirectedFollowsArcsOnlyInBothDirections) {
  // 0 -> 1 -> 2 -> 3, 4 -> 0 (4 is not reachable from 0), 2 -> 5, 5 -> 1.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}, {4, 0}, {2, 5}, {5, 1}}, 6, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        // Top-down only (alpha tiny) and bottom-up from the first step
        // (alpha and beta huge) must agree.
        for (const auto& [alpha, beta] : {std::pair{1e-12, 18.0}, std::pair{1e12, 1e12}}) {
          kernels::BfsOptions o;
          o.alpha = alpha;
          o.beta = beta;
          const auto r = kernels::bfs_direction_optimizing(g, V{0}, o);
          const std::vector<std::int32_t> expected = {0, 1, 2, 3, -1, 3};
          for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_EQ(r.depth[v], expected[v]) << "vertex " << v;
          EXPECT_EQ(r.bottom_up_steps > 0, alpha > 1);
          EXPECT_EQ(r.top_down_steps > 0, alpha < 1);
          const auto ok = verify::bfs_tree(g, V{0}, r.parent.data(), r.depth.data());
          EXPECT_TRUE(ok.ok) << ok.message;
        }
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BfsIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Ids64" : "Ids32"; });

TEST(Bfs, EveryDirectionScheduleAndSummaryGranularityMatchesQueueBfs) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(11, directed, false);
    const auto& g = std::get<Graph32>(any);
    const auto roots = kernels::pick_roots(g, 2, 7);
    for (const int bits : {64, 512, 4096})
      for (const auto& [alpha, beta] : {std::pair{15.0, 18.0}, std::pair{1e12, 1e12}, std::pair{1e-12, 18.0}, std::pair{2.0, 2.0}})
        for (const auto root : roots) {
          kernels::BfsOptions o;
          o.summary_bits = bits;
          o.alpha = alpha;
          o.beta = beta;
          const auto r = kernels::bfs_direction_optimizing(g, root, o);
          const auto expected = queue_bfs(g, root);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_EQ(r.depth[v], expected[v]) << "vertex " << v << " bits " << bits << " alpha " << alpha;
          const auto ok = verify::bfs_tree(g, root, r.parent.data(), r.depth.data());
          ASSERT_TRUE(ok.ok) << ok.message;
        }
  }
}

// Top-down runs split each level statically on sparse graphs and by chunks
// on dense ones: both, on a grid whose levels are hundreds of vertices wide,
// on 1, 2 and 3 threads (shares of unequal size), give the queue BFS's depths
// and a tree the verifier accepts.
TEST(Bfs, TopDownRunsSplitStaticallyOrByChunks) {
  const std::uint64_t side = 180;
  std::vector<test_graphs::Arc> e;
  for (std::uint64_t r = 0; r < side; ++r)
    for (std::uint64_t c = 0; c < side; ++c) {
      if (c + 1 < side) e.push_back({r * side + c, r * side + c + 1});
      if (r + 1 < side) e.push_back({r * side + c, (r + 1) * side + c});
    }
  const AnyGraph any = make_graph(e, side * side, false, false);
  const auto& g = std::get<Graph32>(any);
  EXPECT_TRUE(kernels::splits_statically(g));
  const std::uint32_t root = static_cast<std::uint32_t>(side / 2 * side + side / 3);
  const auto expected = queue_bfs(g, root);
  const int before = omp_get_max_threads();
  for (const int threads : {1, 2, 3})
    for (const bool static_split : {true, false}) {
      omp_set_num_threads(threads);
      const std::int64_t n = g.num_vertices();
      std::vector<std::int32_t> parent(static_cast<std::size_t>(n)), depth(static_cast<std::size_t>(n), -1);
      for (std::int64_t v = 0; v < n; ++v)
        parent[static_cast<std::size_t>(v)] = -static_cast<std::int32_t>(g.out_degree(static_cast<std::uint32_t>(v))) - 1;
      std::vector<std::uint32_t> queue(static_cast<std::size_t>(n));
      queue[0] = root;
      parent[root] = static_cast<std::int32_t>(root);
      depth[root] = 0;
      kernels::detail::TopDownState st{0, 1, 0, 0, g.num_arcs(), 0};
      kernels::detail::top_down_run(g, parent.data(), depth.data(), queue.data(), st, static_split,
                                    [](eid_t, eid_t) { return false; });
      omp_set_num_threads(before);
      EXPECT_EQ(st.tail, n);
      EXPECT_EQ(st.steps, *std::max_element(expected.begin(), expected.end()) + 1);
      for (std::int64_t v = 0; v < n; ++v)
        ASSERT_EQ(depth[static_cast<std::size_t>(v)], expected[static_cast<std::size_t>(v)])
            << "vertex " << v << ", " << threads << " threads, static " << static_split;
      const auto ok = verify::bfs_tree(g, root, parent.data(), depth.data());
      EXPECT_TRUE(ok.ok) << ok.message;
    }
}

TEST(Bfs, DefaultScheduleGoesBottomUpOnKronecker) {
  const AnyGraph any = make_kron(12, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto r = kernels::bfs_direction_optimizing(g, kernels::pick_roots(g, 1, 1)[0]);
  EXPECT_GT(r.top_down_steps, 0);
  EXPECT_GT(r.bottom_up_steps, 0);
}

TEST(Bfs, ReusedWorkspaceGivesFreshResults) {
  const AnyGraph any = make_kron(10, false, false);
  const auto& g = std::get<Graph32>(any);
  kernels::BfsResult<std::uint32_t> r;
  kernels::BfsWorkspace<std::uint32_t> ws;
  for (const auto root : kernels::pick_roots(g, 4, 3)) {
    kernels::bfs_direction_optimizing(g, root, kernels::BfsOptions{}, r, ws);
    const auto expected = queue_bfs(g, root);
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(r.depth[v], expected[v]);
  }
}

TEST(Bfs, BadRequestsAreRefused) {
  const AnyGraph any = make_graph(kTwoComponents, 9, false, false);
  const auto& g = std::get<Graph32>(any);
  kernels::BfsOptions o;
  o.summary_bits = 100;
  EXPECT_THROW(kernels::bfs_direction_optimizing(g, 0u, o), UsageError);
  o.summary_bits = 8192;
  EXPECT_THROW(kernels::bfs_direction_optimizing(g, 0u, o), UsageError);
  EXPECT_THROW(kernels::bfs_direction_optimizing(g, 9u), UsageError);
  const AnyGraph no_in = make_graph({{0, 1}}, 2, true, false, WeightKind::kNone, /*in_edges=*/false);
  EXPECT_THROW(kernels::bfs_direction_optimizing(std::get<Graph32>(no_in), 0u), UsageError);
}

// Each corruption must be caught, with a message naming what is wrong.
TEST(BfsVerifier, CatchesCorruptedTrees) {
  const AnyGraph any = make_graph(kTwoComponents, 9, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto good = kernels::bfs_direction_optimizing(g, 0u);
  auto check = [&](auto corrupt, const std::string& says) {
    std::vector<std::int32_t> parent(good.parent.begin(), good.parent.end());
    std::vector<std::int32_t> depth(good.depth.begin(), good.depth.end());
    corrupt(parent, depth);
    const auto r = verify::bfs_tree(g, 0u, parent.data(), depth.data());
    EXPECT_FALSE(r.ok) << says;
    EXPECT_NE(r.message.find(says), std::string::npos) << r.message;
  };
  check([](auto& p, auto&) { p[0] = 1; }, "root");
  check([](auto& p, auto& d) { p[3] = 0, d[3] = 1; }, "not an edge");          // 0 - 3 is no edge
  check([](auto&, auto& d) { d[5] = 4; }, "must differ by exactly 1");
  check([](auto& p, auto& d) { p[5] = -1, d[5] = -1; }, "reachable");          // 5 left out
  check([](auto& p, auto& d) { p[7] = 8, d[7] = 1, p[8] = 7, d[8] = 2; }, "");  // unreachable pair in the tree
  check([](auto& p, auto&) { p[6] = 0; }, "has a parent but no depth");
  check([](auto& p, auto& d) { p[5] = 2, d[5] = 3; }, "not an edge");
  check([](auto& p, auto& d) { p[3] = 2, d[3] = 0; }, "");
}

TEST(BfsVerifier, DirectedArcsMayJumpUpButNotDown) {
  // 0 -> 1 -> 2 and the back arc 2 -> 0: depth[0] <= depth[2] + 1 holds.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 0}, {0, 3}}, 4, true, false);
  const auto& g = std::get<Graph32>(any);
  const auto r = kernels::bfs_direction_optimizing(g, 0u);
  EXPECT_TRUE(verify::bfs_tree(g, 0u, r.parent.data(), r.depth.data()).ok);
  // A tree where 3 hangs at depth 2 would leave arc 0 -> 3 with a gap of 2.
  std::vector<std::int32_t> parent(r.parent.begin(), r.parent.end()), depth(r.depth.begin(), r.depth.end());
  depth[3] = 2;
  const auto bad = verify::bfs_tree(g, 0u, parent.data(), depth.data());
  EXPECT_FALSE(bad.ok);
}

TEST(Roots, DeterministicDistinctNonIsolated) {
  const AnyGraph any = make_graph(kTwoComponents, 9, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto a = kernels::pick_roots(g, 5, 42), b = kernels::pick_roots(g, 5, 42);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.size(), 5u);
  for (const auto v : a) EXPECT_GT(g.out_degree(v), 0);
  std::vector<std::uint32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(kernels::pick_roots(g, 100, 1).size(), 8u);  // only 8 non-isolated vertices
  EXPECT_NE(kernels::pick_roots(g, 8, 1), kernels::pick_roots(g, 8, 2));
  const AnyGraph empty = make_graph({}, 3, false, false);
  EXPECT_THROW(kernels::pick_roots(std::get<Graph32>(empty), 1, 1), UsageError);
  EXPECT_THROW(kernels::dense_id(g, 9), UsageError);
  EXPECT_EQ(kernels::dense_id(g, 8), 8u);
}

TEST(Diameter, ExactOnPathsAndTreesLowerBoundElsewhere) {
  for (const bool force64 : {false, true}) {
    std::vector<test_graphs::Arc> path;
    for (std::uint64_t v = 0; v + 1 < 30; ++v) path.push_back({(v * 7) % 30, ((v + 1) * 7) % 30});
    const AnyGraph any = make_graph(path, 30, false, force64);
    numagraph::visit(
        [](const auto& g) {
          const auto r = kernels::diameter_double_sweep(g);
          EXPECT_EQ(r.bound, 29);
          EXPECT_TRUE(verify::diameter_bound(g, r.from, r.to, r.bound).ok);
          EXPECT_FALSE(verify::diameter_bound(g, r.from, r.to, r.bound + 1).ok);
        },
        any);
  }
  // A binary tree of depth 4 (diameter 8) beside a longer path {31..41}
  // (diameter 10): the start (max degree) is in the tree, so the bound is 8.
  std::vector<test_graphs::Arc> forest;
  for (std::uint64_t v = 1; v < 31; ++v) forest.push_back({(v - 1) / 2, v});
  for (std::uint64_t v = 31; v < 41; ++v) forest.push_back({v, v + 1});
  const AnyGraph any = make_graph(forest, 42, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto r = kernels::diameter_double_sweep(g);
  EXPECT_EQ(r.bound, 8);
  EXPECT_LT(r.from, 31u);
  EXPECT_LT(r.to, 31u);
  // On a cycle of 12 the bound is the true diameter 6.
  std::vector<test_graphs::Arc> cycle;
  for (std::uint64_t v = 0; v < 12; ++v) cycle.push_back({v, (v + 1) % 12});
  const AnyGraph c = make_graph(cycle, 12, false, false);
  EXPECT_EQ(kernels::diameter_double_sweep(std::get<Graph32>(c)).bound, 6);
}

// ---- The engine variant (engine_direction_optimizing.hpp) ----

TEST(NumaEngine, BfsDepthsMatchOnEveryTopologyAndMode) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);
    const std::uint32_t root = first_vertex_with_edges(g);
    const auto expected = queue_bfs(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::NoAccounting acc;
        auto r = kernels::bfs_numa(pg, root, {}, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
          ASSERT_EQ(r.depth[v], expected[v]) << "v=" << v << " nodes=" << nodes;
          if (v != root && r.depth[v] > 0) {  // parent is a real in-neighbour one level up
            auto p = static_cast<std::uint32_t>(r.parent[v]);
            ASSERT_EQ(r.depth[p] + 1, r.depth[v]);
            auto nb = g.out_neighbors(p);
            ASSERT_TRUE(std::binary_search(nb.begin(), nb.end(), static_cast<std::uint32_t>(v)));
          }
        }
      }
    }
  }
}

// One workspace (and one result) across roots, modes and partitioned graphs:
// the mapper's recycled lists and bitmaps, reused from search to search, give
// every search the serial depths.
TEST(NumaEngine, BfsWorkspaceReusedAcrossRootsModesAndGraphs) {
  kernels::NumaBfsWorkspace<std::uint32_t> ws;
  kernels::BfsResult<std::uint32_t> r;
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);
    for (auto [nodes, threads] : {std::pair{1, 2}, std::pair{4, 4}}) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared})
        for (std::uint32_t root = 0, searched = 0; searched < 4 && root < g.num_vertices(); ++root) {
          if (g.out_degree(root) == 0) continue;
          ++searched;
          engine::NoAccounting acc;
          kernels::bfs_numa(pg, root, {}, mode, acc, r, &ws);
          const auto expected = queue_bfs(g, root);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_EQ(r.depth[v], expected[v]) << "v=" << v << " root=" << root << " nodes=" << nodes;
        }
    }
  }
}

TEST(NumaEngine, BfsNumaModeCutsRemoteRandomAccess) {
  Graph32 g = kron(11, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kNuma, numa_acc);
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kShared, flat_acc);
  EXPECT_LT(numa_acc.total().remote_random * 5, flat_acc.total().remote_random);
}

}  // namespace
