// The engine's rolling update (Polymer): a writer on node k fills the
// replicas in the order k, k+1, ... (mod nodes), so at every step the writers
// of different nodes fill different nodes' copies; set_range() leaves every
// copy equal to the source over the range and untouched elsewhere; shared
// copies (synthetic nodes without memory) are filled once. edge_map's pulls,
// which refresh their bitmap replicas this way, find the same BFS levels as a
// queue BFS on every test topology (the results do not depend on the order).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/edge_map.hpp"
#include "numagraph/engine/replicated.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;

namespace {

class RollingUpdate : public ::testing::Test {
 protected:
  void TearDown() override { numa::Runtime::get().configure(numa::RuntimeConfig{}); }
};

}  // namespace

TEST_F(RollingUpdate, EveryStepFillsADifferentNodesCopy) {
  for (int nodes : {2, 3, 5, 8}) {
    engine::Replicas<int> r(nodes, 16);  // no configured runtime of this size: one copy per node
    ASSERT_EQ(r.distinct_copies(), nodes);
    for (int step = 0; step < nodes; ++step) {
      std::set<int> filled;
      for (int node = 0; node < nodes; ++node) {
        const auto order = r.rolling_order(node);
        ASSERT_EQ(order.size(), static_cast<std::size_t>(nodes));
        EXPECT_EQ(order[0], node) << "a writer starts with its own node's copy";
        EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), order.size()) << "each copy once";
        filled.insert(order[static_cast<std::size_t>(step)]);
      }
      EXPECT_EQ(filled.size(), static_cast<std::size_t>(nodes)) << nodes << " nodes, step " << step;
    }
  }
}

TEST_F(RollingUpdate, SetRangeFillsEveryCopyOverTheRangeOnly) {
  const int nodes = 4;
  engine::Replicas<std::int64_t> r(nodes, 100);
  std::vector<std::int64_t> source(100);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<std::int64_t>(i * i + 7);
  // Two writers on different nodes fill disjoint ranges, as edge_map's owners do.
  r.set_range(10, 40, source.data(), 1);
  r.set_range(40, 55, source.data(), 3);
  r.set_range(60, 60, source.data(), 2);  // empty: writes nothing
  for (int k = 0; k < nodes; ++k)
    for (std::size_t i = 0; i < source.size(); ++i)
      EXPECT_EQ(r.copy(k)[i], i >= 10 && i < 55 ? source[i] : 0) << "node " << k << ", index " << i;
}

TEST_F(RollingUpdate, SharedCopyIsFilledOnce) {
  numa::RuntimeConfig c;
  c.topology = "pack:4 numa:1 core:1 pu:1";
  numa::Runtime::get().configure(c);
  engine::Replicas<double> r(4, 8);
  if (r.distinct_copies() == 4) GTEST_SKIP() << "this machine has 4 real nodes: no copy is shared";
  for (int node = 0; node < 4; ++node) {
    const auto order = r.rolling_order(node);
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), order.size());
    EXPECT_EQ(order.size(), static_cast<std::size_t>(r.distinct_copies()));
  }
  const std::vector<double> source{1, 2, 3, 4, 5, 6, 7, 8};
  r.set_range(2, 6, source.data(), 2);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(r.copy(k)[5], 6.0);
}

// Every level a pull (a sparse first frontier included): each call refreshes
// the frontier's replicas with set_range before reading them, so wrong or
// missing words would lose vertices. The levels must be a queue BFS's.
TEST_F(RollingUpdate, PullsSeeTheWholeFrontierOnEveryTopology) {
  const Graph32 g = engine_test::kron(10, true);
  const std::uint32_t root = engine_test::first_vertex_with_edges(g);
  const auto expected = test_graphs::queue_bfs(g, root);
  for (auto [nodes, threads] : engine_test::kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, engine_test::layout_for(g, nodes, threads), {true, false});
    engine::EdgeMapper<std::uint32_t> mapper(pg, engine::EngineMode::kNuma);
    std::vector<std::int32_t> level(static_cast<std::size_t>(g.num_vertices()), -1);
    level[root] = 0;
    engine::NoAccounting acc;
    engine::EdgeMapOptions pull;
    pull.direction = engine::Direction::kPull;
    auto frontier = mapper.make_frontier({root});
    for (std::int32_t d = 0; !frontier.empty(); ++d) {
      engine_test::LevelStep step{level.data(), d + 1};
      frontier = mapper.edge_map(frontier, step, pull, acc);
    }
    for (std::int64_t v = 0; v < g.num_vertices(); ++v)
      ASSERT_EQ(level[static_cast<std::size_t>(v)], expected[static_cast<std::size_t>(v)])
          << nodes << " nodes, " << threads << " threads, vertex " << v;
  }
}
