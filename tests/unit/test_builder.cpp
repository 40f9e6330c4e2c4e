#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>
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

// The builder against a plain oracle: every arc (and, undirected, its
// reverse, a self-loop once) sorted by (source, target, weight), then the
// loops and repeats dropped by one scan. Covers the per-block and the atomic
// counting (2 threads on few arcs per vertex), 32- and 64-bit ids, relabelled
// ids, in-edges, and lists arriving sorted, as two runs, or shuffled.
namespace {

struct Arc {
  std::uint64_t from, to;
  float w;
  bool operator<(const Arc& o) const { return std::tie(from, to, w) < std::tie(o.from, o.to, o.w); }
  bool operator==(const Arc&) const = default;
};

struct Expected {
  std::vector<Arc> out, in;
  std::int64_t loops_removed = 0, duplicates_removed = 0, loops_kept = 0;
};

Expected oracle(const std::vector<Arc>& edges, bool undirected, bool drop_loops, bool dedupe) {
  std::vector<Arc> arcs;
  for (const Arc& a : edges) {
    arcs.push_back(a);
    if (undirected && a.from != a.to) arcs.push_back({a.to, a.from, a.w});
  }
  std::sort(arcs.begin(), arcs.end());
  Expected x;
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const Arc& a = arcs[k];
    if (drop_loops && a.from == a.to) {
      ++x.loops_removed;
    } else if (dedupe && k > 0 && arcs[k - 1].from == a.from && arcs[k - 1].to == a.to) {
      ++x.duplicates_removed;
    } else {
      x.out.push_back(a);
      x.loops_kept += a.from == a.to;
    }
  }
  for (const Arc& a : x.out) x.in.push_back({a.to, a.from, a.w});
  std::sort(x.in.begin(), x.in.end());
  return x;
}

template <typename G>
std::vector<Arc> arcs_of(const G& g, bool in) {
  std::vector<Arc> arcs;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const auto u = static_cast<typename G::vertex_type>(v);
    auto ids = in ? g.in_neighbors(u) : g.out_neighbors(u);
    for (std::size_t k = 0; k < ids.size(); ++k)
      arcs.push_back({g.label(u), g.label(ids[k]), g.weighted() ? (in ? g.in_weights(u) : g.out_weights(u))[k] : 0.0f});
  }
  return arcs;  // in list order: equal to the oracle only if every list is sorted
}

// Ids from 0..n-1 with skew (low ids frequent), many repeats and loops;
// weights from a few values so repeats differ in weight or tie.
std::vector<Arc> random_edges(std::mt19937_64& rng, std::uint64_t n, std::size_t m, bool weighted) {
  std::vector<Arc> e(m);
  for (Arc& a : e) {
    const auto pick = [&] { return std::min<std::uint64_t>(n - 1, rng() % n * (rng() % n) / n); };
    a = {pick(), pick(), weighted ? static_cast<float>(static_cast<int>(rng() % 7) - 3) * 0.5f : 0.0f};
  }
  return e;
}

EdgeList edge_list_of(const std::vector<Arc>& arcs, bool weighted, std::uint64_t id_scale,
                      std::uint64_t id_offset) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(arcs.size());
  e.dst = NumaArray<std::uint64_t>(arcs.size());
  if (weighted) e.weights = NumaArray<weight_t>(arcs.size());
  e.weight_kind = weighted ? WeightKind::kReal : WeightKind::kNone;
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    e.src[i] = arcs[i].from * id_scale + id_offset;
    e.dst[i] = arcs[i].to * id_scale + id_offset;
    if (weighted) e.weights[i] = arcs[i].w;
  }
  return e;
}

// How the ids of a test graph are spread: 0..n-1 as given; every 7th id
// (relabelled through a bitmap of the ids); or spread over 2^40.. (relabelled
// by sorting them).
enum class Ids { kDense, kSparse, kHuge };

