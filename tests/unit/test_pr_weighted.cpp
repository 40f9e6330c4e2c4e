// PageRank in NetworkX's weighted and personalized model (kernels/pr/model.hpp):
// the flat kernel (pull_jacobi_weighted.hpp), unblocked and tiled, and the
// engine's (engine_jacobi_weighted.hpp) on every synthetic topology, blocked
// or not, against a dense serial iteration of the model; the verifier accepts
// the model's fixed point and rejects the unweighted one; the entry point's
// refusals (negative weights, Gauss-Seidel, a distribution that is not one).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/verify/pr.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;

namespace {

// The model written densely from the out-lists: x' = (1-d) p + d (x P + D q),
// P[u][v] = w(u,v) / W(u); D (the dangling mass) dropped unless `networkx`.
std::vector<double> dense_model(const Graph32& g, const kernels::PageRankOptions& o, int iterations) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  auto normalized = [n](const std::vector<double>& a) {
    std::vector<double> out(n, 1.0 / static_cast<double>(n));
    double sum = 0;
    for (double x : a) sum += x;
    for (std::size_t v = 0; v < n && !a.empty(); ++v) out[v] = a[v] / sum;
    return out;
  };
  const auto p = normalized(o.personalization);
  const auto q = o.dangling.empty() ? p : normalized(o.dangling);
  const bool weighted = o.use_weights && g.weighted();
  std::vector<double> x(n, 1.0 / static_cast<double>(n));
  for (int it = 0; it < iterations; ++it) {
    std::vector<double> next(n, 0.0);
    double dangling = 0;
    for (std::size_t u = 0; u < n; ++u) {
      const auto nb = g.out_neighbors(static_cast<std::uint32_t>(u));
      double out = 0;
      for (std::size_t j = 0; j < nb.size(); ++j) out += weighted ? g.out_weights(static_cast<std::uint32_t>(u))[j] : 1.0;
      if (!(out > 0)) {
        dangling += x[u];
        continue;
      }
      for (std::size_t j = 0; j < nb.size(); ++j)
        next[nb[j]] += o.damping * x[u] * (weighted ? g.out_weights(static_cast<std::uint32_t>(u))[j] : 1.0) / out;
    }
    for (std::size_t v = 0; v < n; ++v)
      next[v] += (1 - o.damping) * p[v] + (o.networkx ? o.damping * dangling * q[v] : 0.0);
    x.swap(next);
  }
  return x;
}

// A personalization on every third vertex, values 1..4.
std::vector<double> some_personalization(std::int64_t n) {
  std::vector<double> p(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t v = 0; v < n; v += 3) p[static_cast<std::size_t>(v)] = 1.0 + static_cast<double>(v % 4);
  return p;
}

kernels::PageRankOptions fixed(int iterations, bool networkx) {
  kernels::PageRankOptions o;
  o.max_iterations = iterations;
  o.tolerance = 1e-13;  // below 1e-6: double contributions, as the dense sums; 8 iterations stay above it
  o.networkx = networkx;
  return o;
}

void expect_near_all(const NumaArray<double>& got, const std::vector<double>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v) ASSERT_NEAR(got[v], want[v], tol) << what << ", vertex " << v;
}

TEST(WeightedPr, FlatKernelFollowsTheDenseModel) {
  for (bool directed : {true, false}) {
    const Graph32 g = kron(9, directed, true);
    ASSERT_TRUE(g.weighted());
    for (bool networkx : {true, false})
      for (bool personalized : {false, true})
        for (bool weights : {true, false}) {
          auto o = fixed(8, networkx);
          o.use_weights = weights;
          if (personalized) o.personalization = some_personalization(g.num_vertices());
          if (!weights && !personalized) continue;  // the unweighted kernel's case (test_pr.cpp)
          const auto want = dense_model(g, o, 8);
          const std::string what = std::string(directed ? "directed" : "undirected") + (networkx ? " networkx" : "") +
                                   (personalized ? " personalized" : "") + (weights ? " weighted" : "");
          const auto r = numagraph::pagerank(g, o, Execution{.engine = EngineChoice::kFlat});
          EXPECT_EQ(r.variant, kernels::PageRankVariant::kJacobi);
          EXPECT_EQ(r.iterations, 8);
          expect_near_all(r.scores, want, 1e-15, what);
          o.cache_block_bytes = 64 * sizeof(double);  // tiled: the same sums in another order
          const auto tiled = numagraph::pagerank(g, o, Execution{.engine = EngineChoice::kFlat});
          EXPECT_GT(tiled.cache_segments, 1);
          expect_near_all(tiled.scores, want, 1e-15, what + " tiled");
        }
  }
}

