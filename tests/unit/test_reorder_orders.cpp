// The vertex orders (reorder/): each is a permutation on every kind of graph,
// each keeps its own promise (degree descending, DBG stable in buckets, RCM
// narrows the band, ADL reverses a BFS), and apply_permutation renumbers a
// graph into an isomorphic one. Oracles: serial checks written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "numagraph/reorder/adl.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/reorder/dbg.hpp"
#include "numagraph/reorder/degree.hpp"
#include "numagraph/reorder/rcm.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::Arc;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// Random graph: n vertices, m arcs, weights 1..9; isolated vertices likely.
AnyGraph random_graph(std::uint64_t n, std::size_t m, bool directed, bool force64, bool weighted,
                      std::uint32_t seed, bool in_edges = true) {
  std::mt19937 rng(seed);
  std::vector<Arc> arcs;
  for (std::size_t i = 0; i < m; ++i)
    arcs.push_back({rng() % n, rng() % n, static_cast<float>(1 + rng() % 9)});
  return make_graph(arcs, n, directed, force64, weighted ? WeightKind::kInteger : WeightKind::kNone, in_edges);
}

// A width x height grid (4-neighbour) with its ids shuffled.
AnyGraph shuffled_grid(std::uint64_t width, std::uint64_t height, std::uint32_t seed) {
  const std::uint64_t n = width * height;
  std::vector<std::uint64_t> id(n);
  std::iota(id.begin(), id.end(), 0);
  std::shuffle(id.begin(), id.end(), std::mt19937(seed));
  std::vector<Arc> arcs;
  for (std::uint64_t y = 0; y < height; ++y)
    for (std::uint64_t x = 0; x < width; ++x) {
      if (x + 1 < width) arcs.push_back({id[y * width + x], id[y * width + x + 1]});
      if (y + 1 < height) arcs.push_back({id[y * width + x], id[(y + 1) * width + x]});
    }
  return make_graph(arcs, n, false, false);
}

template <typename V>
void expect_permutation(const NumaArray<V>& old_of_new, std::int64_t n) {
  ASSERT_EQ(old_of_new.size(), static_cast<std::size_t>(n));
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (V v : old_of_new) {
    ASSERT_LT(static_cast<std::int64_t>(v), n);
    ASSERT_FALSE(seen[v]) << "vertex " << v << " twice";
    seen[v] = true;
  }
}

// Arcs (source, target, weight) of one direction, as a sorted multiset.
template <typename V>
std::vector<std::tuple<std::uint64_t, std::uint64_t, float>> arcs_of(const CSRGraph<V>& g, const CSRArrays<V>& a) {
  std::vector<std::tuple<std::uint64_t, std::uint64_t, float>> r;
  for (std::int64_t u = 0; u < g.num_vertices(); ++u)
    for (eid_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e)
      r.emplace_back(u, a.neighbors[e], a.weights.empty() ? 0.f : a.weights[e]);
  std::sort(r.begin(), r.end());
  return r;
}

// h = g renumbered by old_of_new: every arc (and weight) maps exactly, lists sorted.
template <typename V>
void expect_isomorphic(const CSRGraph<V>& g, const CSRGraph<V>& h, const reorder::Permutation<V>& p) {
  ASSERT_EQ(h.num_vertices(), g.num_vertices());
  ASSERT_EQ(h.num_arcs(), g.num_arcs());
  EXPECT_EQ(h.directed(), g.directed());
  EXPECT_EQ(h.weight_kind(), g.weight_kind());
  EXPECT_EQ(h.num_self_loops(), g.num_self_loops());
  EXPECT_EQ(h.has_in_edges(), g.has_in_edges());
  auto check = [&](const CSRArrays<V>& ga, const CSRArrays<V>& ha) {
    auto mapped = arcs_of(g, ga);
    for (auto& [u, v, w] : mapped) {
      u = p.to_new(static_cast<V>(u));
      v = p.to_new(static_cast<V>(v));
    }
    std::sort(mapped.begin(), mapped.end());
    EXPECT_EQ(arcs_of(h, ha), mapped);
    for (std::int64_t u = 0; u < h.num_vertices(); ++u)
      EXPECT_TRUE(std::is_sorted(ha.neighbors.begin() + ha.offsets[u], ha.neighbors.begin() + ha.offsets[u + 1]));
  };
  check(g.out(), h.out());
  if (g.directed() && g.has_in_edges()) check(g.in_arrays(), h.in_arrays());
}

