// Connected components (Afforest and Shiloach-Vishkin) and the union-find
// verifier: hand-drawn graphs (weak connectivity through in-edges only,
// isolated vertices), Kronecker graphs with 32- and 64-bit ids, both variants
// inducing the same partition, and labellings the verifier must reject
// (two components merged, one component split).
// The engine variants (engine_label_propagation.hpp, engine_afforest.hpp):
// the smallest id of each weak component on every synthetic topology, with
// and without a giant component.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/cc/afforest.hpp"
#include "numagraph/kernels/cc/engine_afforest.hpp"
#include "numagraph/kernels/cc/engine_label_propagation.hpp"
#include "numagraph/kernels/cc/shiloach_vishkin.hpp"
#include "numagraph/verify/cc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::engine::EngineMode;
using numagraph::engine_test::kTopologies;
using numagraph::engine_test::kron;
using numagraph::engine_test::layout_for;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

template <typename L>
std::set<std::set<std::int64_t>> partition(const L& labels, std::int64_t n) {
  std::map<std::uint64_t, std::set<std::int64_t>> groups;
  for (std::int64_t v = 0; v < n; ++v) groups[static_cast<std::uint64_t>(labels[v])].insert(v);
  std::set<std::set<std::int64_t>> p;
  for (auto& [label, members] : groups) p.insert(members);
  return p;
}

template <typename G>
std::vector<NumaArray<typename G::vertex_type>> both_variants(const G& g) {
  std::vector<NumaArray<typename G::vertex_type>> r;
  r.push_back(kernels::components_afforest(g));
  r.push_back(kernels::components_shiloach_vishkin(g));
  return r;
}

class CcIds : public ::testing::TestWithParam<bool> {};

TEST_P(CcIds, UndirectedHandDrawn) {
  // {0,1,2,3} (a path in shuffled order), {4,5}, {6}, {7,8,9} (a triangle).
  const AnyGraph any = make_graph({{3, 1}, {1, 0}, {0, 2}, {5, 4}, {7, 8}, {8, 9}, {9, 7}}, 10, false, GetParam());
  const std::set<std::set<std::int64_t>> expected = {{0, 1, 2, 3}, {4, 5}, {6}, {7, 8, 9}};
  numagraph::visit(
      [&](const auto& g) {
        for (const auto& comp : both_variants(g)) {
          EXPECT_EQ(partition(comp, 10), expected);
          EXPECT_TRUE(verify::components(g, comp.data()).ok);
        }
      },
      any);
}

TEST_P(CcIds, DirectedIsWeaklyConnected) {
  // 0 -> 1 <- 2 <- 3: only in-edges join 2 and 3 to 1. 4 -> 5 -> 4 and a lone 6.
  // Vertex 1 has no out-edges, so Afforest's sampling never links it.
  const AnyGraph any = make_graph({{0, 1}, {2, 1}, {3, 2}, {4, 5}, {5, 4}}, 7, true, GetParam());
  const std::set<std::set<std::int64_t>> expected = {{0, 1, 2, 3}, {4, 5}, {6}};
  numagraph::visit(
      [&](const auto& g) {
        for (const auto& comp : both_variants(g)) EXPECT_EQ(partition(comp, 7), expected);
      },
      any);
}

TEST_P(CcIds, KroneckerVariantsAgree) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(11, directed, GetParam());
    numagraph::visit(
        [](const auto& g) {
          const auto r = both_variants(g);
          EXPECT_TRUE(verify::components(g, r[0].data()).ok);
          EXPECT_TRUE(verify::components(g, r[1].data()).ok);
          const auto p = partition(r[0], g.num_vertices());
          EXPECT_EQ(p, partition(r[1], g.num_vertices()));
          EXPECT_GT(p.size(), 1u);  // Kronecker graphs leave isolated vertices
        },
        any);
  }
}

INSTANTIATE_TEST_SUITE_P(IdWidths, CcIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Cc, AfforestWithoutSamplingRoundsStillLinksEverything) {
  // Directed graphs sample out-arcs and in-arcs in turn: odd and even round
  // counts leave different arcs to the final pass.
  for (const bool directed : {true, false}) {
    const AnyGraph any = make_kron(10, directed, false);
    numagraph::visit(
        [&](const auto& g) {
          // 2000 rounds: more than any vertex's degree, so every arc is a sampled one.
          for (const int rounds : {0, 1, 2, 3, 5, 2000}) {
            const auto comp = kernels::components_afforest(g, rounds);
            EXPECT_TRUE(verify::components(g, comp.data()).ok) << rounds << " rounds, directed " << directed;
          }
          EXPECT_THROW(kernels::components_afforest(g, -1), UsageError);
        },
        any);
  }
}

