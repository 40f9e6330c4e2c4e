// Brandes betweenness with lock-free path counting, its serial verifier and
// the NetworkX scaling: hand-drawn graphs with known scores (32- and 64-bit
// ids), Kronecker graphs against serial Brandes, caught corruptions.
// The engine variant (engine_work_queues.hpp): serial Brandes on every
// synthetic topology, and no remote random access in numa mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/brandes_work_queues.hpp"
#include "numagraph/kernels/bc/engine_work_queues.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/verify/bc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

template <typename V>
std::vector<V> all_vertices(std::int64_t n) {
  std::vector<V> s;
  for (std::int64_t v = 0; v < n; ++v) s.push_back(static_cast<V>(v));
  return s;
}

class BcIds : public ::testing::TestWithParam<bool> {};

TEST_P(BcIds, PathStarAndIsolatedVertex) {
  // Path 0-1-2-3-4, star 5 - {6, 7, 8}, isolated 9.
  const AnyGraph any =
      make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 6}, {5, 7}, {5, 8}}, 10, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto sources = all_vertices<V>(g.num_vertices());
        auto raw = kernels::betweenness_brandes(g, sources);
        // Ordered pairs through v: on the path 2 i (4 - i); the star centre 3 * 2.
        const std::vector<double> expected = {0, 6, 8, 6, 0, 6, 0, 0, 0, 0};
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "vertex " << v;
        EXPECT_TRUE(verify::betweenness(g, sources, raw.data()).ok);
        // NetworkX normalized=False halves undirected scores; normalized=True
        // divides the ordered-pair sums by (n-1)(n-2) = 72.
        auto plain = kernels::betweenness_brandes(g, sources);
        kernels::scale_like_networkx(g, plain, sources, true, false);
        EXPECT_DOUBLE_EQ(plain[2], 4.0);
        kernels::scale_like_networkx(g, raw, sources, true, true);
        EXPECT_DOUBLE_EQ(raw[2], 8.0 / 72);
      },
      any);
}

TEST_P(BcIds, DirectedDiamondSplitsPaths) {
  // 0 -> {1, 2} -> 3 -> 4: two shortest paths 0 ~> 3 share the credit.
  const AnyGraph any = make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}}, 5, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto sources = all_vertices<V>(g.num_vertices());
        const auto raw = kernels::betweenness_brandes(g, sources);
        // 1 and 2: half of (0,3) and (0,4) each; 3: (0,4), (1,4), (2,4).
        const std::vector<double> expected = {0, 1, 1, 3, 0};
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "vertex " << v;
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BcIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Ids64" : "Ids32"; });

TEST(Bc, KroneckerMatchesSerialBrandes) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, false);
    const auto& g = std::get<Graph32>(any);
    const auto sources = kernels::pick_roots(g, 6, 11);
    const auto raw = kernels::betweenness_brandes(g, sources);
    const auto ok = verify::betweenness(g, sources, raw.data());
    EXPECT_TRUE(ok.ok) << ok.message;
    // Running sources one at a time and summing gives the same sums.
    std::vector<double> sum(static_cast<std::size_t>(g.num_vertices()), 0);
    for (const auto s : sources) {
      const auto one = kernels::betweenness_brandes(g, std::vector<std::uint32_t>{s});
      for (std::size_t v = 0; v < sum.size(); ++v) sum[v] += one[v];
    }
    for (std::size_t v = 0; v < sum.size(); ++v) ASSERT_NEAR(sum[v], raw[v], 1e-9 * std::max(1.0, raw[v]));
  }
}