// Every order on one graph: a permutation, and applying it gives an isomorphic graph.
template <typename V>
void expect_orders_valid(const CSRGraph<V>& g, const std::vector<reorder::Order>& orders) {
  for (reorder::Order o : orders) {
    SCOPED_TRACE(reorder::to_string(o));
    reorder::OrderStats stats;
    auto p = reorder::compute_order(g, {o, -1}, &stats);
    if (g.num_vertices() == 0) {
      EXPECT_TRUE(p.identity());
      continue;
    }
    expect_permutation(p.old_of_new, g.num_vertices());
    EXPECT_GE(stats.seconds, 0);
    auto h = reorder::apply_permutation(g, p);
    expect_isomorphic(g, h, p);
  }
}

const std::vector<reorder::Order> kBuilt = {reorder::Order::kDegree, reorder::Order::kDbg, reorder::Order::kRcm,
                                            reorder::Order::kAdl, reorder::Order::kAdlSerial};

// max |new(u) - new(v)| over arcs of g renumbered by old_of_new (empty: identity).
template <typename V>
std::int64_t bandwidth(const CSRGraph<V>& g, const NumaArray<V>& old_of_new) {
  const std::int64_t n = g.num_vertices();
  std::vector<std::int64_t> at(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) at[old_of_new.empty() ? i : old_of_new[i]] = i;
  std::int64_t bw = 0;
  for (std::int64_t u = 0; u < n; ++u)
    for (V v : g.out_neighbors(static_cast<V>(u))) bw = std::max(bw, std::abs(at[u] - at[v]));
  return bw;
}

// Hop counts from root over out-edges (-1: unreached), serial queue BFS.
template <typename V>
std::vector<std::int64_t> hops(const CSRGraph<V>& g, V root) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(g.num_vertices()), -1);
  std::vector<V> q = {root};
  d[root] = 0;
  for (std::size_t i = 0; i < q.size(); ++i)
    for (V w : g.out_neighbors(q[i]))
      if (d[w] < 0) {
        d[w] = d[q[i]] + 1;
        q.push_back(w);
      }
  return d;
}

template <typename V>
std::vector<std::uint64_t> as_vector(const NumaArray<V>& a) {
  return std::vector<std::uint64_t>(a.begin(), a.end());
}

TEST(ReorderOrders, PermutationsOnEveryKindOfGraph) {
  for (bool force64 : {false, true}) {
    for (bool directed : {false, true}) {
      for (bool weighted : {false, true}) {
        SCOPED_TRACE(testing::Message() << "64-bit " << force64 << " directed " << directed << " weighted " << weighted);
        // Sparse: many components and isolated vertices.
        AnyGraph g = random_graph(300, directed ? 250 : 150, directed, force64, weighted, 7);
        visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, g);
        AnyGraph dense = random_graph(200, 2000, directed, force64, weighted, 8);
        visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, dense);
      }
    }
    AnyGraph no_in = random_graph(100, 300, true, force64, false, 9, /*in_edges=*/false);
    visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, no_in);
    AnyGraph one = make_graph({}, 1, false, force64);
    visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, one);
    AnyGraph empty = make_graph({}, 0, false, force64);
    visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, empty);
  }
  AnyGraph kron = make_kron(10, false, false);
  visit([&](const auto& gg) { expect_orders_valid(gg, kBuilt); }, kron);
}

TEST(ReorderOrders, DegreeOrderIsDescendingWithTiesById) {
  AnyGraph any = random_graph(500, 3000, true, false, false, 11);
  const auto& g = std::get<Graph32>(any);
  auto p = reorder::compute_order(g, {reorder::Order::kDegree, -1});
  for (std::size_t i = 1; i < p.size(); ++i) {
    const auto a = p.old_of_new[i - 1], b = p.old_of_new[i];
    ASSERT_TRUE(g.out_degree(a) > g.out_degree(b) || (g.out_degree(a) == g.out_degree(b) && a < b)) << i;
  }
}

TEST(ReorderOrders, DbgGroupsByDegreeAndKeepsOrderInsideBuckets) {
  AnyGraph any = make_kron(12, false, false);
  const auto& g = std::get<Graph32>(any);
  auto p = reorder::compute_order(g, {reorder::Order::kDbg, -1});
  const double avg = static_cast<double>(g.num_arcs()) / static_cast<double>(g.num_vertices());
  std::set<int> used;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const auto a = p.old_of_new[i - 1], b = p.old_of_new[i];
    const int ba = reorder::dbg_bucket(g.out_degree(a), avg), bb = reorder::dbg_bucket(g.out_degree(b), avg);
    used.insert(bb);
    ASSERT_TRUE(ba < bb || (ba == bb && a < b)) << i;
  }
  EXPECT_GE(used.size(), 4u);  // a Kronecker graph fills several buckets
  // The bucket bounds: 32a, 16a, ... a/2.
  EXPECT_EQ(reorder::dbg_bucket(64, 2), 0);
  EXPECT_EQ(reorder::dbg_bucket(63, 2), 1);
  EXPECT_EQ(reorder::dbg_bucket(2, 2), 5);
  EXPECT_EQ(reorder::dbg_bucket(1, 2), 6);
  EXPECT_EQ(reorder::dbg_bucket(0, 2), 7);
}

