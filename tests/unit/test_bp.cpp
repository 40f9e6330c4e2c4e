// Loopy belief propagation (per-arc messages, synchronous schedule) and its
// verifier: exact marginals on trees against brute-force enumeration of all
// 2^n states (32- and 64-bit ids), agreement with the serial verifier on a
// loopy Kronecker graph, isolated vertices keep their prior, corrupted beliefs
// are rejected, directed graphs are refused.
// The engine variant (engine_per_arc.hpp): exact on a tree and the same
// beliefs on every synthetic topology, with no remote random access.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/bp/engine_per_arc.hpp"
#include "numagraph/kernels/bp/per_arc.hpp"
#include "numagraph/verify/bp.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::test_graphs::Arc;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// P(x_v = 1) by summing the unnormalised joint over every assignment.
std::vector<double> enumerate_marginals(const std::vector<Arc>& edges, int n, const kernels::bp::Model& m) {
  std::vector<double> p1(static_cast<std::size_t>(n), 0.0);
  double z = 0;
  for (std::uint32_t s = 0; s < (1u << n); ++s) {
    double w = 1;
    for (int v = 0; v < n; ++v) {
      const double p = kernels::bp::belief(kernels::bp::prior_log_odds(m, static_cast<std::uint64_t>(v)));
      w *= (s >> v) & 1 ? p : 1 - p;
    }
    for (const Arc& e : edges) w *= ((s >> e.u) & 1) == ((s >> e.v) & 1) ? m.coupling : 1 - m.coupling;
    z += w;
    for (int v = 0; v < n; ++v)
      if ((s >> v) & 1) p1[static_cast<std::size_t>(v)] += w;
  }
  for (auto& p : p1) p /= z;
  return p1;
}

class BpIds : public ::testing::TestWithParam<bool> {};

TEST_P(BpIds, TreeMarginalsAreExact) {
  // A tree of diameter 5 plus the isolated vertex 7.
  const std::vector<Arc> tree = {{0, 1}, {1, 2}, {1, 3}, {3, 4}, {4, 5}, {0, 6}};
  const AnyGraph any = make_graph(tree, 8, false, GetParam());
  for (const double coupling : {0.7, 0.2}) {
    kernels::bp::Model m;
    m.coupling = coupling;
    m.iterations = 6;  // more than the diameter: messages have crossed the tree
    const auto exact = enumerate_marginals(tree, 8, m);
    numagraph::visit(
        [&](const auto& g) {
          const auto belief = kernels::belief_propagation(g, m);
          for (int v = 0; v < 8; ++v) EXPECT_NEAR(belief[v], exact[static_cast<std::size_t>(v)], 1e-12) << "vertex " << v;
          EXPECT_NEAR(belief[7], kernels::bp::belief(kernels::bp::prior_log_odds(m, 7)), 1e-15);
          EXPECT_TRUE(verify::belief_propagation(g, m, belief.data()).ok);
        },
        any);
  }
}

TEST_P(BpIds, LoopyGraphMatchesSerialScheduleAndCatchesCorruption) {
  const AnyGraph any = make_kron(10, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        kernels::bp::Model m;
        auto belief = kernels::belief_propagation(g, m);
        ASSERT_TRUE(verify::belief_propagation(g, m, belief.data()).ok);
        // Loopy BP over-counts around hubs' cycles, so a hub's belief may
        // round to exactly 0 or 1, but never leaves [0, 1].
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
          ASSERT_GE(belief[v], 0.0);
          ASSERT_LE(belief[v], 1.0);
        }
        // Another schedule length is another answer.
        m.iterations = 4;
        EXPECT_FALSE(verify::belief_propagation(g, m, belief.data()).ok);
        m.iterations = 5;
        belief[3] += 1e-7;
        EXPECT_FALSE(verify::belief_propagation(g, m, belief.data()).ok);
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BpIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Bp, PriorsDependOnTheSeedOnly) {
  kernels::bp::Model a, b;
  b.seed = a.seed + 1;
  EXPECT_EQ(kernels::bp::prior_log_odds(a, 5), kernels::bp::prior_log_odds(a, 5));
  EXPECT_NE(kernels::bp::prior_log_odds(a, 5), kernels::bp::prior_log_odds(b, 5));
  for (std::uint64_t v = 0; v < 1000; ++v) {
    const double p = kernels::bp::belief(kernels::bp::prior_log_odds(a, v));
    EXPECT_GE(p, 0.1 - 1e-12);
    EXPECT_LE(p, 0.9 + 1e-12);
  }
}

