// The NUMA engine's infrastructure, below the kernels: layouts cover every
// vertex and thread once, frontier bitmaps keep an exact summary, partitioned
// graphs hold every edge once, work queues hand out every item once and steal
// by distance, and edge_map takes both directions with frontiers of the right
// size on every topology. The kernels' engine variants are tested beside their
// flat kernels (test_<kernel>.cpp).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/edge_map.hpp"
#include "numagraph/engine/frontier.hpp"
#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/bfs/engine_direction_optimizing.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using engine::EngineMode;
using numagraph::engine_test::first_vertex_with_edges;
using numagraph::engine_test::kron;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::layout_for;
using numagraph::test_graphs::queue_bfs;

TEST(Layout, RangesCoverAllVerticesAndThreads) {
  Graph32 g = kron(10, false);
  for (auto [nodes, threads] : kTopologies) {
    auto l = layout_for(g, nodes, threads);
    ASSERT_EQ(l.node_bounds.front(), 0);
    ASSERT_EQ(l.node_bounds.back(), g.num_vertices());
    std::vector<int> seen(static_cast<std::size_t>(g.num_vertices()), 0);
    for (const auto& ranges : l.thread_ranges)
      for (auto [lo, hi] : ranges)
        for (auto v = lo; v < hi; ++v) ++seen[static_cast<std::size_t>(v)];
    for (int s : seen) ASSERT_EQ(s, 1);
  }
}

// The summary rebuilt after word-only sets says exactly which 256-vertex
// groups hold a set bit (including a last, partial group), and the
// summarized test agrees with the plain one everywhere.
TEST(Bitmap, RebuiltSummaryMarksExactlyTheGroupsWithBits) {
  const std::int64_t n = 70000;  // 273 full groups of 256 and a partial one
  engine::Bitmap bits(n);
  std::vector<char> expected(static_cast<std::size_t>(n), 0);
  std::uint64_t x = 12345;
  for (int k = 0; k < 300; ++k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto i = static_cast<std::int64_t>((x >> 33) % static_cast<std::uint64_t>(n));
    if (k % 2) bits.set_bit_atomic(i);
    else bits.set_bit_owned(i);
    expected[static_cast<std::size_t>(i)] = 1;
  }
  bits.set_bit_owned(n - 1);
  expected[static_cast<std::size_t>(n - 1)] = 1;
  bits.rebuild_summary();
  for (std::int64_t g = 0; g * 256 < n; ++g) {
    bool any = false;
    for (std::int64_t i = g * 256; i < std::min(n, g * 256 + 256); ++i) any = any || expected[static_cast<std::size_t>(i)];
    const bool marked = (bits.summary()[g >> 6] >> (g & 63)) & 1;
    ASSERT_EQ(marked, any) << "group " << g;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(engine::test_bit(bits.words(), i), expected[static_cast<std::size_t>(i)] != 0) << i;
    ASSERT_EQ(engine::test_bit_summarized(bits.words(), bits.summary(), i), expected[static_cast<std::size_t>(i)] != 0) << i;
  }
  bits.clear();  // and a rebuild after clearing leaves no group marked
  bits.rebuild_summary();
  for (std::int64_t w = 0; w < bits.num_summary_words(); ++w) ASSERT_EQ(bits.summary()[w], 0u);
}

TEST(PartitionedGraph, PartsHoldEveryEdgeOnce) {
  Graph32 g = kron(10, true);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, true});
  eid_t pull = 0, push = 0;
  for (int k = 0; k < 4; ++k) {
    pull += static_cast<eid_t>(pg.pull(k).neighbors.size());
    push += static_cast<eid_t>(pg.push(k).neighbors.size());
    // Every push edge targets the part's own range.
    for (auto v : pg.push(k).neighbors.span()) {
      ASSERT_GE(v, pg.layout().node_bounds[k]);
      ASSERT_LT(v, pg.layout().node_bounds[k + 1]);
    }
  }
  EXPECT_EQ(pull, g.num_arcs());
  EXPECT_EQ(push, g.num_arcs());
}