TEST(Cc, VerifierRejectsMergedAndSplitComponents) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {3, 4}}, 6, false, false);
  numagraph::visit(
      [](const auto& g) {
        std::vector<std::uint64_t> labels = {7, 7, 7, 9, 9, 2};
        EXPECT_TRUE(verify::components(g, labels.data()).ok);
        labels[3] = labels[4] = 7;  // two components share a label
        EXPECT_FALSE(verify::components(g, labels.data()).ok);
        labels = {7, 7, 8, 9, 9, 2};  // one component split
        EXPECT_FALSE(verify::components(g, labels.data()).ok);
        labels = {7, 7, 7, 9, 9, 9};  // the isolated vertex joined another
        EXPECT_FALSE(verify::components(g, labels.data()).ok);
      },
      any);
}

// ---- The engine variants (engine_label_propagation.hpp, engine_afforest.hpp) ----

// Smallest vertex id of each weakly connected component (union-find).
std::vector<std::uint64_t> serial_min_labels(const Graph32& g) {
  std::vector<std::uint64_t> p(static_cast<std::size_t>(g.num_vertices()));
  std::iota(p.begin(), p.end(), 0);
  std::function<std::uint64_t(std::uint64_t)> find = [&](std::uint64_t x) {
    return p[x] == x ? x : p[x] = find(p[x]);
  };
  for (std::int64_t u = 0; u < g.num_vertices(); ++u)
    for (auto v : g.out_neighbors(static_cast<std::uint32_t>(u))) {
      auto a = find(static_cast<std::uint64_t>(u)), b = find(v);
      if (a != b) p[std::max(a, b)] = std::min(a, b);
    }
  for (auto& x : p) x = find(x);
  return p;
}

TEST(NumaEngine, ComponentsAreCanonicalOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);  // Kronecker graphs have many isolated vertices
    const auto expected = serial_min_labels(g);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {false, true});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::NoAccounting acc;
        auto lp = kernels::connected_components_numa(pg, mode, acc);
        auto af = kernels::components_afforest_numa(pg, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
          ASSERT_EQ(lp.labels[v], expected[v]) << "label propagation v=" << v << " nodes=" << nodes;
          ASSERT_EQ(af.labels[v], expected[v]) << "afforest v=" << v << " nodes=" << nodes;
        }
      }
    }
  }
}

// Directed chains of 37 vertices whose arcs alternate direction, and the
// highest ids in reverse: no giant component for Afforest to skip, links that
// need the in-edges, and roots that move across node ranges.
TEST(NumaEngine, AfforestWithoutAGiantComponentIsCanonical) {
  const std::uint64_t n = 3000;
  EdgeList e;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> arcs;
  for (std::uint64_t i = 0; i + 1 < n; ++i) {
    if (i % 37 == 36) continue;
    const std::uint64_t a = i, b = i + 1;
    arcs.emplace_back(i % 2 ? b : a, i % 2 ? a : b);
  }
  arcs.emplace_back(n - 1, 5);  // one chain joins the last vertex to the first chain
  e.src = NumaArray<std::uint64_t>(arcs.size());
  e.dst = NumaArray<std::uint64_t>(arcs.size());
  for (std::size_t j = 0; j < arcs.size(); ++j) {
    e.src[j] = arcs[j].first;
    e.dst[j] = arcs[j].second;
  }
  e.num_vertices = n;
  Graph32 g = std::get<Graph32>(build_graph(std::move(e), BuildOptions{}));
  const auto expected = serial_min_labels(g);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {false, true});
    engine::Accounting acc(pg.layout());
    auto r = kernels::components_afforest_numa(pg, EngineMode::kNuma, acc);
    for (std::int64_t v = 0; v < g.num_vertices(); ++v)
      ASSERT_EQ(r.labels[v], expected[v]) << "v=" << v << " nodes=" << nodes;
    EXPECT_GT(acc.total().total(), 0);
  }
}

}  // namespace