// The push-only search counts paths three ways: an undirected graph's
// vertices sum their own counts in the pass that claims their neighbours, a
// directed graph's over its in-edges, and a directed graph without in-edges
// pushes them with atomic adds. Each against the serial verifier.
TEST(Bc, PathCountsFromInEdgesOrPushedMatchSerialBrandes) {
  for (const bool directed : {false, true})
    for (const bool in_edges : {true, false}) {
      if (!directed && !in_edges) continue;
      const AnyGraph any = make_kron(10, directed, false, false, in_edges);
      const auto& g = std::get<Graph32>(any);
      if (directed) {
        ASSERT_EQ(g.has_in_edges(), in_edges);
      }
      const auto sources = kernels::pick_roots(g, 6, 13);
      const auto raw = kernels::betweenness_brandes(g, sources);
      const auto ok = verify::betweenness(g, sources, raw.data());
      EXPECT_TRUE(ok.ok) << (directed ? "directed" : "undirected") << (in_edges ? "" : " without in-edges") << ": "
                         << ok.message;
    }
}

// The CLI reuses one workspace and one score array across trials: a second
// and third call, also on another graph size and after a different source
// set, must give the same sums as fresh calls.
TEST(Bc, ReusedWorkspaceGivesFreshResults) {
  const AnyGraph big_any = make_kron(10, false, false);
  const AnyGraph small_any = make_kron(8, true, false);
  const auto& big = std::get<Graph32>(big_any);
  const auto& small = std::get<Graph32>(small_any);
  kernels::BrandesWorkspace<std::uint32_t> ws;
  NumaArray<double> scores;
  for (int round = 0; round < 2; ++round)
    for (const auto* g : {&big, &small, &big}) {
      const auto sources = kernels::pick_roots(*g, 3, 5 + round);
      kernels::betweenness_brandes(*g, sources, scores, ws);
      const auto fresh = kernels::betweenness_brandes(*g, sources);
      ASSERT_EQ(scores.size(), fresh.size());
      for (std::size_t v = 0; v < fresh.size(); ++v)
        ASSERT_NEAR(scores[v], fresh[v], 1e-9 * std::max(1.0, fresh[v])) << "vertex " << v;
    }
}

// The push-only search and the work queues share one workspace (the entry
// point keeps one per call site): each leaves it as the other expects.
TEST(Bc, PushOnlyAndWorkQueuesShareAWorkspace) {
  const AnyGraph any = make_kron(10, false, false);
  const auto& g = std::get<Graph32>(any);
  kernels::BrandesWorkspace<std::uint32_t> ws;
  NumaArray<double> scores;
  for (int round = 0; round < 3; ++round) {
    const auto sources = kernels::pick_roots(g, 3, 21 + round);
    const auto fresh = kernels::betweenness_brandes(g, sources);
    kernels::betweenness_brandes(g, sources, scores, ws);
    for (std::size_t v = 0; v < fresh.size(); ++v)
      ASSERT_NEAR(scores[v], fresh[v], 1e-9 * std::max(1.0, fresh[v])) << "push-only, vertex " << v;
    kernels::betweenness_brandes_work_queues(g, sources, scores, ws);
    for (std::size_t v = 0; v < fresh.size(); ++v)
      ASSERT_NEAR(scores[v], fresh[v], 1e-9 * std::max(1.0, fresh[v])) << "work queues, vertex " << v;
  }
}

TEST(Bc, SampledScalingFollowsNetworkX) {
  // NetworkX 3.x, endpoints=False, k sources of n: sources scale by
  // N/((k-1) c), others by N/(k c) with N = n-1 and c = 2 when undirected;
  // normalized: 1/((k-1)(N-1)) and 1/(k(N-1)).
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 5, false, false);
  const auto& g = std::get<Graph32>(any);
  const std::vector<std::uint32_t> sources = {0, 2};
  auto raw = kernels::betweenness_brandes(g, sources);
  const std::vector<double> before(raw.begin(), raw.end());
  kernels::scale_like_networkx(g, raw, sources, false, false);
  EXPECT_DOUBLE_EQ(raw[2], before[2] * 4.0 / (1 * 2));
  EXPECT_DOUBLE_EQ(raw[1], before[1] * 4.0 / (2 * 2));
  auto norm = kernels::betweenness_brandes(g, sources);
  kernels::scale_like_networkx(g, norm, sources, false, true);
  EXPECT_DOUBLE_EQ(norm[2], before[2] / (1 * 3));
  EXPECT_DOUBLE_EQ(norm[3], before[3] / (2 * 3));
}

