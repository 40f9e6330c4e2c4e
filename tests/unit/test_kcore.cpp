// k-core decomposition: hand-drawn graphs with known coreness (32- and 64-bit
// ids), Kronecker graphs against a serial minimum-degree peel, the verifier
// rejecting corrupted results, rounds that push or pull, the refusals (directed, self-loops), and the
// engine variant equal to the flat kernel on 1, 2, 4 and 8 synthetic nodes,
// in both modes, with and without accounting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/kcore/kcore.hpp"
#include "numagraph/verify/kcore.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

template <typename A>
std::vector<std::int32_t> as_vector(const A& a) {
  return std::vector<std::int32_t>(a.begin(), a.end());
}

// Coreness by the definition, serially: repeatedly remove a vertex of
// minimum remaining degree; its coreness is the largest minimum seen so far.
template <typename G>
std::vector<std::int32_t> min_degree_peel(const G& g) {
  const std::int64_t n = g.num_vertices();
  std::vector<std::int64_t> deg(static_cast<std::size_t>(n));
  std::vector<bool> gone(static_cast<std::size_t>(n), false);
  std::vector<std::int32_t> core(static_cast<std::size_t>(n), 0);
  for (std::int64_t v = 0; v < n; ++v) deg[v] = static_cast<std::int64_t>(g.out_degree(static_cast<typename G::vertex_type>(v)));
  std::int64_t level = 0;
  for (std::int64_t step = 0; step < n; ++step) {
    std::int64_t best = -1;
    for (std::int64_t v = 0; v < n; ++v)
      if (!gone[v] && (best < 0 || deg[v] < deg[best])) best = v;
    level = std::max(level, deg[best]);
    core[best] = static_cast<std::int32_t>(level);
    gone[best] = true;
    for (const auto u : g.out_neighbors(static_cast<typename G::vertex_type>(best)))
      if (!gone[u]) --deg[u];
  }
  return core;
}

template <typename G>
engine::Layout layout_for(const G& g, int nodes, int threads) {
  return engine::Layout::make(nodes, engine::Layout::node_major(nodes, threads), g.num_vertices(),
                              g.in_arrays().offsets.data());
}

class KcoreIds : public ::testing::TestWithParam<bool> {};

TEST_P(KcoreIds, HandDrawnGraphs) {
  struct Case {
    std::vector<test_graphs::Arc> edges;
    std::uint64_t n;
    std::vector<std::int32_t> core;
    std::int32_t max_core;
  };
  const std::vector<Case> cases = {
      // A triangle with a pendant vertex, a lone vertex, a separate edge.
      {{{0, 1}, {1, 2}, {2, 0}, {0, 3}, {5, 6}}, 7, {2, 2, 2, 1, 0, 1, 1}, 2},
      // K4 {0..3} and the triangle {5,6,7} joined through 4: 4 keeps two neighbours in the 2-core.
      {{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 5}},
       8,
       {3, 3, 3, 3, 2, 2, 2, 2},
       3},
      // K5 and two isolated vertices: the levels jump from 0 to 4.
      {{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}, 7, {4, 4, 4, 4, 4, 0, 0}, 4},
      // A path: every vertex has core 1 after the ends peel away one round at a time.
      {{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 5, {1, 1, 1, 1, 1}, 1},
      // No edges at all.
      {{}, 3, {0, 0, 0}, 0},
  };
  for (const auto& c : cases) {
    const AnyGraph any = make_graph(c.edges, c.n, false, GetParam());
    numagraph::visit(
        [&](const auto& g) {
          const auto flat = core_numbers(g, {}, Execution{.engine = EngineChoice::kFlat});
          EXPECT_EQ(as_vector(flat.core), c.core);
          EXPECT_EQ(flat.max_core, c.max_core);
          EXPECT_FALSE(flat.ran.numa);
          EXPECT_TRUE(verify::core_numbers(g, flat.core.data()).ok);
          const auto numa = core_numbers(g, {}, Execution{.engine = EngineChoice::kNuma});
          EXPECT_TRUE(numa.ran.numa);
          EXPECT_EQ(as_vector(numa.core), c.core);
          EXPECT_EQ(numa.max_core, c.max_core);
          EXPECT_EQ(numa.rounds, flat.rounds);
        },
        any);
  }
}