TEST(WorkQueues, EveryItemOnceAndStealingFollowsDistance) {
  // 4 nodes x 2 threads; node 0 is close to node 1, far from 2 and 3.
  std::vector<int> thread_node{0, 0, 1, 1, 2, 2, 3, 3};
  std::vector<int> owner{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::vector<int>> dist{{10, 12, 30, 30}, {12, 10, 30, 30}, {30, 30, 10, 12}, {30, 30, 12, 10}};
  auto order = parallel::steal_order_by_distance(thread_node, owner, thread_node, dist);
  EXPECT_EQ(order[0], (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  // Ties at one distance go by XOR with the thief's id (seed 000's victim = tid ^ d).
  EXPECT_EQ(order[5], (std::vector<int>{4, 7, 6, 1, 0, 3, 2}));
  parallel::WorkQueues q(owner, order, 16);
  const std::int64_t items = 10000;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  for (int t = 0; t < 8; ++t) ranges.emplace_back(items * t / 8, items * (t + 1) / 8);
  q.reset(ranges);
  std::vector<std::atomic<int>> seen(items);
#pragma omp parallel num_threads(8)
  q.drain(omp_get_thread_num(), [&](std::int64_t b, std::int64_t e, int) {
    for (auto i = b; i < e; ++i) seen[static_cast<std::size_t>(i)]++;
  });
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
}

TEST(EdgeMap, LigraThresholdPicksBothDirectionsAndKeepsDepths) {
  Graph32 g = kron(11, false);
  const std::uint32_t root = first_vertex_with_edges(g);
  const auto expected = queue_bfs(g, root);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, false});
  engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
  NumaArray<std::int32_t> parent(static_cast<std::size_t>(g.num_vertices()));
  NumaArray<std::int32_t> depth(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    parent[v] = -(g.out_degree(static_cast<std::uint32_t>(v)) + 1);  // BfsStep's unvisited mark
    depth[v] = -1;
  }
  parent[root] = root;
  depth[root] = 0;
  engine::SparseFrontier<std::uint32_t> frontier{root};
  bool pushed = false, pulled = false;
  engine::NoAccounting acc;
  for (std::int32_t level = 0; !frontier.empty(); ++level) {
    kernels::detail::BfsStep<std::uint32_t> step{parent.data(), depth.data(), level + 1};
    frontier = mapper.edge_map(frontier, step, {}, acc);
    (mapper.last_direction() == engine::Direction::kPush ? pushed : pulled) = true;
  }
  EXPECT_TRUE(pushed);
  EXPECT_TRUE(pulled);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(depth[v], expected[v]);
}

// Every forced direction sequence gives BFS levels; each returned frontier's
// size and out-degree sum match the level's vertices, dense or not.
TEST(EdgeMap, FrontierSizesAndDegreesInEveryDirectionMix) {
  Graph32 g = kron(10, true);
  const std::uint32_t root = first_vertex_with_edges(g);
  const auto expected = queue_bfs(g, root);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
    for (int pattern = 0; pattern < 4; ++pattern) {  // bit 0: pull on odd levels, bit 1: on even ones
      engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
      NumaArray<std::int32_t> level(static_cast<std::size_t>(g.num_vertices()));
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) level[v] = -1;
      level[root] = 0;
      engine::NoAccounting acc;
      auto frontier = mapper.make_frontier({root});
      for (std::int32_t d = 0; !frontier.empty(); ++d) {
        engine_test::LevelStep step{level.data(), d + 1};
        engine::EdgeMapOptions em;
        em.direction = (pattern >> (d % 2)) & 1 ? engine::Direction::kPull : engine::Direction::kPush;
        frontier = mapper.edge_map(frontier, step, em, acc);
        ASSERT_EQ(frontier.dense, em.direction == engine::Direction::kPull);
        const auto list = mapper.to_list(frontier);
        std::int64_t size = 0;
        eid_t degrees = 0;
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          if (expected[v] == d + 1) {
            ++size;
            degrees += g.out_degree(static_cast<std::uint32_t>(v));
          }
        ASSERT_EQ(frontier.size, size) << "level " << d + 1 << " nodes=" << nodes;
        ASSERT_EQ(static_cast<std::int64_t>(list.size()), size);
        ASSERT_EQ(frontier.out_degrees, degrees) << "level " << d + 1 << " nodes=" << nodes;
        for (auto v : list) ASSERT_EQ(expected[v], d + 1);
      }
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(level[v], expected[v]) << "v=" << v;
    }
  }
}

// A dense frontier lives in the mapper: passing an old one back is refused.
TEST(EdgeMap, StaleDenseFrontierIsRefused) {
  Graph32 g = kron(9, false);
  const std::uint32_t root = first_vertex_with_edges(g);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 2, 2), {true, false});
  engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
  NumaArray<std::int32_t> level(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) level[v] = -1;
  level[root] = 0;
  engine::NoAccounting acc;
  engine::EdgeMapOptions pull;
  pull.direction = engine::Direction::kPull;
  engine_test::LevelStep first{level.data(), 1};
  const auto dense = mapper.edge_map(mapper.make_frontier({root}), first, pull, acc);
  ASSERT_TRUE(dense.dense);
  engine_test::LevelStep second{level.data(), 2};
  const auto next = mapper.edge_map(dense, second, pull, acc);
  EXPECT_THROW(mapper.edge_map(dense, second, pull, acc), UsageError);
  EXPECT_THROW(mapper.to_list(dense), UsageError);
  EXPECT_NO_THROW(mapper.to_list(next));
}
