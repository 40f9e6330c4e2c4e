// Triangle counting (ordered intersection, degree relabelling) and its
// verifier: cliques and hand-drawn graphs with known totals and per-vertex
// counts, skewed Kronecker graphs (relabelling taken) with 32- and 64-bit
// ids, the three intersection strategies (pair by pair, marking, merging),
// refusals (directed graphs, parallel edges), and the entry point's input
// check once per cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <numeric>
#include <vector>

#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/tc/ordered_intersection.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "numagraph/verify/tc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::Arc;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

std::vector<Arc> clique(int k) {
  std::vector<Arc> e;
  for (int u = 0; u < k; ++u)
    for (int v = u + 1; v < k; ++v) e.push_back({static_cast<std::uint64_t>(u), static_cast<std::uint64_t>(v)});
  return e;
}

class TcIds : public ::testing::TestWithParam<bool> {};

TEST_P(TcIds, CliquesHaveBinomialCounts) {
  for (const int k : {3, 4, 5, 7}) {
    const AnyGraph any = make_graph(clique(k), static_cast<std::uint64_t>(k), false, GetParam());
    numagraph::visit(
        [&](const auto& g) {
          const std::int64_t expected = k * (k - 1) * (k - 2) / 6;
          EXPECT_EQ(kernels::triangles_ordered(g), expected);
          const auto per_vertex = kernels::triangles_per_vertex(g);
          for (int v = 0; v < k; ++v) EXPECT_EQ(per_vertex[v], (k - 1) * (k - 2) / 2);
          EXPECT_TRUE(verify::triangles(g, expected).ok);
          EXPECT_FALSE(verify::triangles(g, expected + 1).ok);
        },
        any);
  }
}

TEST_P(TcIds, PerVertexCountsOnHandDrawnGraph) {
  // Square 0-1-2-3 with diagonal 0-2 (two triangles), a pendant 4 on 2, isolated 5.
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {2, 4}}, 6, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        EXPECT_EQ(kernels::triangles_ordered(g), 2);
        const auto t = kernels::triangles_per_vertex(g);
        const std::vector<std::int64_t> expected = {2, 1, 2, 1, 0, 0};
        for (int v = 0; v < 6; ++v) EXPECT_EQ(t[v], expected[static_cast<std::size_t>(v)]) << "vertex " << v;
      },
      any);
}

TEST_P(TcIds, SkewedKroneckerIsRelabelledAndMatchesSerial) {
  const AnyGraph any = make_kron(12, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        bool relabelled = false;
        const std::int64_t count = kernels::triangles_ordered(g, &relabelled);
        EXPECT_TRUE(relabelled);
        EXPECT_GT(count, 0);
        EXPECT_TRUE(verify::triangles(g, count).ok);
        const auto per_vertex = kernels::triangles_per_vertex(g);
        const std::int64_t corners =
            std::accumulate(per_vertex.begin(), per_vertex.end(), std::int64_t{0});
        EXPECT_EQ(corners, 3 * count);
      },
      any);
}

// Graphs up to 2^27 vertices take the marking count, so the merging one
// (huge graphs) is run here directly; both on the same arrays, in the
// original numbering (not relabelled), against the serial verifier. The
// marking count also runs with every lower list marked (0), besides its
// default mix of marked and compared lists.
TEST_P(TcIds, MarkingAndMergingCountsAgree) {
  const AnyGraph any = make_kron(11, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        const std::int64_t n = g.num_vertices();
        const auto& off = g.out().offsets;
        const auto& nbr = g.out().neighbors;
        const std::int64_t marking = kernels::tc_detail::ordered_count_marking(off, nbr, n);
        const std::int64_t merging = kernels::tc_detail::ordered_count_merging(off, nbr, n);
        EXPECT_GT(marking, 0);
        EXPECT_EQ(marking, merging);
        EXPECT_EQ(kernels::tc_detail::ordered_count_marking(off, nbr, n, 0), marking);
        EXPECT_TRUE(verify::triangles(g, marking).ok);
      },
      any);
}

