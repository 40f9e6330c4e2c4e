// PageRank (Gauss-Seidel and Jacobi pull kernels) and its verifier: hand-solved
// fixed points, dangling-vertex handling in both modes against a dense serial
// power iteration, Kronecker graphs with 32- and 64-bit ids, stopping rules,
// and corrupted scores that the verifier must reject.
// The engine variant (engine_jacobi.hpp): a serial iteration and the flat
// blocked kernel on every synthetic topology, no remote random access in
// numa mode. Cache blocking (the sweep layer's copies): blocked Jacobi gives
// the unblocked scores to rounding, block Gauss-Seidel the fixed point, and
// Gauss-Seidel blocks automatically only for a fixed number of sweeps.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/pr/engine_jacobi.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/verify/pr.hpp"
#include "sweep_test_util.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::sweep_test::expect_close;
using numagraph::sweep_test::kMiB;
using numagraph::sweep_test::request;
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
// past the last arc (the clamp) in every sweep. On one thread: a parallel
// Gauss-Seidel sweep reads what the other threads have written so far.
TEST_P(PrIds, PrefetchingSweepsGiveTheSameBits) {
  const kernels::ThreadLimit one_thread(1);
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

// The short-list sweeps (gather_sum.hpp; taken on graphs of mostly short
// lists, as a grid's). Jacobi's gives the loop's scores to rounding: only a
// list of 4 arcs, summed in pairs, may differ in its last bit (double
// contributions, so that no float rounding makes that bit larger).
// Gauss-Seidel's sweeps the halves of each chunk side by side, a different
// order of updates, so it is run to the fixed point and compared there. On
// one thread, as above.
TEST_P(PrIds, ShortListSweepsGiveTheLoopsScores) {
  const kernels::ThreadLimit one_thread(1);
  constexpr std::uint64_t kSide = 60;
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t r = 0; r < kSide; ++r)
    for (std::uint64_t c = 0; c < kSide; ++c) {
      if (c + 1 < kSide) arcs.push_back({r * kSide + c, r * kSide + c + 1});
      if (r + 1 < kSide) arcs.push_back({r * kSide + c, (r + 1) * kSide + c});
      if (r + 1 < kSide && c % 3 == 0) arcs.push_back({(r + 1) * kSide + c, r * kSide + c + 2});  // some longer lists
    }
  for (const bool grid : {true, false}) {
    const AnyGraph any = grid ? make_graph(arcs, kSide * kSide, false, GetParam()) : make_kron(10, true, GetParam());
    numagraph::visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          kernels::PageRankOptions o;
          o.tolerance = 0;
          o.max_iterations = 9;
          kernels::PageRankResult jacobi_loop, jacobi_short;
          jacobi_loop.scores = NumaArray<double>(static_cast<std::size_t>(g.num_vertices()));
          jacobi_short.scores = NumaArray<double>(static_cast<std::size_t>(g.num_vertices()));
          kernels::pagerank_jacobi_iterations<false, false, V, double>(g, o, nullptr, jacobi_loop);
          kernels::pagerank_jacobi_iterations<false, false, V, double, true>(g, o, nullptr, jacobi_short);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_NEAR(jacobi_loop.scores[v], jacobi_short.scores[v], 1e-13 * jacobi_loop.scores[v]) << v;
          EXPECT_NEAR(jacobi_loop.last_change, jacobi_short.last_change, 1e-9 * jacobi_loop.last_change);
          EXPECT_TRUE(verify::pagerank(g, o, jacobi_short.scores.data(), jacobi_short.last_change).ok);
          const auto gs_partial = kernels::pagerank_pull_gauss_seidel_with<V, double, false, true>(g, o);
          EXPECT_TRUE(verify::pagerank(g, o, gs_partial.scores.data(), gs_partial.last_change).ok);
          o.tolerance = 1e-13;
          o.max_iterations = 2000;
          const auto gs_loop = kernels::pagerank_pull_gauss_seidel_with<V, double, false>(g, o);
          const auto gs_short = kernels::pagerank_pull_gauss_seidel_with<V, double, false, true>(g, o);
          ASSERT_LT(gs_short.iterations, o.max_iterations);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_NEAR(gs_loop.scores[v], gs_short.scores[v], 1e-9 * gs_loop.scores[v]) << v;
          EXPECT_TRUE(verify::pagerank(g, o, gs_short.scores.data(), gs_short.last_change).ok);
        },
        any);
  }
}

