// Strongly connected components (forward-backward with trimming and
// colouring on a team, Tarjan's search on one thread) and the Tarjan verifier: hand-drawn digraphs with known SCCs,
// random digraphs of every density (from all-trivial SCCs to one giant) on
// 1, 2 and 3 threads with 32- and 64-bit ids, Kronecker graphs, undirected
// graphs (the connected components), the verifier on a long path (no
// recursion) and labellings it must reject.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <vector>

#include "numagraph/kernels/scc/scc.hpp"
#include "numagraph/verify/cc.hpp"
#include "numagraph/verify/scc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::Arc;
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

AnyGraph random_digraph(std::uint64_t n, double arcs_per_vertex, std::uint64_t seed, bool force64) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> pick(0, n - 1);
  std::vector<Arc> arcs;
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(arcs_per_vertex * static_cast<double>(n)); ++i)
    arcs.push_back({pick(rng), pick(rng)});
  return make_graph(arcs, n, true, force64);
}

class SccIds : public ::testing::TestWithParam<bool> {};

TEST_P(SccIds, HandDrawn) {
  // {0,1,2} a cycle feeding {3,4} (3 <-> 4), which feeds 5; 6 alone; {7,8,9,10}
  // two cycles sharing 8; 11 -> 7 only (trimmed); 12 <- 10 only (trimmed).
  const AnyGraph any = make_graph({{1, 0}, {0, 2}, {2, 1}, {2, 3}, {3, 4}, {4, 3}, {4, 5},
                                   {7, 8}, {8, 7}, {8, 9}, {9, 10}, {10, 8}, {11, 7}, {10, 12}},
                                  13, true, GetParam());
  const std::vector<std::uint64_t> expected = {0, 0, 0, 3, 3, 5, 6, 7, 7, 7, 7, 11, 12};
  numagraph::visit(
      [&](const auto& g) {
        const auto r = strongly_connected_components(g);
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_EQ(r.labels[v], expected[v]) << "v=" << v;
        EXPECT_TRUE(verify::strongly_connected_components(g, r.labels.data()).ok);
        if (omp_get_max_threads() > 1) {  // forward-backward (Tarjan, on one thread, trims nothing)
          EXPECT_GE(r.trimmed, 3);        // 5, 6, 11 and 12 have no in- or no out-arc
        }
      },
      any);
}

TEST_P(SccIds, RandomDigraphsOnOneTwoThreeThreads) {
  // 0.5 arcs per vertex: nearly all SCCs trivial; 1.2: a giant appears near
  // the threshold with many small SCCs hanging off it; 4: one giant.
  for (const double density : {0.5, 1.0, 1.2, 1.5, 4.0})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const AnyGraph any = random_digraph(2000, density, seed, GetParam());
      numagraph::visit(
          [&](const auto& g) {
            const auto expected = verify::tarjan_smallest_members(g);
            for (const int threads : {1, 2, 3}) {
              Threads t(threads);
              const auto r = strongly_connected_components(g);
              for (std::int64_t v = 0; v < g.num_vertices(); ++v)
                ASSERT_EQ(static_cast<std::int64_t>(r.labels[v]), expected[static_cast<std::size_t>(v)])
                    << "v=" << v << " density=" << density << " seed=" << seed << " threads=" << threads;
            }
          },
          any);
    }
}