TEST(Bp, ExtremeCavityLogOddsStayFinite) {
  kernels::bp::Model m;
  for (const double c : {-1e6, -50.0, 0.0, 50.0, 1e6}) EXPECT_TRUE(std::isfinite(kernels::bp::message_log_odds(m, c)));
  // A message can never be more certain than the edge potential allows.
  EXPECT_NEAR(kernels::bp::message_log_odds(m, 1e6), std::log(0.7 / 0.3), 1e-12);
}

TEST(Bp, DirectedGraphIsRefused) {
  const AnyGraph any = make_graph({{0, 1}}, 2, true, false);
  numagraph::visit([](const auto& g) { EXPECT_THROW(kernels::belief_propagation(g, kernels::bp::Model{}), UsageError); },
                   any);
}

// ---- The engine variant (engine_per_arc.hpp) ----

// Exact marginals P(x_v = 1) of the BP model by enumerating all 2^n states.
std::vector<double> brute_force_marginals(const Graph32& g, const kernels::bp::Model& m) {
  const int n = static_cast<int>(g.num_vertices());
  std::vector<double> p1(static_cast<std::size_t>(n), 0);
  double z = 0;
  for (std::uint32_t s = 0; s < (1u << n); ++s) {
    double w = 1;
    for (int v = 0; v < n; ++v) {
      const double p = kernels::bp::belief(kernels::bp::prior_log_odds(m, static_cast<std::uint64_t>(v)));
      w *= (s >> v & 1) ? p : 1 - p;
      for (auto u : g.out_neighbors(static_cast<std::uint32_t>(v)))
        if (u > static_cast<std::uint32_t>(v)) w *= ((s >> v & 1) == (s >> u & 1)) ? m.coupling : 1 - m.coupling;
    }
    z += w;
    for (int v = 0; v < n; ++v)
      if (s >> v & 1) p1[static_cast<std::size_t>(v)] += w;
  }
  for (auto& x : p1) x /= z;
  return p1;
}

Graph32 from_pairs(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pairs) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(pairs.size());
  e.dst = NumaArray<std::uint64_t>(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) std::tie(e.src[i], e.dst[i]) = pairs[i];
  e.undirected = true;
  return std::get<Graph32>(build_graph(std::move(e), {}));
}

TEST(NumaEngine, BeliefPropagationIsExactOnTrees) {
  // A 9-vertex tree of diameter 4: BP converges to the exact marginals.
  Graph32 g = from_pairs({{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {5, 6}, {5, 7}, {2, 8}});
  kernels::bp::Model m;
  m.iterations = 10;
  const auto exact = brute_force_marginals(g, m);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
      engine::NoAccounting acc;
      auto r = kernels::belief_propagation_numa(pg, m, mode, acc);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_NEAR(r.belief[v], exact[v], 1e-12);
    }
  }
}

TEST(NumaEngine, BeliefPropagationSameOnEveryTopologyAndLocal) {
  Graph32 g = kron(10, false);
  kernels::bp::Model m;
  auto reference_pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 1, 1));
  engine::NoAccounting none;
  auto reference = kernels::belief_propagation_numa(reference_pg, m, EngineMode::kShared, none);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    engine::Accounting acc(pg.layout());
    auto r = kernels::belief_propagation_numa(pg, m, EngineMode::kNuma, acc);
    EXPECT_EQ(acc.total().remote_random, 0);
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(r.belief[v], reference.belief[v]);
  }
}

}  // namespace
