#include <gtest/gtest.h>

#include <omp.h>

#include <limits>
#include <vector>

#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

namespace {

EdgeList edges_of(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pairs,
                  std::vector<float> weights = {}) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(pairs.size());
  e.dst = NumaArray<std::uint64_t>(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    e.src[i] = pairs[i].first;
    e.dst[i] = pairs[i].second;
  }
  if (!weights.empty()) {
    e.weights = NumaArray<weight_t>(weights.size());
    for (std::size_t i = 0; i < weights.size(); ++i) e.weights[i] = weights[i];
    e.weight_kind = WeightKind::kReal;
  }
  return e;
}

template <typename G>
std::vector<std::uint64_t> nbrs(const G& g, std::uint64_t v) {
  auto s = g.out_neighbors(static_cast<typename G::vertex_type>(v));
  return {s.begin(), s.end()};
}

}  // namespace

TEST(Builder, DirectedSortedWithInEdges) {
  BuildReport r;
  AnyGraph any = build_graph(edges_of({{0, 2}, {0, 1}, {2, 1}, {1, 0}}), {}, &r);
  auto& g = std::get<Graph32>(any);
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.num_edges(), 4);
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(nbrs(g, 0), (std::vector<std::uint64_t>{1, 2}));
  auto in1 = g.in_neighbors(1);
  EXPECT_EQ(std::vector<std::uint64_t>(in1.begin(), in1.end()), (std::vector<std::uint64_t>{0, 2}));
  EXPECT_FALSE(r.relabelled);
}

TEST(Builder, SymmetrizeDedupeAndLoops) {
  BuildOptions o;
  o.symmetrize = true;
  o.dedupe = true;
  o.drop_self_loops = true;
  BuildReport r;
  AnyGraph any = build_graph(edges_of({{0, 1}, {1, 0}, {1, 1}, {1, 2}, {1, 2}}), o, &r);
  auto& g = std::get<Graph32>(any);
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(g.num_arcs(), 4);
  EXPECT_EQ(r.self_loops_removed, 1);
  EXPECT_EQ(r.duplicates_removed, 4);  // {0,1} twice each way, {1,2} twice each way
  EXPECT_EQ(nbrs(g, 1), (std::vector<std::uint64_t>{0, 2}));
}

TEST(Builder, UndirectedSelfLoopCountsOnce) {
  BuildOptions o;
  o.symmetrize = true;
  AnyGraph any = build_graph(edges_of({{0, 0}, {0, 1}}), o);
  auto& g = std::get<Graph32>(any);
  EXPECT_EQ(g.num_arcs(), 3);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(g.num_self_loops(), 1);
}

TEST(Builder, DedupeKeepsLightestWeight) {
  BuildOptions o;
  o.dedupe = true;
  AnyGraph any = build_graph(edges_of({{0, 1}, {0, 1}, {0, 1}}, {5.0f, 2.0f, 9.0f}), o);
  auto& g = std::get<Graph32>(any);
  ASSERT_EQ(g.out_degree(0), 1);
  EXPECT_EQ(g.out_weights(0)[0], 2.0f);
}

// Arrays from the library or Python skip the readers' weight checks: the
// builder refuses a non-finite weight (found by the edge_arrays fuzz target)
// and a weight array of another length, naming the edge.
TEST(Builder, RefusesNonFiniteWeightsAndMismatchedWeightArrays) {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    try {
      build_graph(edges_of({{0, 1}, {1, 2}, {2, 3}}, {1.0f, bad, 2.0f}), {});
      ADD_FAILURE() << "weight " << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("edge 1 (1 -> 2)"), std::string::npos) << e.what();
    }
  }
  EdgeList e = edges_of({{0, 1}, {1, 2}}, {1.0f, 2.0f});
  e.weights = NumaArray<weight_t>(1);
  EXPECT_THROW(build_graph(std::move(e), {}), UsageError);
}

TEST(Builder, AutoRelabelsHugeIdsAndKeepsLabels) {
  const std::uint64_t big = (1ULL << 40) + 7;
  BuildReport r;
  AnyGraph any = build_graph(edges_of({{big, 5}, {5, big + 100}}), {}, &r);
  auto& g = std::get<Graph32>(any);
  EXPECT_TRUE(r.relabelled);
  EXPECT_TRUE(r.relabel_was_automatic);
  EXPECT_FALSE(r.notice.empty());
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.label(0), 5u);
  EXPECT_EQ(g.label(1), big);
  EXPECT_EQ(g.label(2), big + 100);
  EXPECT_EQ(nbrs(g, 1), (std::vector<std::uint64_t>{0}));
}

TEST(Builder, DenseIdsAreNotRelabelled) {
  BuildReport r;
  build_graph(edges_of({{0, 3}, {1, 2}}), {}, &r);
  EXPECT_FALSE(r.relabelled);
}

TEST(Builder, DeclaredVertexCountIsEnforced) {
  EdgeList e = edges_of({{0, 5}});
  e.num_vertices = 5;
  EXPECT_THROW(build_graph(std::move(e), {}), InputError);
}

TEST(Builder, ForceWideIds) {
  BuildOptions o;
  o.force_64bit_ids = true;
  AnyGraph any = build_graph(edges_of({{0, 1}}), o);
  EXPECT_TRUE(std::holds_alternative<Graph64>(any));
}

TEST(Builder, EmptyEdgeListWithDeclaredVertices) {
  EdgeList e = edges_of({});
  e.num_vertices = 4;
  AnyGraph any = build_graph(std::move(e), {});
  auto& g = std::get<Graph32>(any);
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_edges(), 0);
}

TEST(Generators, DeterministicAcrossThreadCounts) {
  GeneratorOptions o;
  o.scale = 10;
  o.weighted = true;
  omp_set_num_threads(1);
  EdgeList a = generate_kronecker(o);
  omp_set_num_threads(2);
  EdgeList b = generate_kronecker(o);
  ASSERT_EQ(a.size(), 16u * 1024u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.src[i], b.src[i]);
    ASSERT_EQ(a.dst[i], b.dst[i]);
    ASSERT_EQ(a.weights[i], b.weights[i]);
    ASSERT_LT(a.src[i], 1024u);
    ASSERT_GE(a.weights[i], 1.0f);
    ASSERT_LE(a.weights[i], 255.0f);
  }
}

TEST(Generators, KroneckerIsSkewedUniformIsNot) {
  GeneratorOptions o;
  o.scale = 14;
  auto degree_max = [](EdgeList e) {
    AnyGraph any = build_graph(std::move(e), {});
    auto& g = std::get<Graph32>(any);
    eid_t m = 0;
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) m = std::max(m, g.out_degree(static_cast<std::uint32_t>(v)));
    return m;
  };
  EXPECT_GT(degree_max(generate_kronecker(o)), 500);
  EXPECT_LT(degree_max(generate_uniform(o)), 100);
}

TEST(Generators, GridShape) {
  GeneratorOptions o;
  o.scale = 4;  // 4 x 4
  EdgeList e = generate_grid(o);
  EXPECT_EQ(e.size(), 24u);
  EXPECT_EQ(*e.num_vertices, 16u);
}