// Chunks of any size, swept on one thread, are the vertices in order: the
// same additions as one chunk, so the same scores, bit for bit; the L1
// change is totalled chunk by chunk, so only its rounding may differ. (On
// several threads the sweep reads what other threads have written, which
// TSan would report.)
TEST_P(PrIds, GaussSeidelChunksOfAnySizeSweepInOrderOnOneThread) {
  const kernels::ThreadLimit one_thread(1);
  const AnyGraph any = make_kron(10, true, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        kernels::PageRankOptions o;
        o.tolerance = 0;
        o.max_iterations = 6;
        const auto whole = kernels::pagerank_pull_gauss_seidel_with<V, float, false>(g, o, g.num_vertices());
        for (const std::int64_t chunk : {1, 64, 100, 256, 1000, 1023}) {
          const auto cut = kernels::pagerank_pull_gauss_seidel_with<V, float, false>(g, o, chunk);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(whole.scores[v], cut.scores[v]) << chunk << " " << v;
          EXPECT_NEAR(whole.last_change, cut.last_change, 1e-12 * whole.last_change) << chunk;
        }
      },
      any);
}

TEST(Pr, GaussSeidelChunksGiveEveryThreadWork) {
  using kernels::gauss_seidel_chunk_vertices;
  constexpr std::int64_t kAnyArcs = std::int64_t{1} << 30;  // arcs count only at 16384 vertices or fewer
  // Graphs of at most 16384 vertices and 2^18 arcs stay one chunk on any number of threads.
  for (const int t : {1, 2, 16, 64})
    for (const bool skewed : {false, true}) {
      EXPECT_EQ(gauss_seidel_chunk_vertices(0, 0, t, skewed), 16384);
      EXPECT_EQ(gauss_seidel_chunk_vertices(16384, 1 << 18, t, skewed), 16384);
    }
  // More arcs on as few vertices: split as any graph (kron14: 8 chunks on 2 threads).
  EXPECT_EQ(gauss_seidel_chunk_vertices(16384, 426218, 2, true), 2048);
  EXPECT_EQ(gauss_seidel_chunk_vertices(16384, 426218, 1, false), 16384);
  // Sparse graphs: the nearest whole number of 16384-vertex chunks a thread.
  EXPECT_EQ(gauss_seidel_chunk_vertices(264346, kAnyArcs, 16, false), 16576);  // road-NY: 16 chunks, not 17
  EXPECT_EQ(gauss_seidel_chunk_vertices(264346, kAnyArcs, 2, false), 16576);
  EXPECT_EQ(gauss_seidel_chunk_vertices(40000, kAnyArcs, 2, false), 20032);
  EXPECT_EQ(gauss_seidel_chunk_vertices(16385, kAnyArcs, 4, false), 4160);
  // Skewed graphs: at least four chunks a thread.
  EXPECT_EQ(gauss_seidel_chunk_vertices(82168, kAnyArcs, 16, true), 1344);  // soc-Slashdot0902: 62 chunks
  EXPECT_EQ(gauss_seidel_chunk_vertices(82168, kAnyArcs, 8, true), 2624);
  EXPECT_EQ(gauss_seidel_chunk_vertices(82168, kAnyArcs, 2, true), 10304);
  EXPECT_EQ(gauss_seidel_chunk_vertices(36692, kAnyArcs, 2, true), 4608);  // email-Enron: 8 chunks, not 3
  EXPECT_EQ(gauss_seidel_chunk_vertices(36692, kAnyArcs, 16, true), 576);
  EXPECT_EQ(gauss_seidel_chunk_vertices(1 << 20, kAnyArcs, 2, true), 16384);  // kron20 as before
  EXPECT_EQ(gauss_seidel_chunk_vertices(1 << 20, kAnyArcs, 16, true), 16384);
  EXPECT_EQ(gauss_seidel_chunk_vertices(20000, kAnyArcs, 64, true), 256);  // the floor
  // Whole lines, at least 256 vertices, and no thread's share of the chunks above
  // n / t plus a line a chunk (it takes at most its equal number of them).
  for (std::int64_t n = 16385; n < 5'000'000; n = n * 3 / 2 + 7)
    for (int t = 1; t <= 128; t *= 2)
      for (const bool skewed : {false, true}) {
        const std::int64_t size = gauss_seidel_chunk_vertices(n, kAnyArcs, t, skewed);
        const std::int64_t chunks = (n + size - 1) / size, most = (chunks + t - 1) / t;
        EXPECT_EQ(size % 64, 0) << n << " " << t;
        EXPECT_GE(size, 256) << n << " " << t;
        if (size > 256) {
          EXPECT_LE(most * size, n / t + 64 * most) << n << " " << t << " " << skewed;
        }
        if (skewed && size > 256) {
          EXPECT_GE(chunks, 3 * t) << n << " " << t;
        }
      }
}

