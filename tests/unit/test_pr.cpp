// PageRank (Gauss-Seidel and Jacobi pull kernels) and its verifier: hand-solved
// fixed points, dangling-vertex handling in both modes against a dense serial
// power iteration, Kronecker graphs with 32- and 64-bit ids, stopping rules,
// and corrupted scores that the verifier must reject.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/verify/pr.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// NetworkX's iteration written densely: x' = d (x W + dangling/n) + (1-d)/n,
// where the dangling term is dropped in gapbs mode.
template <typename G>
std::vector<double> dense_pagerank(const G& g, bool spread_dangling, int iterations) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> x(n, 1.0 / static_cast<double>(n));
  for (int it = 0; it < iterations; ++it) {
    double dangling = 0;
    std::vector<double> next(n, 0.0);
    for (std::size_t u = 0; u < n; ++u) {
      const auto nb = g.out_neighbors(static_cast<typename G::vertex_type>(u));
      if (nb.empty()) dangling += x[u];
      for (const auto v : nb) next[v] += 0.85 * x[u] / static_cast<double>(nb.size());
    }
    for (auto& s : next) s += 0.15 / static_cast<double>(n) + (spread_dangling ? 0.85 * dangling / static_cast<double>(n) : 0.0);
    x.swap(next);
  }
  return x;
}

// Both pull variants' results (moved: results own NumaArrays).
template <typename G>
std::vector<kernels::PageRankResult> both_variants(const G& g, const kernels::PageRankOptions& o) {
  std::vector<kernels::PageRankResult> r;
  r.push_back(kernels::pagerank_pull_jacobi(g, o));
  r.push_back(kernels::pagerank_pull_gauss_seidel(g, o));
  return r;
}

kernels::PageRankOptions tight() {
  kernels::PageRankOptions o;
  o.tolerance = 1e-13;
  o.max_iterations = 2000;
  return o;
}

class PrIds : public ::testing::TestWithParam<bool> {};

TEST_P(PrIds, DirectedCycleIsUniformAtOnce) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 0}}, 3, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        for (const auto& r : both_variants(g, {})) {
          EXPECT_EQ(r.iterations, 1);
          for (int v = 0; v < 3; ++v) EXPECT_NEAR(r.scores[v], 1.0 / 3, 1e-7);
          EXPECT_TRUE(verify::pagerank(g, {}, r.scores.data(), r.last_change).ok);
        }
      },
      any);
}

TEST_P(PrIds, UndirectedStarMatchesClosedForm) {
  // Centre 0, leaves 1..3. Fixed point: c = 0.15/4 + 0.85 * 3 l, l = 0.15/4 + 0.85 c / 3.
  const AnyGraph any = make_graph({{0, 1}, {0, 2}, {0, 3}}, 4, false, GetParam());
  const double c = (0.0375 + 2.55 * 0.0375) / (1 - 2.55 * 0.85 / 3);
  const double l = (1 - c) / 3;
  numagraph::visit(
      [&](const auto& g) {
        for (const auto& r : both_variants(g, tight())) {
          EXPECT_NEAR(r.scores[0], c, 1e-11);
          for (int v = 1; v < 4; ++v) EXPECT_NEAR(r.scores[v], l, 1e-11);
          EXPECT_LT(r.last_change, 1e-13);
        }
      },
      any);
}

TEST_P(PrIds, DanglingMassDroppedOrSpreadLikeNetworkx) {
  // 0 -> 1 -> 2, 3 -> 2; 2 and the isolated 4 are dangling.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {3, 2}}, 5, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        auto o = tight();
        const auto dropped = kernels::pagerank_pull_jacobi(g, o);
        const auto expect_dropped = dense_pagerank(g, false, dropped.iterations);
        double sum = 0;
        for (int v = 0; v < 5; ++v) {
          EXPECT_NEAR(dropped.scores[v], expect_dropped[v], 1e-12);
          sum += dropped.scores[v];
        }
        EXPECT_LT(sum, 0.99);  // gapbs's rule leaks the dangling mass
        o.networkx = true;
        const auto spread = kernels::pagerank_pull_jacobi(g, o);
        const auto expect_spread = dense_pagerank(g, true, spread.iterations);
        sum = 0;
        for (int v = 0; v < 5; ++v) {
          EXPECT_NEAR(spread.scores[v], expect_spread[v], 1e-12);
          sum += spread.scores[v];
        }
        EXPECT_NEAR(sum, 1.0, 1e-12);
        EXPECT_TRUE(verify::pagerank(g, o, spread.scores.data(), spread.last_change).ok);
        // The verifier checks the fixed point of the mode it is given.
        EXPECT_FALSE(verify::pagerank(g, o, dropped.scores.data(), dropped.last_change).ok);
      },
      any);
}

