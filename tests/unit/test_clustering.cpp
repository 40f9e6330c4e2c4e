// Clustering coefficients: a hand-drawn graph with known coefficients,
// average and transitivity; Kronecker graphs against the brute-force
// verifier at 1, 2 and 3 threads with 32- and 64-bit ids; the per-vertex
// count renumbered by degree (marking) equal to the merging one on 1 to 64
// threads (private counts and shared atomic ones); the verifier
// rejecting corrupted results; refusals (directed graphs).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/clustering/clustering.hpp"
#include "numagraph/kernels/tc/per_vertex_ranked.hpp"
#include "numagraph/verify/clustering.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

class ClusteringIds : public ::testing::TestWithParam<bool> {};

TEST_P(ClusteringIds, HandDrawnGraph) {
  // Square 0-1-2-3 with diagonal 0-2 (two triangles), a pendant 4 on 2, isolated 5.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {2, 4}}, 6, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        const ClusteringResult r = clustering(g);
        const std::vector<double> expected = {2.0 / 3.0, 1.0, 1.0 / 3.0, 1.0, 0.0, 0.0};
        for (int v = 0; v < 6; ++v) EXPECT_DOUBLE_EQ(r.coefficient[v], expected[static_cast<std::size_t>(v)]) << v;
        EXPECT_EQ(r.total_triangles, 2);
        EXPECT_EQ(r.connected_triples, 3 + 1 + 6 + 1);  // degrees 3, 2, 4, 2, 1, 0
        EXPECT_DOUBLE_EQ(r.average(), 3.0 / 6.0);
        EXPECT_DOUBLE_EQ(r.average(false), 3.0 / 4.0);
        EXPECT_DOUBLE_EQ(r.transitivity(), 6.0 / 11.0);
        EXPECT_TRUE(verify::clustering(g, r).ok);
      },
      any);
}

TEST_P(ClusteringIds, KroneckerMatchesVerifierOnAnyThreadCount) {
  const AnyGraph any = make_kron(11, false, GetParam());
  const int threads = omp_get_max_threads();
  for (const int t : {1, 2, 3}) {
    omp_set_num_threads(t);
    numagraph::visit(
        [&](const auto& g) {
          const ClusteringResult r = clustering(g);
          EXPECT_GT(r.total_triangles, 0);
          const auto v = verify::clustering(g, r);
          EXPECT_TRUE(v.ok) << t << " threads: " << v.message;
        },
        any);
  }
  omp_set_num_threads(threads);
}

TEST_P(ClusteringIds, RankedPerVertexCountEqualsMerging) {
  // Kronecker 12 is skewed: the ranked count renumbers by degree and marks.
  // One thread builds the lower lists by appending (no sort), a team by
  // sorting; up to 3 threads count into their own arrays, 64 threads (64 x n
  // counts, more than the arcs) share one with atomic adds.
  const AnyGraph any = make_kron(12, false, GetParam());
  const int before = omp_get_max_threads();
  numagraph::visit(
      [](const auto& g) {
        ASSERT_TRUE(kernels::tc_detail::worth_relabelling(g));
        const auto merged = kernels::triangles_per_vertex(g);
        for (const int threads : {1, 2, 3, 64}) {
          omp_set_num_threads(threads);
          EXPECT_EQ(kernels::tc_detail::private_counts(threads, g.num_vertices(), g.num_arcs()), threads < 64);
          const auto ranked = kernels::triangles_per_vertex_ranked(g);
          const auto marked = kernels::tc_detail::per_vertex_marking(g.out().offsets.data(),
                                                                    g.out().neighbors.data(), g.num_vertices());
          for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
            ASSERT_EQ(ranked[v], merged[v]) << "vertex " << v << ", " << threads << " threads";
            ASSERT_EQ(marked[v], merged[v]) << "vertex " << v << ", " << threads << " threads";
          }
        }
      },
      any);
  omp_set_num_threads(before);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, ClusteringIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Clustering, VerifierRejectsCorruptedResults) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 0}, {2, 3}}, 4, false, false);
  const auto& g = std::get<Graph32>(any);
  {
    ClusteringResult r = clustering(g);
    r.triangles[3] = 1;
    const auto v = verify::clustering(g, r);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("vertex 3 has 1 triangles"), std::string::npos) << v.message;
  }
  {
    ClusteringResult r = clustering(g);
    r.coefficient[2] = 0.5;
    const auto v = verify::clustering(g, r);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("vertex 2 has clustering"), std::string::npos) << v.message;
  }
  {
    ClusteringResult r = clustering(g);
    r.connected_triples += 1;
    EXPECT_NE(verify::clustering(g, r).message.find("connected triples"), std::string::npos);
  }
}

TEST(Clustering, DirectedGraphIsRefused) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 0}}, 3, true, false);
  numagraph::visit([](const auto& g) { EXPECT_THROW(clustering(g), UsageError); }, any);
}

TEST(Clustering, EmptyGraphHasZeros) {
  const AnyGraph any = make_graph({}, 0, false, false);
  const auto& g = std::get<Graph32>(any);
  const ClusteringResult r = clustering(g);
  EXPECT_EQ(r.average(), 0.0);
  EXPECT_EQ(r.transitivity(), 0.0);
  EXPECT_TRUE(verify::clustering(g, r).ok);
}

}  // namespace
