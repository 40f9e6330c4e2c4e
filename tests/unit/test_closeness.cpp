// Closeness and harmonic centrality: hand-drawn graphs with known scores
// (undirected path, directed path with an isolated vertex: incoming
// distances, weighted triangle), wf_improved off, explicit and sampled
// sources (a sample of every vertex is exact; a sample's estimate is its
// definition), Kronecker graphs of several batches on 1, 2 and 3 threads
// (the same bits), the verifier rejecting corrupted scores and the refusals;
// 32- and 64-bit ids.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "numagraph/kernels/closeness/closeness.hpp"
#include "numagraph/verify/closeness.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

class Threads {
 public:
  explicit Threads(int t) : before_(omp_get_max_threads()) { omp_set_num_threads(t); }
  ~Threads() { omp_set_num_threads(before_); }

 private:
  int before_;
};

class ClosenessIds : public ::testing::TestWithParam<bool> {};

TEST_P(ClosenessIds, UndirectedPath) {
  // 0 - 1 - 2 - 3, and 4 alone: n = 5.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}}, 5, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const auto r = closeness(g);
        // Vertex 0: r = 3, S = 6 -> 3/6 * 3/4; vertex 1: S = 4 -> 3/4 * 3/4.
        EXPECT_DOUBLE_EQ(r.closeness[0], 0.5 * 0.75);
        EXPECT_DOUBLE_EQ(r.closeness[1], 0.75 * 0.75);
        EXPECT_EQ(r.closeness[4], 0.0);
        EXPECT_DOUBLE_EQ(r.harmonic[0], 1 + 0.5 + 1.0 / 3);
        EXPECT_DOUBLE_EQ(r.harmonic[1], 2.5);
        EXPECT_EQ(r.harmonic[4], 0.0);
        EXPECT_FALSE(r.sampled);
        EXPECT_TRUE(verify::closeness(g, r, true).ok);
        ClosenessOptions o;
        o.wf_improved = false;
        const auto plain = closeness(g, o);
        EXPECT_DOUBLE_EQ(plain.closeness[0], 0.5);
        EXPECT_TRUE(verify::closeness(g, plain, false).ok);
        EXPECT_FALSE(verify::closeness(g, plain, true).ok);
      },
      any);
}

TEST_P(ClosenessIds, DirectedUsesIncomingDistances) {
  // 0 -> 1 -> 2, and 3 alone: 2 is reached from 1 (1) and 0 (2); 0 from nobody.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}}, 4, true, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const auto r = closeness(g);
        EXPECT_EQ(r.closeness[0], 0.0);
        EXPECT_DOUBLE_EQ(r.closeness[1], 1.0 / 3);
        EXPECT_DOUBLE_EQ(r.closeness[2], 2.0 / 3 * 2.0 / 3);
        EXPECT_DOUBLE_EQ(r.harmonic[2], 1.5);
        EXPECT_EQ(r.harmonic[0], 0.0);
        EXPECT_TRUE(verify::closeness(g, r, true).ok);
      },
      any);
}

TEST_P(ClosenessIds, WeightedTriangle) {
  // 0 -1- 1 -1- 2 and 0 -5- 2: d(0, 2) = 2 through 1.
  const AnyGraph any = make_graph({{0, 1, 1}, {1, 2, 1}, {0, 2, 5}}, 3, false, GetParam(), WeightKind::kReal);
  numagraph::visit(
      [&](const auto& g) {
        const auto r = closeness(g);
        EXPECT_TRUE(r.weighted);
        EXPECT_DOUBLE_EQ(r.closeness[0], 2.0 / 3);
        EXPECT_DOUBLE_EQ(r.harmonic[0], 1.5);
        EXPECT_TRUE(verify::closeness(g, r, true).ok);
        ClosenessOptions hops;
        hops.use_weights = false;
        const auto h = closeness(g, hops);
        EXPECT_FALSE(h.weighted);
        EXPECT_DOUBLE_EQ(h.closeness[0], 1.0);
      },
      any);
}