TEST_P(KcoreIds, KroneckerMatchesSerialPeel) {
  const AnyGraph any = make_kron(10, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const auto want = min_degree_peel(g);
        const auto r = core_numbers(g);
        EXPECT_EQ(as_vector(r.core), want);
        EXPECT_EQ(r.max_core, *std::max_element(want.begin(), want.end()));
        EXPECT_TRUE(verify::core_numbers(g, r.core.data()).ok);
        // Rounds that always push, always pull, or by the rule: the same
        // coreness in the same rounds.
        for (const double pull_ratio : {0.0, 1e12, 2.0, -1.0}) {
          const auto p = kernels::core_numbers_peeling(g, kernels::KcoreOptions{pull_ratio});
          EXPECT_EQ(as_vector(p.core), want) << "pull_ratio " << pull_ratio;
          EXPECT_EQ(p.rounds, r.rounds) << "pull_ratio " << pull_ratio;
        }
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(Widths, KcoreIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "64bit" : "32bit"; });

TEST(KcoreVerify, RejectsCorruptedResults) {
  // K4 {0..3} joined through 4 to the triangle {5,6,7}: cores 3,3,3,3,2,2,2,2.
  const AnyGraph any = make_graph(
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 5}}, 8, false, false);
  const auto& g = std::get<Graph32>(any);
  const std::vector<std::int32_t> good = {3, 3, 3, 3, 2, 2, 2, 2};
  ASSERT_TRUE(verify::core_numbers(g, good.data()).ok);
  auto too_high = good;
  too_high[4] = 3;  // 4 has two neighbours
  EXPECT_FALSE(verify::core_numbers(g, too_high.data()).ok);
  auto one_too_high = good;
  one_too_high[5] = 3;  // degree 3, but only 1 neighbour of core >= 3
  const auto high = verify::core_numbers(g, one_too_high.data());
  EXPECT_FALSE(high.ok);
  EXPECT_NE(high.message.find("vertex 5"), std::string::npos) << high.message;
  auto too_low = good;
  too_low[0] = too_low[1] = too_low[2] = too_low[3] = 2;  // the K4 claimed to be in the 2-core only
  const auto low = verify::core_numbers(g, too_low.data());
  EXPECT_FALSE(low.ok);
  EXPECT_NE(low.message.find("3-core"), std::string::npos) << low.message;
  auto one_too_low = good;
  one_too_low[6] = 1;
  EXPECT_FALSE(verify::core_numbers(g, one_too_low.data()).ok);
  auto negative = good;
  negative[7] = -1;
  EXPECT_FALSE(verify::core_numbers(g, negative.data()).ok);
}

TEST(KcoreInput, RefusesDirectedGraphsAndSelfLoops) {
  const AnyGraph directed = make_graph({{0, 1}, {1, 2}}, 3, true, false);
  try {
    core_numbers(std::get<Graph32>(directed));
    FAIL() << "a directed graph was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--symmetrize"), std::string::npos) << e.what();
  }
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(2);
  e.dst = NumaArray<std::uint64_t>(2);
  e.src[0] = 0, e.dst[0] = 1, e.src[1] = 1, e.dst[1] = 1;
  e.num_vertices = 2;
  e.undirected = true;
  BuildOptions b;
  b.drop_self_loops = false;
  const AnyGraph looped = build_graph(std::move(e), b);
  numagraph::visit(
      [&](const auto& g) {
        ASSERT_GT(g.num_self_loops(), 0);
        EXPECT_THROW(core_numbers(g), UsageError);
      },
      looped);
}

TEST(KcoreInput, RefusesPullRatioWhereItDoesNotApply) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 0}}, 3, false, false);
  const auto& g = std::get<Graph32>(any);
  for (const double bad : {-2.0, std::nan("")})
    EXPECT_THROW(core_numbers(g, KcoreOptions{bad}), UsageError) << bad;
  Execution numa;
  numa.engine = EngineChoice::kNuma;
  EXPECT_THROW(core_numbers(g, KcoreOptions{2}, numa), UsageError);
  EXPECT_EQ(core_numbers(g, KcoreOptions{}, numa).max_core, 2);
  EXPECT_EQ(core_numbers(g, KcoreOptions{2}).max_core, 2);
}

TEST(KcoreEngine, EqualsFlatOnSyntheticNodes) {
  const AnyGraph any = make_kron(12, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto flat = kernels::core_numbers_peeling(g);
  ASSERT_TRUE(verify::core_numbers(g, flat.core.data()).ok);
  for (int nodes : {1, 2, 4, 8}) {
    const int threads = std::max(nodes, 2);
    const engine::PartitionedGraph<std::uint32_t> pg(g, layout_for(g, nodes, threads), {.push = true, .out = false});
    for (const auto mode : {engine::EngineMode::kNuma, engine::EngineMode::kShared}) {
      engine::NoAccounting none;
      const auto r = kernels::core_numbers_numa(pg, {}, mode, none);
      EXPECT_EQ(as_vector(r.core), as_vector(flat.core)) << nodes << " nodes, " << engine::to_string(mode);
      EXPECT_EQ(r.max_core, flat.max_core);
      EXPECT_EQ(r.rounds, flat.rounds);
      engine::Accounting acc(pg.layout());
      const auto counted = kernels::core_numbers_numa(pg, {}, mode, acc);
      EXPECT_EQ(as_vector(counted.core), as_vector(flat.core));
      const auto t = acc.total();
      EXPECT_GT(t.total(), 0);
      // Every decrement and every degree read of the NUMA mode is the owner's.
      if (mode == engine::EngineMode::kNuma) {
        EXPECT_EQ(t.remote_random, 0) << nodes << " nodes";
      } else if (nodes > 1) {
        EXPECT_GT(t.remote_random, 0) << nodes << " nodes";
      }
    }
  }
}

}  // namespace