TEST(ReorderOrders, RcmNarrowsTheBandOfShuffledGridsAndPaths) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    AnyGraph grid = shuffled_grid(40, 25, seed);
    const auto& g = std::get<Graph32>(grid);
    auto p = reorder::compute_order(g, {reorder::Order::kRcm, -1});
    const std::int64_t bw = bandwidth(g, p.old_of_new);
    EXPECT_LE(bw, bandwidth(g, NumaArray<std::uint32_t>{}));
    EXPECT_LE(bw, 2 * 25) << "a 40 x 25 grid has a band of about 25";
    AnyGraph path = shuffled_grid(200, 1, seed);
    const auto& pg = std::get<Graph32>(path);
    EXPECT_EQ(bandwidth(pg, reorder::compute_order(pg, {reorder::Order::kRcm, -1}).old_of_new), 1);
  }
}

// 0-1, 0-2, 1-3, 2-3, 3-4 | 5-6 | 7 (isolated). Worked by hand in the comments.
AnyGraph small_components(bool force64) {
  return make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {5, 6}}, 8, false, force64);
}

TEST(ReorderOrders, SerialAdlAndRcmMatchHandWorkedExamples) {
  for (bool force64 : {false, true}) {
    AnyGraph any = small_components(force64);
    visit(
        [](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          // Root 3 (degree 3): BFS 3, 1, 2, 4, 0; then 5 (degree 1, smaller id than 6), 6; then 7.
          EXPECT_EQ(as_vector(reorder::adl_order(g, -1, false)), (std::vector<std::uint64_t>{7, 6, 5, 0, 4, 2, 1, 3}));
          EXPECT_EQ(as_vector(reorder::adl_order(g, 0, false)), (std::vector<std::uint64_t>{7, 6, 5, 4, 3, 2, 1, 0}));
          // RCM from 3: levels {3} {1,2,4} {0} (depth 2, width 3): jump to 0, whose levels
          // {0} {1,2} {3} {4} go deeper (3) and no wider (2); jump to 4: {4} {3} {1,2} {0},
          // as deep and as wide, so the search ends there. CM: 4, 3, 1, 2, 0; then from 5
          // (degree 1, smaller id than 6) a jump to 6, as deep and as wide: 6, 5; then 7;
          // reversed.
          EXPECT_EQ(as_vector(reorder::rcm_order(g, -1)), (std::vector<std::uint64_t>{7, 5, 6, 0, 2, 1, 3, 4}));
          // The parallel variant on one thread is the serial one.
          const int threads = parallel::max_threads();
          parallel::set_threads(1);
          auto one = as_vector(reorder::adl_order(g, -1, true));
          parallel::set_threads(threads);
          EXPECT_EQ(one, as_vector(reorder::adl_order(g, -1, false)));
          (void)sizeof(V);
        },
        any);
  }
}

TEST(ReorderOrders, AdlDepthNeverIncreasesAlongNewIds) {
  AnyGraph grid = shuffled_grid(60, 50, 5);
  AnyGraph kron = make_kron(13, false, false);
  for (AnyGraph* any : {&grid, &kron}) {
    const auto& g = std::get<Graph32>(*any);
    for (reorder::Order o : {reorder::Order::kAdl, reorder::Order::kAdlSerial}) {
      SCOPED_TRACE(reorder::to_string(o));
      const std::uint32_t root = 17;
      auto p = reorder::compute_order(g, {o, root});
      const auto d = hops(g, root);
      // The root's component is searched first, so it ends up last.
      std::int64_t reached = 0;
      for (auto x : d) reached += x >= 0;
      const std::size_t n = p.size(), first = n - static_cast<std::size_t>(reached);
      EXPECT_EQ(p.old_of_new[n - 1], root);
      for (std::size_t i = first; i < n; ++i) {
        ASSERT_GE(d[p.old_of_new[i]], 0) << i;
        if (i > first) {
          ASSERT_GE(d[p.old_of_new[i - 1]], d[p.old_of_new[i]]) << i;
        }
      }
    }
  }
}

