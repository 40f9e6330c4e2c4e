// Repeated SpMV (power iteration y = A x, x <- y / sum|y|) and its verifier:
// a hand-computed weighted product, unweighted graphs as weight 1, a graph
// without edges, Kronecker graphs with 32- and 64-bit ids, and corrupted
// entries the verifier must reject.
// The engine variant (engine_rows.hpp): a serial power iteration and the flat
// blocked product on every synthetic topology, no remote random access in
// numa mode. Cache blocking: the blocked product gives the unblocked one to
// rounding and passes the verifier.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/spmv/engine_rows.hpp"
#include "numagraph/verify/spmv.hpp"
#include "sweep_test_util.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::sweep_test::expect_close;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

class SpmvIds : public ::testing::TestWithParam<bool> {};

TEST_P(SpmvIds, WeightedProductByHand) {
  // A[0][1] = 2, A[0][2] = 3, A[1][2] = 5, A[2][0] = 7; vertex 3 has no edges.
  const AnyGraph any =
      make_graph({{0, 1, 2}, {0, 2, 3}, {1, 2, 5}, {2, 0, 7}}, 4, true, GetParam(), WeightKind::kInteger);
  numagraph::visit(
      [](const auto& g) {
        // x0 = 1/4: y1 = (5, 5, 7, 0) / 4.
        const auto y1 = kernels::spmv_rows(g, 1);
        const std::vector<double> e1 = {1.25, 1.25, 1.75, 0};
        for (int v = 0; v < 4; ++v) EXPECT_DOUBLE_EQ(y1[v], e1[v]);
        // x1 = y1 / 4.25: y2 = A x1.
        const auto y2 = kernels::spmv_rows(g, 2);
        const std::vector<double> e2 = {(2 * 1.25 + 3 * 1.75) / 4.25, 5 * 1.75 / 4.25, 7 * 1.25 / 4.25, 0};
        for (int v = 0; v < 4; ++v) EXPECT_NEAR(y2[v], e2[v], 1e-15);
        EXPECT_TRUE(verify::spmv(g, 2, y2.data()).ok);
        EXPECT_FALSE(verify::spmv(g, 1, y2.data()).ok);
      },
      any);
}

TEST_P(SpmvIds, UnweightedCountsNeighbours) {
  // Undirected path 0-1-2: A is symmetric with unit entries.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}}, 3, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        const auto y = kernels::spmv_rows(g, 1);
        EXPECT_DOUBLE_EQ(y[0], 1.0 / 3);
        EXPECT_DOUBLE_EQ(y[1], 2.0 / 3);
        EXPECT_DOUBLE_EQ(y[2], 1.0 / 3);
      },
      any);
}

// The prefetching product (chosen when x outgrows the L2,
// kernels/pr/gather_sum.hpp) adds the same terms in the same order.
TEST_P(SpmvIds, PrefetchingProductGivesTheSameBits) {
  for (const bool weighted : {false, true}) {
    const AnyGraph any = make_kron(10, true, GetParam(), weighted);
    numagraph::visit(
        [](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          const auto* none = static_cast<const TiledArcs<V>*>(nullptr);
          const auto plain = kernels::spmv_products<false, false>(g, 4, none);
          const auto ahead = kernels::spmv_products<false, true>(g, 4, none);
          for (std::int64_t u = 0; u < g.num_vertices(); ++u) ASSERT_EQ(plain[u], ahead[u]) << u;
        },
        any);
  }
}

// sum|y| is added per fixed piece of rows (a row block when tiled), each
// piece in row order and the pieces in order, so the thread count and the
// schedule do not move a bit (a reduction clause adds in schedule order).
TEST_P(SpmvIds, ProductIsTheSameBitsForAnyThreadCount) {
  const AnyGraph any = make_kron(12, true, GetParam(), true);
  numagraph::visit(
      [](const auto& g) {
        const int saved = omp_get_max_threads();
        for (const TileShape shape : {TileShape{}, TileShape{8, 8}}) {
          omp_set_num_threads(1);
          const auto one = kernels::spmv_rows(g, 5, shape);
          for (const int threads : {2, 3}) {
            omp_set_num_threads(threads);
            const auto many = kernels::spmv_rows(g, 5, shape);
            for (std::int64_t u = 0; u < g.num_vertices(); ++u)
              ASSERT_EQ(one[u], many[u]) << "vertex " << u << ", " << threads << " threads, col_bits " << shape.col_bits;
          }
        }
        omp_set_num_threads(saved);
      },
      any);
}

