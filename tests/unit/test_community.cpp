// Communities (parallel Louvain and Leiden) and their verifier: hand-drawn
// graphs with a known best partition (two cliques joined by an edge, a
// weighted path), edgeless graphs, the same answer on 1, 2 and 3 threads and
// on every run, Leiden's connected communities on Kronecker graphs, the
// refusals, and labellings the verifier must reject.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "numagraph/kernels/community/community.hpp"
#include "numagraph/verify/community.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::Arc;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// Every batch and sweep forks, however small (kernels/community/level_graph.hpp).
[[maybe_unused]] const bool kForkAlways = [] { return setenv("NUMAGRAPH_SERIAL_BELOW", "0", 0) == 0; }();

class Threads {
 public:
  explicit Threads(int t) : before_(omp_get_max_threads()) { omp_set_num_threads(t); }
  ~Threads() { omp_set_num_threads(before_); }

 private:
  int before_;
};

// Two 5-cliques {0..4} and {5..9} joined by the edge 4-5, and vertex 10 alone.
AnyGraph two_cliques(bool force64) {
  std::vector<Arc> arcs;
  for (std::uint64_t base : {0u, 5u})
    for (std::uint64_t i = 0; i < 5; ++i)
      for (std::uint64_t j = i + 1; j < 5; ++j) arcs.push_back({base + i, base + j});
  arcs.push_back({4, 5});
  return make_graph(arcs, 11, false, force64);
}

CommunityOptions variant(CommunityVariant v) {
  CommunityOptions o;
  o.variant = v;
  return o;
}

class CommunityIds : public ::testing::TestWithParam<bool> {};

TEST_P(CommunityIds, TwoCliques) {
  const AnyGraph any = two_cliques(GetParam());
  for (const auto v : {CommunityVariant::kLouvain, CommunityVariant::kLeiden})
    numagraph::visit(
        [&](const auto& g) {
          const auto r = communities(g, variant(v));
          const std::vector<std::uint64_t> expected = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2};
          for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.labels[i], expected[i]) << "vertex " << i;
          EXPECT_EQ(r.communities, 3);
          EXPECT_NEAR(r.modularity, 20.0 / 21.0 - 0.5, 1e-12);  // 2 (10/21 - (21/42)^2)
          const auto check = verify::communities(g, r.labels.data(), r.communities, r.modularity, 1.0, true);
          EXPECT_TRUE(check.ok) << check.message;
        },
        any);
}

TEST_P(CommunityIds, WeightsDecide) {
  // The path 0-1-2-3-4-5: heavy edges 0-1, 2-3, 4-5 pair them up.
  const AnyGraph any = make_graph({{0, 1, 10}, {1, 2, 1}, {2, 3, 10}, {3, 4, 1}, {4, 5, 10}}, 6, false, GetParam(),
                                  WeightKind::kInteger);
  numagraph::visit(
      [&](const auto& g) {
        const auto r = communities(g);
        const std::vector<std::uint64_t> expected = {0, 0, 1, 1, 2, 2};
        for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.labels[i], expected[i]) << "vertex " << i;
        EXPECT_NEAR(r.modularity, verify::modularity(g, r.labels.data(), r.communities, 1.0), 1e-12);
      },
      any);
}

TEST_P(CommunityIds, EdgelessGraph) {
  const AnyGraph any = make_graph({}, 4, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const auto r = communities(g);
        EXPECT_EQ(r.communities, 4);
        EXPECT_EQ(r.modularity, 0);
      },
      any);
}