TEST(WeightedPr, DanglingDistributionAndZeroWeights) {
  // 0 -> 1 (weight 0) makes 0 dangling; 2 has no out-edges; q sends their mass to 3.
  const std::vector<test_graphs::Arc> arcs = {{0, 1, 0}, {1, 2, 2}, {1, 3, 1}, {3, 0, 5}, {3, 1, 1}};
  const Graph32 g = std::get<Graph32>(test_graphs::make_graph(arcs, 4, true, false, WeightKind::kInteger));
  auto o = fixed(30, true);
  o.dangling = {0, 0, 0, 1};
  const auto r = numagraph::pagerank(g, o, Execution{.engine = EngineChoice::kFlat});
  expect_near_all(r.scores, dense_model(g, o, 30), 1e-15, "dangling");
}

TEST(WeightedPr, EngineMatchesTheFlatKernelOnEveryTopology) {
  const Graph32 g = kron(10, true, true);
  auto o = fixed(6, true);
  o.personalization = some_personalization(g.num_vertices());
  for (std::int64_t block : {kAutoBlock, std::int64_t{64 * sizeof(double)}}) {
    o.cache_block_bytes = block;
    const auto flat = numagraph::pagerank(g, o, Execution{.engine = EngineChoice::kFlat});
    const auto model = kernels::make_pagerank_model(g, o, g.permutation());
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::Accounting acc(pg.layout());
        const auto r = kernels::pagerank_numa_weighted(pg, o, model, mode, acc);
        EXPECT_EQ(r.iterations, 6);
        if (block != kAutoBlock) EXPECT_GT(r.cache_segments, 1);
        if (mode == EngineMode::kNuma) EXPECT_EQ(acc.total().remote_random, 0);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_NEAR(r.scores[v], flat.scores[v], 1e-12 * flat.scores[v] + 1e-300) << nodes << " nodes, vertex " << v;
      }
    }
  }
}

TEST(WeightedPr, VerifierChecksTheWeightedModel) {
  const Graph32 g = kron(9, true, true);
  kernels::PageRankOptions o;
  o.networkx = true;
  o.tolerance = 1e-12;
  o.max_iterations = 500;
  o.personalization = some_personalization(g.num_vertices());
  const auto r = numagraph::pagerank(g, o, Execution{.engine = EngineChoice::kFlat});
  EXPECT_TRUE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
  auto unweighted = o;
  unweighted.use_weights = false;
  EXPECT_FALSE(verify::pagerank(g, unweighted, r.scores.data(), r.last_change).ok);
  auto uniform = o;
  uniform.personalization.clear();
  EXPECT_FALSE(verify::pagerank(g, uniform, r.scores.data(), r.last_change).ok);
}

TEST(WeightedPr, EntryPointRefusals) {
  const std::vector<test_graphs::Arc> arcs = {{0, 1, 2}, {1, 2, -1}, {2, 0, 1}};
  const Graph32 neg = std::get<Graph32>(test_graphs::make_graph(arcs, 3, true, false, WeightKind::kInteger));
  kernels::PageRankOptions o;
  try {
    numagraph::pagerank(neg, o);
    FAIL() << "a negative weight was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("the edge 1 -> 2 has weight -1"), std::string::npos) << e.what();
  }
  o.use_weights = false;
  EXPECT_NO_THROW(numagraph::pagerank(neg, o));
  const Graph32 g = kron(8, true, true);
  kernels::PageRankOptions gs;
  gs.variant = kernels::PageRankVariant::kGaussSeidel;
  EXPECT_THROW(numagraph::pagerank(g, gs), UsageError);
  gs.use_weights = false;
  EXPECT_NO_THROW(numagraph::pagerank(g, gs));  // the unweighted model: Gauss-Seidel runs
  kernels::PageRankOptions bad;
  bad.personalization = {1.0, 2.0};
  EXPECT_THROW(numagraph::pagerank(g, bad), UsageError);  // one value per vertex
  bad.personalization.assign(static_cast<std::size_t>(g.num_vertices()), 0.0);
  EXPECT_THROW(numagraph::pagerank(g, bad), UsageError);  // all zeros
  kernels::PageRankOptions dangling;
  dangling.dangling.assign(static_cast<std::size_t>(g.num_vertices()), 1.0);
  EXPECT_THROW(numagraph::pagerank(g, dangling), UsageError);  // needs networkx
}

}  // namespace