TEST(ReorderOrders, RcmAndAdlFollowInEdgesOfDirectedGraphs) {
  // 1 -> 0 <- 2: from 0, out-edges reach nothing; in-edges reach 1 and 2.
  AnyGraph any = make_graph({{1, 0}, {2, 0}}, 3, true, false);
  const auto& g = std::get<Graph32>(any);
  EXPECT_EQ(as_vector(reorder::adl_order(g, 0, false)), (std::vector<std::uint64_t>{2, 1, 0}));
  EXPECT_EQ(bandwidth(g, reorder::rcm_order(g, 0)), 1);
}

TEST(ReorderOrders, RootOutOfRangeIsAUsageErrorNamingTheRange) {
  AnyGraph any = random_graph(10, 20, false, false, false, 1);
  const auto& g = std::get<Graph32>(any);
  try {
    reorder::compute_order(g, {reorder::Order::kDegree, 10});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("0..9"), std::string::npos) << e.what();
  }
  EXPECT_THROW(reorder::compute_order(g, {reorder::Order::kDegree, -5}), UsageError);
  for (reorder::Order o : kBuilt) EXPECT_THROW(reorder::compute_order(g, {o, 10}), UsageError);
  EXPECT_TRUE(reorder::compute_order(g, {reorder::Order::kNone, -1}).identity());
}

TEST(ReorderApply, CompositionLabelsAndWeights) {
  // Directed, weighted, relabelled: ids 100, 200, 300, 400 become 0..3.
  EdgeList e;
  const std::vector<std::uint64_t> src = {100, 200, 300, 400, 100}, dst = {200, 300, 400, 100, 300};
  e.src = NumaArray<std::uint64_t>(src.size());
  e.dst = NumaArray<std::uint64_t>(src.size());
  e.weights = NumaArray<weight_t>(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    e.src[i] = src[i];
    e.dst[i] = dst[i];
    e.weights[i] = static_cast<float>(i + 1);
  }
  e.weight_kind = WeightKind::kReal;
  BuildOptions b;
  b.relabel = Relabel::kOn;
  AnyGraph any = build_graph(std::move(e), b);
  const auto& g = std::get<Graph32>(any);
  ASSERT_TRUE(g.relabelled());
  NumaArray<std::uint32_t> first(4), second(4);
  const std::uint32_t f[] = {2, 0, 3, 1}, s[] = {3, 1, 0, 2};
  for (int i = 0; i < 4; ++i) first[i] = f[i], second[i] = s[i];
  auto p1 = reorder::Permutation<std::uint32_t>::from_old_of_new(std::move(first));
  auto h1 = reorder::apply_permutation(g, p1);
  expect_isomorphic(g, h1, p1);
  auto p2 = reorder::Permutation<std::uint32_t>::from_old_of_new(std::move(second));
  auto h2 = reorder::apply_permutation(h1, p2);
  expect_isomorphic(h1, h2, p2);
  for (std::uint32_t i = 0; i < 4; ++i) {
    // Vertex i of h2 is vertex s[i] of h1, which is vertex f[s[i]] of g.
    EXPECT_EQ(h2.permutation().to_old(i), f[s[i]]);
    EXPECT_EQ(h2.permutation().to_new(f[s[i]]), i);
    EXPECT_EQ(h2.label(i), g.label(f[s[i]]));
  }
  // The weight of arc 100 -> 200 (weight 1) follows it.
  const std::uint32_t a = h2.permutation().to_new(0), bb = h2.permutation().to_new(1);
  ASSERT_EQ(g.label(0), 100u);
  ASSERT_EQ(g.label(1), 200u);
  auto nb = h2.out_neighbors(a);
  auto it = std::find(nb.begin(), nb.end(), bb);
  ASSERT_NE(it, nb.end());
  EXPECT_EQ(h2.out_weights(a)[static_cast<std::size_t>(it - nb.begin())], 1.f);
  // Identity: a copy, not reordered.
  auto same = reorder::apply_permutation(g, reorder::Permutation<std::uint32_t>{});
  EXPECT_FALSE(same.reordered());
  expect_isomorphic(g, same, reorder::Permutation<std::uint32_t>{});
  // Wrong size: refused.
  NumaArray<std::uint32_t> three(3);
  for (std::uint32_t i = 0; i < 3; ++i) three[i] = i;
  EXPECT_THROW(reorder::apply_permutation(g, reorder::Permutation<std::uint32_t>::from_old_of_new(std::move(three))),
               UsageError);
}

}  // namespace