TEST(BcVerifier, CatchesCorruptedScores) {
  const AnyGraph any = make_kron(9, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto sources = kernels::pick_roots(g, 3, 2);
  const auto raw = kernels::betweenness_brandes(g, sources);
  std::vector<double> bad(raw.begin(), raw.end());
  std::size_t top = 0;
  for (std::size_t v = 0; v < bad.size(); ++v)
    if (bad[v] > bad[top]) top = v;
  bad[top] *= 1 + 1e-6;
  const auto r = verify::betweenness(g, sources, bad.data());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("serial Brandes"), std::string::npos) << r.message;
  // A different set of sources is a different answer.
  EXPECT_FALSE(verify::betweenness(g, kernels::pick_roots(g, 3, 3), raw.data()).ok);
}

// ---- The engine variant (engine_work_queues.hpp) ----

// Serial Brandes: raw sums over the sources (each ordered pair once).
std::vector<double> serial_brandes(const Graph32& g, const std::vector<std::uint32_t>& sources) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> bc(n, 0);
  for (auto s : sources) {
    std::vector<int> d(n, -1);
    std::vector<double> sigma(n, 0), delta(n, 0);
    std::vector<std::uint32_t> order;
    std::queue<std::uint32_t> q;
    d[s] = 0;
    sigma[s] = 1;
    q.push(s);
    while (!q.empty()) {
      auto u = q.front();
      q.pop();
      order.push_back(u);
      for (auto v : g.out_neighbors(u)) {
        if (d[v] < 0) {
          d[v] = d[u] + 1;
          q.push(v);
        }
        if (d[v] == d[u] + 1) sigma[v] += sigma[u];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      auto w = *it;
      for (auto v : g.out_neighbors(w))
        if (d[v] == d[w] + 1) delta[w] += sigma[w] / sigma[v] * (1 + delta[v]);
      if (w != s) bc[w] += delta[w];
    }
  }
  return bc;
}

TEST(NumaEngine, BetweennessMatchesSerialBrandesOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(9, directed);
    std::vector<std::uint32_t> sources;
    for (std::uint32_t v = 0; sources.size() < 4; ++v)
      if (g.out_degree(v) > 0) sources.push_back(v);
    const auto expected = serial_brandes(g, sources);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::NoAccounting acc;
        auto r = kernels::betweenness_numa(pg, sources, {}, {}, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, expected[v]))
              << "v=" << v << " nodes=" << nodes << " directed=" << directed;
      }
    }
  }
}

TEST(NumaEngine, BetweennessNumaHasNoRemoteRandomAccess) {
  Graph32 g = kron(10, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  // One source on the first node, one on the last (not thread 0's node).
  std::vector<std::uint32_t> sources{1};
  for (auto v = static_cast<std::uint32_t>(g.num_vertices() - 1); sources.size() < 2; --v)
    if (g.out_degree(v) > 0) sources.push_back(v);
  ASSERT_EQ(pg.layout().node_of_vertex(sources[1]), 7);
  kernels::StealPolicy steal;
  steal.across_nodes = false;  // 8 threads time-sliced on this machine's cores
  kernels::betweenness_numa(pg, sources, {}, steal, EngineMode::kNuma, numa_acc);
  kernels::betweenness_numa(pg, sources, {}, steal, EngineMode::kShared, flat_acc);
  // Every random access of the numa kernel is local: discoveries and path
  // counts in the forward, successor coefficients in the backward, and the
  // sources are finished by their own node.
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, 0);
}

}  // namespace