TEST_P(PrIds, KroneckerVariantsAgreeAndVerify) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam());
    numagraph::visit(
        [&](const auto& g) {
          kernels::PageRankOptions o;
          o.tolerance = 1e-7;
          o.max_iterations = 200;
          const auto jacobi = kernels::pagerank_pull_jacobi(g, o);
          const auto gs = kernels::pagerank_pull_gauss_seidel(g, o);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v) EXPECT_NEAR(jacobi.scores[v], gs.scores[v], 1e-6);
          EXPECT_TRUE(verify::pagerank(g, o, jacobi.scores.data(), jacobi.last_change).ok);
          EXPECT_TRUE(verify::pagerank(g, o, gs.scores.data(), gs.last_change).ok);
        },
        any);
  }
}

// The prefetching sweeps (chosen when the contributions outgrow the L2,
// gather_sum.hpp) add the same terms in the same order as the plain ones:
// the same bits, on a graph small enough that the prefetch distance runs
// past the last arc (the clamp) in every sweep.
TEST_P(PrIds, PrefetchingSweepsGiveTheSameBits) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam());
    numagraph::visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          kernels::PageRankOptions o;
          o.tolerance = 0;
          o.max_iterations = 7;
          const auto gs_plain = kernels::pagerank_pull_gauss_seidel_with<V, float, false>(g, o);
          const auto gs_ahead = kernels::pagerank_pull_gauss_seidel_with<V, float, true>(g, o);
          kernels::PageRankResult jacobi_plain, jacobi_ahead;
          jacobi_plain.scores = NumaArray<double>(static_cast<std::size_t>(g.num_vertices()));
          jacobi_ahead.scores = NumaArray<double>(static_cast<std::size_t>(g.num_vertices()));
          kernels::pagerank_jacobi_iterations<false, false, V, float>(g, o, nullptr, jacobi_plain);
          kernels::pagerank_jacobi_iterations<false, true, V, float>(g, o, nullptr, jacobi_ahead);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
            ASSERT_EQ(gs_plain.scores[v], gs_ahead.scores[v]) << v;
            ASSERT_EQ(jacobi_plain.scores[v], jacobi_ahead.scores[v]) << v;
          }
          EXPECT_EQ(gs_plain.last_change, gs_ahead.last_change);
          EXPECT_EQ(jacobi_plain.last_change, jacobi_ahead.last_change);
        },
        any);
  }
}

INSTANTIATE_TEST_SUITE_P(IdWidths, PrIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Pr, ZeroToleranceRunsEveryIteration) {
  const AnyGraph any = make_kron(8, false, false);
  numagraph::visit(
      [](const auto& g) {
        kernels::PageRankOptions o;
        o.tolerance = 0;
        o.max_iterations = 5;  // Polymer-style fixed count
        EXPECT_EQ(kernels::pagerank_pull_jacobi(g, o).iterations, 5);
        EXPECT_EQ(kernels::pagerank_pull_gauss_seidel(g, o).iterations, 5);
        // Stopped early, so the fixed point is only as close as the last change says.
        const auto r = kernels::pagerank_pull_jacobi(g, o);
        EXPECT_TRUE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
        EXPECT_FALSE(verify::pagerank(g, o, r.scores.data(), r.last_change / 1000).ok);
      },
      any);
}

TEST(Pr, NetworkxModeNeedsJacobi) {
  const AnyGraph any = make_graph({{0, 1}}, 2, true, false);
  kernels::PageRankOptions o;
  o.networkx = true;
  numagraph::visit([&](const auto& g) { EXPECT_THROW(kernels::pagerank_pull_gauss_seidel(g, o), UsageError); }, any);
}

TEST(Pr, VerifierRejectsCorruptedScores) {
  const AnyGraph any = make_kron(9, true, false);
  numagraph::visit(
      [](const auto& g) {
        auto o = tight();
        auto r = kernels::pagerank_pull_jacobi(g, o);
        ASSERT_TRUE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
        const double kept = r.scores[7];
        r.scores[7] = kept * 1.01;
        EXPECT_FALSE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
        r.scores[7] = -kept;
        EXPECT_FALSE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
        r.scores[7] = std::nan("");
        EXPECT_FALSE(verify::pagerank(g, o, r.scores.data(), r.last_change).ok);
      },
      any);
}

}  // namespace