TEST_P(CommunityIds, SameAnswerOnEveryThreadCount) {
  const AnyGraph any = make_kron(12, false, GetParam());
  for (const auto v : {CommunityVariant::kLouvain, CommunityVariant::kLeiden})
    numagraph::visit(
        [&](const auto& g) {
          CommunityOptions o = variant(v);
          o.seed = 11;
          std::vector<std::uint64_t> first;
          double q = 0;
          for (int t : {1, 2, 3, 2}) {
            Threads threads(t);
            const auto r = communities(g, o);
            std::vector<std::uint64_t> labels(r.labels.begin(), r.labels.end());
            if (first.empty()) {
              first = labels;
              q = r.modularity;
              const auto check = verify::communities(g, r.labels.data(), r.communities, r.modularity, 1.0,
                                                     v == CommunityVariant::kLeiden);
              EXPECT_TRUE(check.ok) << check.message;
              EXPECT_GT(r.modularity, 0.1);
            }
            EXPECT_EQ(labels, first) << t << " threads";
            EXPECT_EQ(r.modularity, q) << t << " threads";
          }
        },
        any);
}

INSTANTIATE_TEST_SUITE_P(Ids, CommunityIds, ::testing::Values(false, true));

TEST(Community, LeidenCommunitiesAreConnectedAtAnyResolution) {
  const AnyGraph any = make_kron(11, false, false);
  numagraph::visit(
      [&](const auto& g) {
        for (const double gamma : {0.2, 1.0, 3.0}) {
          CommunityOptions o = variant(CommunityVariant::kLeiden);
          o.resolution = gamma;
          const auto r = communities(g, o);
          const auto check = verify::communities(g, r.labels.data(), r.communities, r.modularity, gamma, true);
          EXPECT_TRUE(check.ok) << "resolution " << gamma << ": " << check.message;
        }
      },
      any);
}

TEST(Community, Refusals) {
  const AnyGraph directed = make_graph({{0, 1}, {1, 2}}, 3, true, false);
  numagraph::visit([&](const auto& g) { EXPECT_THROW(communities(g), UsageError); }, directed);
  const AnyGraph any = two_cliques(false);
  numagraph::visit(
      [&](const auto& g) {
        Execution numa;
        numa.engine = EngineChoice::kNuma;
        EXPECT_THROW(communities(g, {}, numa), UsageError);
        CommunityOptions o;
        o.resolution = -1;
        EXPECT_THROW(communities(g, o), UsageError);
      },
      any);
  EXPECT_THROW(kernels::parse_community_variant("infomap"), UsageError);
  const AnyGraph negative = make_graph({{0, 1, -2}, {1, 2, 1}}, 3, false, false, WeightKind::kInteger);
  numagraph::visit([&](const auto& g) { EXPECT_THROW(communities(g), UsageError); }, negative);
}

TEST(CommunityVerifier, RejectsBadLabellings) {
  const AnyGraph any = two_cliques(false);
  numagraph::visit(
      [&](const auto& g) {
        std::vector<std::int64_t> labels = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2};
        const double q = verify::modularity(g, labels.data(), 3, 1.0);
        EXPECT_TRUE(verify::communities(g, labels.data(), 3, q, 1.0, true).ok);
        auto outside = labels;
        outside[3] = 7;
        EXPECT_NE(verify::communities(g, outside.data(), 3, q, 1.0, false).message.find("outside"), std::string::npos);
        EXPECT_NE(verify::communities(g, labels.data(), 4, q, 1.0, false).message.find("not dense"), std::string::npos);
        EXPECT_NE(verify::communities(g, labels.data(), 3, q + 1e-6, 1.0, false).message.find("modularity"),
                  std::string::npos);
        auto disconnected = labels;
        disconnected[10] = 0;  // vertex 10 has no edge to community 0
        disconnected[5] = disconnected[6] = disconnected[7] = disconnected[8] = disconnected[9] = 1;
        for (auto& l : disconnected) l = l == 2 ? 1 : l;
        const double q2 = verify::modularity(g, disconnected.data(), 2, 1.0);
        EXPECT_TRUE(verify::communities(g, disconnected.data(), 2, q2, 1.0, false).ok);
        EXPECT_NE(verify::communities(g, disconnected.data(), 2, q2, 1.0, true).message.find("not connected"),
                  std::string::npos);
      },
      any);
}

}  // namespace