TEST_P(SccIds, Kronecker) {
  const AnyGraph any = make_kron(12, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        for (const int threads : {1, 2, 3}) {
          Threads t(threads);
          const auto r = strongly_connected_components(g);
          const auto v = verify::strongly_connected_components(g, r.labels.data());
          EXPECT_TRUE(v.ok) << v.message;
        }
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, SccIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Scc, LongCycleAndChainNeedNoRecursion) {
  // A 300000-vertex directed cycle (one SCC) and the same as a path (all
  // trivial): depth first search goes 300000 deep (the verifier's, and the
  // kernel's own on one thread: Tarjan).
  const std::uint64_t n = 300000;
  for (const bool cycle : {true, false}) {
    std::vector<Arc> arcs;
    for (std::uint64_t v = 0; v + 1 < n; ++v) arcs.push_back({v, v + 1});
    if (cycle) arcs.push_back({n - 1, 0});
    const AnyGraph any = make_graph(arcs, n, true, false);
    numagraph::visit(
        [&](const auto& g) {
          for (const int threads : {1, 2}) {
            Threads t(threads);
            const auto r = strongly_connected_components(g);
            EXPECT_TRUE(verify::strongly_connected_components(g, r.labels.data()).ok) << threads << " threads";
            EXPECT_EQ(r.labels[n - 1], cycle ? 0u : n - 1) << threads << " threads";
          }
        },
        any);
  }
}

TEST(Scc, SelfLoopsDoNotJoinOrKeepVertices) {
  // 0 <-> 1 with loops on 0 and 2; 2 -> 0 and a loop: 2 is alone (trimmed,
  // as its own loop is no in-arc from another vertex); 3 has only a loop.
  EdgeList e;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> arcs = {{0, 0}, {0, 1}, {1, 0}, {2, 2}, {2, 0}, {3, 3}};
  e.src = NumaArray<std::uint64_t>(arcs.size());
  e.dst = NumaArray<std::uint64_t>(arcs.size());
  for (std::size_t i = 0; i < arcs.size(); ++i) e.src[i] = arcs[i].first, e.dst[i] = arcs[i].second;
  e.num_vertices = 4;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  b.drop_self_loops = false;
  const AnyGraph any = build_graph(std::move(e), b);
  numagraph::visit(
      [](const auto& g) {
        ASSERT_EQ(g.num_self_loops(), 3);
        for (const int threads : {1, 2}) {  // Tarjan, then forward-backward
          Threads t(threads);
          const auto r = strongly_connected_components(g);
          EXPECT_EQ(r.labels[0], 0u);
          EXPECT_EQ(r.labels[1], 0u);
          EXPECT_EQ(r.labels[2], 2u);
          EXPECT_EQ(r.labels[3], 3u);
          EXPECT_EQ(r.trimmed, threads == 1 ? 0 : 2);  // Tarjan trims nothing
          EXPECT_TRUE(verify::strongly_connected_components(g, r.labels.data()).ok);
        }
      },
      any);
}

TEST(Scc, UndirectedGivesConnectedComponents) {
  const AnyGraph any = make_kron(11, false, false);
  numagraph::visit(
      [](const auto& g) {
        const auto r = strongly_connected_components(g);
        EXPECT_TRUE(verify::strongly_connected_components(g, r.labels.data()).ok);
        EXPECT_TRUE(verify::components(g, r.labels.data()).ok);
      },
      any);
}

TEST(Scc, VerifierRejectsWrongLabels) {
  // {0,1} a 2-cycle, 2 -> 0, 3 alone.
  const AnyGraph any = make_graph({{0, 1}, {1, 0}, {2, 0}}, 4, true, false);
  numagraph::visit(
      [](const auto& g) {
        std::vector<std::uint64_t> labels = {0, 0, 2, 3};
        EXPECT_TRUE(verify::strongly_connected_components(g, labels.data()).ok);
        labels = {0, 0, 0, 3};  // 2 reaches the cycle but is not reached back
        auto v = verify::strongly_connected_components(g, labels.data());
        EXPECT_FALSE(v.ok);
        EXPECT_NE(v.message.find("vertex 2"), std::string::npos) << v.message;
        labels = {0, 1, 2, 3};  // the cycle split
        EXPECT_FALSE(verify::strongly_connected_components(g, labels.data()).ok);
        labels = {1, 1, 2, 3};  // right partition, not the smallest id
        EXPECT_FALSE(verify::strongly_connected_components(g, labels.data()).ok);
      },
      any);
}

TEST(Scc, RefusesTheEngine) {
  const AnyGraph any = make_graph({{0, 1}}, 2, true, false);
  numagraph::visit(
      [](const auto& g) {
        Execution x;
        x.engine = EngineChoice::kNuma;
        EXPECT_THROW(strongly_connected_components(g, {}, x), UsageError);
      },
      any);
}

}  // namespace