TEST_P(ClosenessIds, SourcesAndSamples) {
  const AnyGraph any = make_kron(9, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const auto exact = closeness(g);
        ClosenessOptions all;
        all.samples = g.num_vertices();  // a sample of every vertex is the exact answer
        const auto same = closeness(g, all);
        EXPECT_FALSE(same.sampled);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) EXPECT_EQ(same.closeness[v], exact.closeness[v]);
        ClosenessOptions some;
        some.samples = 70;
        some.seed = 4;
        const auto est = closeness(g, some);
        EXPECT_TRUE(est.sampled);
        EXPECT_EQ(est.sources.size(), 70u);
        EXPECT_TRUE(verify::closeness(g, est, true).ok) << verify::closeness(g, est, true).message;
        ClosenessOptions listed;
        listed.sources = {5, 1, 5, 100};
        const auto sum = closeness(g, listed);
        EXPECT_FALSE(sum.sampled);
        EXPECT_EQ(sum.sources.size(), 3u);  // deduplicated
        EXPECT_TRUE(verify::closeness(g, sum, true).ok);
      },
      any);
}

TEST_P(ClosenessIds, KroneckerSameOnAnyThreadCount) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, GetParam());  // 1024 vertices: 4 batches of 256
    numagraph::visit(
        [&](const auto& g) {
          ClosenessResult<typename std::decay_t<decltype(g)>::vertex_type> one;
          {
            Threads t(1);
            one = closeness(g);
          }
          EXPECT_EQ(one.batches, 4);
          const auto v = verify::closeness(g, one, true);
          EXPECT_TRUE(v.ok) << v.message;
          for (const int threads : {2, 3}) {
            Threads t(threads);
            const auto r = closeness(g);
            for (std::int64_t u = 0; u < g.num_vertices(); ++u) {
              ASSERT_EQ(r.closeness[u], one.closeness[u]) << u;
              ASSERT_EQ(r.harmonic[u], one.harmonic[u]) << u;
            }
          }
        },
        any);
  }
}

TEST_P(ClosenessIds, VerifierRejectsCorruption) {
  const AnyGraph any = make_kron(8, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        auto r = closeness(g);
        auto v = verify::closeness(g, r, true);
        ASSERT_TRUE(v.ok) << v.message;
        const std::int64_t victim = g.num_vertices() / 32 * 3;  // one of the sampled vertices
        const double kept = r.closeness[victim];
        r.closeness[victim] = kept * (1 + 1e-6);
        v = verify::closeness(g, r, true);
        EXPECT_FALSE(v.ok);
        EXPECT_NE(v.message.find("has closeness"), std::string::npos) << v.message;
        r.closeness[victim] = kept;
        r.harmonic[victim] += 0.5;
        v = verify::closeness(g, r, true);
        EXPECT_FALSE(v.ok);
        EXPECT_NE(v.message.find("harmonic"), std::string::npos) << v.message;
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(Both, ClosenessIds, ::testing::Bool());

TEST(Closeness, Refusals) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2, -1}}, 3, true, false, WeightKind::kReal);
  numagraph::visit(
      [&](const auto& g) {
        EXPECT_THROW(closeness(g), UsageError);  // negative weight
        ClosenessOptions hops;
        hops.use_weights = false;
        EXPECT_NO_THROW(closeness(g, hops));
        Execution numa;
        numa.engine = EngineChoice::kNuma;
        EXPECT_THROW(closeness(g, hops, numa), UsageError);
        ClosenessOptions both = hops;
        both.samples = 2;
        both.sources = {0};
        EXPECT_THROW(closeness(g, both), UsageError);
      },
      any);
  const AnyGraph no_in = make_graph({{0, 1}}, 2, true, false, WeightKind::kNone, false);
  numagraph::visit([&](const auto& g) { EXPECT_THROW(closeness(g), UsageError); }, no_in);
}

}  // namespace