TEST_P(PrIds, BlockedPageRankMatchesUnblockedAndVerifies) {
  std::vector<AnyGraph> graphs;
  graphs.push_back(make_kron(10, false, GetParam()));
  graphs.push_back(make_kron(10, true, GetParam()));
  // 1000 vertices: the last block is partial; 900..999 are isolated.
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t v = 0; v < 900; ++v) arcs.push_back({v, (v * 37 + 11) % 900});
  graphs.push_back(make_graph(arcs, 1000, true, GetParam()));
  for (const auto& any : graphs) {
    numagraph::visit(
        [&](const auto& g) {
          for (const bool networkx : {false, true}) {
            kernels::PageRankOptions o;
            o.networkx = networkx;
            o.tolerance = networkx ? 1e-8 : 1e-6;
            o.max_iterations = 100;
            o.cache_block_bytes = 0;
            const auto plain = kernels::pagerank_pull_jacobi(g, o);
            EXPECT_EQ(plain.cache_segments, 1);
            // A permutation graph converges at once, so the verifier's slack is
            // the float contributions' rounding alone (it once failed here).
            EXPECT_TRUE(verify::pagerank(g, o, plain.scores.data(), plain.last_change).ok);
            for (const std::int64_t block : {64, 1024}) {
              o.cache_block_bytes = block;
              const auto blocked = kernels::pagerank_pull_jacobi(g, o);
              EXPECT_GT(blocked.cache_segments, 1);
              EXPECT_EQ(blocked.iterations, plain.iterations);
              for (std::int64_t v = 0; v < g.num_vertices(); ++v) expect_close(blocked.scores[v], plain.scores[v], v);
              EXPECT_TRUE(verify::pagerank(g, o, blocked.scores.data(), blocked.last_change).ok);
            }
          }
        },
        any);
  }
}