// A triangulated grid (each square split by one diagonal) has 2 triangles a
// square, and its lower lists hold at most 3 vertices, as a road network's
// mostly do: the compares count it, and so do marking and merging.
TEST_P(TcIds, ShortListsCountedByCompares) {
  const std::uint64_t rows = 37, cols = 53;
  std::vector<Arc> e;
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c) {
      const std::uint64_t v = r * cols + c;
      if (c + 1 < cols) e.push_back({v, v + 1});
      if (r + 1 < rows) e.push_back({v, v + cols});
      if (c + 1 < cols && r + 1 < rows) e.push_back({v, v + cols + 1});
    }
  const AnyGraph any = make_graph(e, rows * cols, false, GetParam());
  numagraph::visit(
      [&](const auto& g) {
        const std::int64_t expected = static_cast<std::int64_t>(2 * (rows - 1) * (cols - 1));
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const std::int64_t n = g.num_vertices();
        std::int64_t longest_lower = 0;
        for (std::int64_t u = 0; u < n; ++u) {
          std::int64_t lower = 0;
          for (const V v : g.out_neighbors(static_cast<V>(u))) lower += static_cast<std::int64_t>(v) < u;
          longest_lower = std::max(longest_lower, lower);
        }
        EXPECT_LE(longest_lower, kernels::tc_detail::kAllPairsMaxLower);
        EXPECT_EQ(kernels::triangles_ordered(g), expected);
        EXPECT_EQ(kernels::tc_detail::ordered_count_marking(g.out().offsets, g.out().neighbors, n, 0), expected);
        EXPECT_EQ(kernels::tc_detail::ordered_count_merging(g.out().offsets, g.out().neighbors, n), expected);
        EXPECT_TRUE(verify::triangles(g, expected).ok);
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, TcIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST(Tc, DirectedGraphIsRefused) {
  const AnyGraph any = make_graph(clique(3), 3, true, false);
  numagraph::visit(
      [](const auto& g) {
        EXPECT_THROW(kernels::triangles_ordered(g), UsageError);
        EXPECT_THROW(kernels::triangles_per_vertex(g), UsageError);
      },
      any);
}

TEST(Tc, ParallelEdgesAreRefused) {
  // Built without removing duplicates: the 0-1 edge appears twice.
  EdgeList e;
  const std::vector<std::uint64_t> src = {0, 1, 2, 0}, dst = {1, 2, 0, 1};
  e.src = NumaArray<std::uint64_t>(src.size());
  e.dst = NumaArray<std::uint64_t>(dst.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    e.src[i] = src[i];
    e.dst[i] = dst[i];
  }
  e.num_vertices = 3;
  e.undirected = true;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  const AnyGraph any = build_graph(std::move(e), b);
  numagraph::visit(
      [](const auto& g) {
        EXPECT_THROW(kernels::triangles_ordered(g), UsageError);
        EXPECT_THROW(kernels::triangles_per_vertex(g), UsageError);
        // The entry point checks once per graph and cache, and only a check
        // that passed is remembered: every call with the cache refuses.
        KernelCache cache;
        Execution x;
        x.cache = &cache;
        for (int call = 0; call < 2; ++call) {
          EXPECT_THROW(triangles(g, {}, x), UsageError);
          EXPECT_THROW(triangles(g, {.per_vertex = true}, x), UsageError);
        }
      },
      any);
}

TEST(Tc, EntryPointChecksOncePerGraphAndCache) {
  const AnyGraph any = make_graph(clique(5), 5, false, false);
  const auto& g = std::get<Graph32>(any);
  KernelCache cache;
  Execution x;
  x.cache = &cache;
  const auto first = triangles(g, {}, x);
  EXPECT_EQ(first.triangles, 10);
  EXPECT_GT(first.ran.setup_s, 0) << "the input check is the first call's setup";
  const auto second = triangles(g, {.per_vertex = true}, x);
  EXPECT_EQ(second.triangles, 10);
  EXPECT_EQ(second.ran.setup_s, 0) << "the check passed on this graph and cache";
}

TEST(Tc, SelfLoopsDoNotCount) {
  EdgeList e;
  const std::vector<std::uint64_t> src = {0, 1, 2, 1}, dst = {1, 2, 0, 1};
  e.src = NumaArray<std::uint64_t>(src.size());
  e.dst = NumaArray<std::uint64_t>(dst.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    e.src[i] = src[i];
    e.dst[i] = dst[i];
  }
  e.num_vertices = 3;
  e.undirected = true;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  const AnyGraph any = build_graph(std::move(e), b);
  numagraph::visit(
      [](const auto& g) {
        EXPECT_EQ(kernels::triangles_ordered(g), 1);
        EXPECT_TRUE(verify::triangles(g, 1).ok);
      },
      any);
}

}  // namespace