TEST_P(SpmvIds, KroneckerMatchesSerialAndCatchesCorruption) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam(), true);
    numagraph::visit(
        [](const auto& g) {
          auto y = kernels::spmv_rows(g, 5);
          ASSERT_TRUE(verify::spmv(g, 5, y.data()).ok);
          double sum = 0;
          for (std::int64_t v = 0; v < g.num_vertices(); ++v) sum += y[v];
          EXPECT_GT(sum, 0);  // normalised feedback keeps values finite and non-zero
          y[11] += 1e-6 * (y[11] + 1);
          EXPECT_FALSE(verify::spmv(g, 5, y.data()).ok);
        },
        any);
  }
}

TEST_P(SpmvIds, BlockedSpmvMatchesUnblockedAndVerifies) {
  for (const bool directed : {false, true}) {
    for (const bool weighted : {false, true}) {
      const AnyGraph any = make_kron(10, directed, GetParam(), weighted);
      numagraph::visit(
          [](const auto& g) {
            const auto plain = kernels::spmv_rows(g, 5, 0);
            for (const std::int64_t block : {128, 2048}) {
              auto blocked = kernels::spmv_rows(g, 5, block);
              for (std::int64_t v = 0; v < g.num_vertices(); ++v) expect_close(blocked[v], plain[v], v);
              EXPECT_TRUE(verify::spmv(g, 5, blocked.data()).ok);
              blocked[7] += 1e-6 * (blocked[7] + 1);
              EXPECT_FALSE(verify::spmv(g, 5, blocked.data()).ok);
            }
          },
          any);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(IdWidths, SpmvIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Spmv, NoEdgesGivesZeros) {
  const AnyGraph any = make_graph({}, 5, true, false);
  numagraph::visit(
      [](const auto& g) {
        const auto y = kernels::spmv_rows(g, 3);
        for (int v = 0; v < 5; ++v) EXPECT_EQ(y[v], 0.0);
        EXPECT_TRUE(verify::spmv(g, 3, y.data()).ok);
      },
      any);
}

// ---- The engine variant (engine_rows.hpp) ----

TEST(NumaEngine, BlockedSpmvMatchesFlatBlockedOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed, /*weighted=*/true);
    const auto expected = kernels::spmv_rows(g, 5, 128 * sizeof(double));  // 8 ranges of 128 columns
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {false, true});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::Accounting acc(pg.layout());
        auto r = kernels::spmv_numa(pg, 5, mode, acc, 128);
        EXPECT_EQ(r.cache_segments, 8);
        if (mode == EngineMode::kNuma) {
          EXPECT_EQ(acc.total().remote_random, 0);
        }
        for (std::int64_t u = 0; u < g.num_vertices(); ++u)
          ASSERT_NEAR(r.y[u], expected[u], 1e-12 * std::fabs(expected[u]) + 1e-300) << nodes << " nodes, row " << u;
      }
    }
  }
}

TEST(NumaEngine, SpmvMatchesSerialPowerIteration) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed, /*weighted=*/true);
    const auto n = static_cast<std::size_t>(g.num_vertices());
    std::vector<double> x(n, 1.0 / n), y(n);
    for (int it = 0; it < 5; ++it) {
      double norm = 0;
      for (std::size_t u = 0; u < n; ++u) {
        double s = 0;
        auto nb = g.out_neighbors(static_cast<std::uint32_t>(u));
        auto w = g.out_weights(static_cast<std::uint32_t>(u));
        for (std::size_t j = 0; j < nb.size(); ++j) s += w[j] * x[nb[j]];
        y[u] = s;
        norm += std::fabs(s);
      }
      for (std::size_t u = 0; u < n; ++u) x[u] = y[u] / norm;
    }
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {false, true});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::Accounting acc(pg.layout());
        auto r = kernels::spmv_numa(pg, 5, mode, acc);
        if (mode == EngineMode::kNuma) {
          EXPECT_EQ(acc.total().remote_random, 0);
        }
        for (std::size_t u = 0; u < n; ++u) ASSERT_NEAR(r.y[u], y[u], 1e-9 * std::max(1.0, std::fabs(y[u])));
      }
    }
  }
}

}  // namespace