// Block Gauss-Seidel is another iteration: it shares the fixed point (to the
// tolerance), passes the verifier, and unlike vertex-by-vertex Gauss-Seidel
// gives the same scores on every run.
TEST_P(PrIds, BlockedGaussSeidelConvergesToTheFixedPoint) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam());
    numagraph::visit(
        [](const auto& g) {
          kernels::PageRankOptions o;
          o.tolerance = 1e-7;
          o.max_iterations = 200;
          o.cache_block_bytes = 0;
          const auto jacobi = kernels::pagerank_pull_jacobi(g, o);
          for (const std::int64_t block : {64, 1024}) {
            o.cache_block_bytes = block;
            const auto gs = kernels::pagerank_pull_gauss_seidel(g, o);
            const auto again = kernels::pagerank_pull_gauss_seidel(g, o);
            EXPECT_GT(gs.cache_segments, 1);
            EXPECT_LT(gs.iterations, 200);
            for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
              EXPECT_NEAR(gs.scores[v], jacobi.scores[v], 1e-6);
              EXPECT_EQ(gs.scores[v], again.scores[v]);
            }
            EXPECT_TRUE(verify::pagerank(g, o, gs.scores.data(), gs.last_change).ok);
          }
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

// Gauss-Seidel to a tolerance is not auto-blocked (the copy and the slower
// convergence cost more than the few sweeps save); fixed sweeps follow the
// width rule, and an explicit size blocks either way.
TEST(Blocking, GaussSeidelAutoBlocksOnlyFixedSweeps) {
  const MachineResources m{32 * kMiB, std::size_t{16} << 30};
  const std::int64_t n22 = std::int64_t{1} << 22, arcs22 = 32 * n22;
  EXPECT_EQ(kernels::gauss_seidel_block_width(request(n22, arcs22, 4), 1e-4, m), 0);
  EXPECT_EQ(kernels::gauss_seidel_block_width(request(n22, arcs22, 4), 0, m), std::int64_t{1} << 20);
  EXPECT_EQ(kernels::gauss_seidel_block_width(request(10000, 20000, 4, 1024), 1e-4, m), 256);
  EXPECT_EQ(kernels::gauss_seidel_block_width(request(n22, arcs22, 4, 0), 0, m), 0);
}

// ---- The engine variant (engine_jacobi.hpp) ----

std::vector<double> serial_pagerank(const Graph32& g, int iterations) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> r(n, 1.0 / n), c(n);
  for (int it = 0; it < iterations; ++it) {
    for (std::size_t v = 0; v < n; ++v) {
      auto d = g.out_degree(static_cast<std::uint32_t>(v));
      c[v] = d ? r[v] / d : 0;
    }
    for (std::size_t v = 0; v < n; ++v) {
      double s = 0;
      for (auto u : g.in_neighbors(static_cast<std::uint32_t>(v))) s += c[u];
      r[v] = 0.15 / n + 0.85 * s;
    }
  }
  return r;
}

TEST(NumaEngine, PageRankMatchesSerialOnEveryTopology) {
  Graph32 g = kron(10, true);
  const auto expected = serial_pagerank(g, 10);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
      engine::NoAccounting acc;
      kernels::PageRankOptions o;
      o.max_iterations = 10;
      o.tolerance = 1e-13;  // below 1e-6: double contributions, as the serial sums; 10 iterations stay above it
      auto r = kernels::pagerank_numa(pg, o, mode, acc);
      EXPECT_EQ(r.iterations, 10);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v)
        ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, std::fabs(expected[v])));
    }
  }
}

// Cache blocking on the engine: each node's pull part cut by source range in
// its own memory. The engine sums the same pieces in the same order as the
// flat blocked kernel, so scores agree to rounding on every topology, and a
// blocked sweep still reads nothing remote at random.
TEST(NumaEngine, BlockedPageRankMatchesFlatBlockedOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed);
    kernels::PageRankOptions flat;
    flat.tolerance = 0;
    flat.max_iterations = 6;
    flat.cache_block_bytes = 64 * sizeof(float);  // 16 ranges of 64 sources
    const auto expected = kernels::pagerank_pull_jacobi(g, flat);
    ASSERT_EQ(expected.cache_segments, 16);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::Accounting acc(pg.layout());
        auto r = kernels::pagerank_numa(pg, flat, mode, acc);  // the same blocks: 64 sources each
        EXPECT_EQ(r.cache_segments, 16);
        if (mode == EngineMode::kNuma) {
          EXPECT_EQ(acc.total().remote_random, 0);
        }
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_NEAR(r.scores[v], expected.scores[v], 1e-12 * std::fabs(expected.scores[v]) + 1e-300)
              << nodes << " nodes, vertex " << v;
      }
    }
  }
}

TEST(NumaEngine, PageRankNumaModeHasNoRemoteRandomAccess) {
  Graph32 g = kron(10, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8));
  kernels::PageRankOptions o;
  o.max_iterations = 3;
  o.tolerance = 0;
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::pagerank_numa(pg, o, EngineMode::kNuma, numa_acc);
  kernels::pagerank_numa(pg, o, EngineMode::kShared, flat_acc);
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(numa_acc.total().local_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, flat_acc.total().local_random);
}

}  // namespace