// Builds `edges`, with their ids spread as asked, and checks the graph
// against the oracle.
void check_against_oracle(const std::vector<Arc>& edges, bool weighted, const BuildOptions& o,
                          Ids ids = Ids::kDense) {
  const bool sparse = ids != Ids::kDense;
  const std::uint64_t scale = ids == Ids::kDense ? 1 : ids == Ids::kSparse ? 7 : 1000003;
  const std::uint64_t offset = ids == Ids::kHuge ? (1ULL << 40) : 0;
  BuildReport r;
  AnyGraph any = build_graph(edge_list_of(edges, weighted, scale, offset), o, &r);
  std::vector<Arc> labelled = edges;
  std::uint64_t max_id = 0;
  for (Arc& a : labelled) {
    max_id = std::max({max_id, a.from, a.to});
    a = {a.from * scale + offset, a.to * scale + offset, a.w};
  }
  const Expected x = oracle(labelled, o.symmetrize, o.drop_self_loops, o.dedupe);
  std::visit(
      [&](const auto& g) {
        EXPECT_EQ(sizeof(typename std::decay_t<decltype(g)>::vertex_type), o.force_64bit_ids ? 8u : 4u);
        EXPECT_EQ(r.relabelled, sparse);
        if (!sparse) {
          EXPECT_EQ(static_cast<std::uint64_t>(g.num_vertices()), max_id + 1);
        }
        EXPECT_EQ(g.directed(), !o.symmetrize);
        EXPECT_TRUE(arcs_of(g, false) == x.out) << "out-lists differ";
        if (!o.symmetrize) {
          EXPECT_TRUE(arcs_of(g, true) == x.in) << "in-lists differ";
        }
        EXPECT_EQ(g.num_self_loops(), x.loops_kept);
        EXPECT_EQ(r.self_loops_removed, x.loops_removed);
        EXPECT_EQ(r.duplicates_removed, x.duplicates_removed);
        EXPECT_EQ(r.input_edges, static_cast<std::int64_t>(edges.size()));
      },
      any);
}

}  // namespace

TEST(Builder, MatchesOracleOverOptionsThreadsAndIdWidths) {
  std::mt19937_64 rng(61);
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    // Many arcs per vertex (per-block counting) and few (atomic counting
    // from 3 threads on); sorted, as the files usually are, and shuffled.
    for (auto [n, m] : {std::pair<std::uint64_t, std::size_t>{40, 2000}, {3000, 2500}, {9000, 30000}}) {
      for (bool weighted : {false, true}) {
        std::vector<Arc> edges = random_edges(rng, n, m, weighted);
        for (bool sorted : {false, true}) {
          if (sorted) std::sort(edges.begin(), edges.end());
          for (int flags = 0; flags < 16; ++flags) {
            BuildOptions o;
            o.symmetrize = flags & 1;
            o.drop_self_loops = flags & 2;
            o.dedupe = flags & 4;
            o.force_64bit_ids = flags & 8;
            o.relabel = Relabel::kOff;
            SCOPED_TRACE(testing::Message() << "threads " << threads << " n " << n << " m " << m << " weighted "
                                            << weighted << " sorted " << sorted << " flags " << flags);
            check_against_oracle(edges, weighted, o);
            if (flags == 7 || flags == 8) {
              o.relabel = Relabel::kAuto;  // sparse ids: relabelled automatically
              check_against_oracle(edges, weighted, o, Ids::kSparse);
              check_against_oracle(edges, weighted, o, Ids::kHuge);
            }
          }
        }
      }
    }
  }
  omp_set_num_threads(threads_before);
}

TEST(Builder, EdgeCasesMatchOracle) {
  BuildOptions all;
  all.symmetrize = true;
  all.drop_self_loops = true;
  all.dedupe = true;
  BuildOptions directed_clean = all;
  directed_clean.symmetrize = false;
  for (const BuildOptions& o : {BuildOptions{}, all, directed_clean}) {
    // One vertex with a loop; only self-loops; one edge repeated with
    // different weights (dedupe keeps the lightest, -2).
    check_against_oracle({{0, 0, 1.0f}}, true, o);
    check_against_oracle({{2, 2, 1.0f}, {0, 0, 2.0f}, {2, 2, 0.5f}, {1, 1, 3.0f}}, true, o);
    check_against_oracle({{1, 0, 4.0f}, {1, 0, -2.0f}, {1, 0, 7.0f}, {0, 1, 3.0f}, {1, 0, -2.0f}}, true, o);
  }
  for (const BuildOptions& o : {BuildOptions{}, all}) {
    AnyGraph any = build_graph(edges_of({}), o);  // no edges, no declared count: no vertices
    auto& g = std::get<Graph32>(any);
    EXPECT_EQ(g.num_vertices(), 0);
    EXPECT_EQ(g.num_arcs(), 0);
    EXPECT_TRUE(g.has_in_edges());
  }
  BuildOptions loops_only = all;
  BuildReport r;
  AnyGraph any = build_graph(edges_of({{3, 3}, {3, 3}, {0, 0}}), loops_only, &r);
  EXPECT_EQ(std::get<Graph32>(any).num_arcs(), 0);
  EXPECT_EQ(r.self_loops_removed, 3);
  EXPECT_EQ(r.duplicates_removed, 0);
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
