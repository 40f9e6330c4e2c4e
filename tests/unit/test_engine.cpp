// The NUMA engine gives the same answers on every topology (1, 2, 4, 8 nodes,
// threads >= or < nodes), in numa and flat mode, and its accounting shows no
// remote random access for PageRank in numa mode.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <vector>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernels/bfs/engine_direction_optimizing.hpp"
#include "numagraph/kernels/bc/engine_work_queues.hpp"
#include "numagraph/kernels/bp/engine_per_arc.hpp"
#include "numagraph/kernels/spmv/engine_rows.hpp"
#include "numagraph/kernels/cc/engine_afforest.hpp"
#include "numagraph/kernels/cc/engine_label_propagation.hpp"
#include "numagraph/kernels/pr/engine_jacobi.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/sssp/engine_delta_stepping.hpp"

using namespace numagraph;
using engine::EngineMode;

namespace {

Graph32 kron(int scale, bool directed, bool weighted = false) {
  GeneratorOptions o;
  o.scale = scale;
  o.edge_factor = 8;
  o.weighted = weighted;
  EdgeList e = generate_kronecker(o);
  e.undirected = !directed;
  BuildOptions b;
  b.dedupe = true;
  b.drop_self_loops = true;
  return std::get<Graph32>(build_graph(std::move(e), b));
}

// A root that reaches something (Kronecker graphs have isolated vertices).
std::uint32_t first_vertex_with_edges(const Graph32& g) {
  std::uint32_t v = 0;
  while (g.out_degree(v) == 0) ++v;
  return v;
}

engine::Layout layout_for(const Graph32& g, int nodes, int threads) {
  return engine::Layout::make(nodes, engine::Layout::node_major(nodes, threads), g.num_vertices(),
                              g.in_arrays().offsets.data());
}

std::vector<int> serial_depths(const Graph32& g, std::uint32_t root) {
  std::vector<int> d(static_cast<std::size_t>(g.num_vertices()), -1);
  std::queue<std::uint32_t> q;
  d[root] = 0;
  q.push(root);
  while (!q.empty()) {
    auto u = q.front();
    q.pop();
    for (auto v : g.out_neighbors(u))
      if (d[v] < 0) {
        d[v] = d[u] + 1;
        q.push(v);
      }
  }
  return d;
}

std::vector<double> serial_pagerank(const Graph32& g, int iterations) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> r(n, 1.0 / n), c(n);
  for (int it = 0; it < iterations; ++it) {
    for (std::size_t v = 0; v < n; ++v) {
      auto d = g.out_degree(static_cast<std::uint32_t>(v));
      c[v] = d ? r[v] / d : 0;
    }
    for (std::size_t v = 0; v < n; ++v) {
      double s = 0;
      for (auto u : g.in_neighbors(static_cast<std::uint32_t>(v))) s += c[u];
      r[v] = 0.15 / n + 0.85 * s;
    }
  }
  return r;
}

std::vector<double> serial_dijkstra(const Graph32& g, std::uint32_t s) {
  std::vector<double> d(static_cast<std::size_t>(g.num_vertices()), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  d[s] = 0;
  q.push({0, s});
  while (!q.empty()) {
    auto [du, u] = q.top();
    q.pop();
    if (du > d[u]) continue;
    auto nb = g.out_neighbors(u);
    auto w = g.out_weights(u);
    for (std::size_t j = 0; j < nb.size(); ++j)
      if (du + w[j] < d[nb[j]]) {
        d[nb[j]] = du + w[j];
        q.push({d[nb[j]], nb[j]});
      }
  }
  return d;
}

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

struct Topo {
  int nodes, threads;
};
const Topo kTopologies[] = {{1, 1}, {1, 2}, {2, 2}, {4, 4}, {8, 8}, {8, 2}, {4, 3}};

}  // namespace

TEST(Layout, RangesCoverAllVerticesAndThreads) {
  Graph32 g = kron(10, false);
  for (auto [nodes, threads] : kTopologies) {
    auto l = layout_for(g, nodes, threads);
    ASSERT_EQ(l.node_bounds.front(), 0);
    ASSERT_EQ(l.node_bounds.back(), g.num_vertices());
    std::vector<int> seen(static_cast<std::size_t>(g.num_vertices()), 0);
    for (const auto& ranges : l.thread_ranges)
      for (auto [lo, hi] : ranges)
        for (auto v = lo; v < hi; ++v) ++seen[static_cast<std::size_t>(v)];
    for (int s : seen) ASSERT_EQ(s, 1);
  }
}

// The summary rebuilt after word-only sets says exactly which 256-vertex
// groups hold a set bit (including a last, partial group), and the
// summarized test agrees with the plain one everywhere.
TEST(Bitmap, RebuiltSummaryMarksExactlyTheGroupsWithBits) {
  const std::int64_t n = 70000;  // 273 full groups of 256 and a partial one
  engine::Bitmap bits(n);
  std::vector<char> expected(static_cast<std::size_t>(n), 0);
  std::uint64_t x = 12345;
  for (int k = 0; k < 300; ++k) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto i = static_cast<std::int64_t>((x >> 33) % static_cast<std::uint64_t>(n));
    if (k % 2) bits.set_bit_atomic(i);
    else bits.set_bit_owned(i);
    expected[static_cast<std::size_t>(i)] = 1;
  }
  bits.set_bit_owned(n - 1);
  expected[static_cast<std::size_t>(n - 1)] = 1;
  bits.rebuild_summary();
  for (std::int64_t g = 0; g * 256 < n; ++g) {
    bool any = false;
    for (std::int64_t i = g * 256; i < std::min(n, g * 256 + 256); ++i) any = any || expected[static_cast<std::size_t>(i)];
    const bool marked = (bits.summary()[g >> 6] >> (g & 63)) & 1;
    ASSERT_EQ(marked, any) << "group " << g;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(engine::test_bit(bits.words(), i), expected[static_cast<std::size_t>(i)] != 0) << i;
    ASSERT_EQ(engine::test_bit_summarized(bits.words(), bits.summary(), i), expected[static_cast<std::size_t>(i)] != 0) << i;
  }
  bits.clear();  // and a rebuild after clearing leaves no group marked
  bits.rebuild_summary();
  for (std::int64_t w = 0; w < bits.num_summary_words(); ++w) ASSERT_EQ(bits.summary()[w], 0u);
}

TEST(PartitionedGraph, PartsHoldEveryEdgeOnce) {
  Graph32 g = kron(10, true);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, true});
  eid_t pull = 0, push = 0;
  for (int k = 0; k < 4; ++k) {
    pull += static_cast<eid_t>(pg.pull(k).neighbors.size());
    push += static_cast<eid_t>(pg.push(k).neighbors.size());
    // Every push edge targets the part's own range.
    for (auto v : pg.push(k).neighbors.span()) {
      ASSERT_GE(v, pg.layout().node_bounds[k]);
      ASSERT_LT(v, pg.layout().node_bounds[k + 1]);
    }
  }
  EXPECT_EQ(pull, g.num_arcs());
  EXPECT_EQ(push, g.num_arcs());
}

TEST(NumaEngine, BfsDepthsMatchOnEveryTopologyAndMode) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);
    const std::uint32_t root = first_vertex_with_edges(g);
    const auto expected = serial_depths(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::NoAccounting acc;
        auto r = kernels::bfs_numa(pg, root, {}, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
          ASSERT_EQ(r.depth[v], expected[v]) << "v=" << v << " nodes=" << nodes;
          if (v != root && r.depth[v] > 0) {  // parent is a real in-neighbour one level up
            auto p = static_cast<std::uint32_t>(r.parent[v]);
            ASSERT_EQ(r.depth[p] + 1, r.depth[v]);
            auto nb = g.out_neighbors(p);
            ASSERT_TRUE(std::binary_search(nb.begin(), nb.end(), static_cast<std::uint32_t>(v)));
          }
        }
      }
    }
  }
}

// One workspace (and one result) across roots, modes and partitioned graphs:
// the mapper's recycled lists and bitmaps, reused from search to search, give
// every search the serial depths.
TEST(NumaEngine, BfsWorkspaceReusedAcrossRootsModesAndGraphs) {
  kernels::NumaBfsWorkspace<std::uint32_t> ws;
  kernels::BfsResult<std::uint32_t> r;
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);
    for (auto [nodes, threads] : {std::pair{1, 2}, std::pair{4, 4}}) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared})
        for (std::uint32_t root = 0, searched = 0; searched < 4 && root < g.num_vertices(); ++root) {
          if (g.out_degree(root) == 0) continue;
          ++searched;
          engine::NoAccounting acc;
          kernels::bfs_numa(pg, root, {}, mode, acc, r, &ws);
          const auto expected = serial_depths(g, root);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_EQ(r.depth[v], expected[v]) << "v=" << v << " root=" << root << " nodes=" << nodes;
        }
    }
  }
}

TEST(NumaEngine, PageRankMatchesSerialOnEveryTopology) {
  Graph32 g = kron(10, true);
  const auto expected = serial_pagerank(g, 10);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
      engine::NoAccounting acc;
      kernels::PageRankOptions o;
      o.max_iterations = 10;
      o.tolerance = 1e-13;  // below 1e-6: double contributions, as the serial sums; 10 iterations stay above it
      auto r = kernels::pagerank_numa(pg, o, mode, acc);
      EXPECT_EQ(r.iterations, 10);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v)
        ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, std::fabs(expected[v])));
    }
  }
}

// Cache blocking on the engine: each node's pull part cut by source range in
// its own memory. The engine sums the same pieces in the same order as the
// flat blocked kernel, so scores agree to rounding on every topology, and a
// blocked sweep still reads nothing remote at random.
TEST(NumaEngine, BlockedPageRankMatchesFlatBlockedOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed);
    kernels::PageRankOptions flat;
    flat.tolerance = 0;
    flat.max_iterations = 6;
    flat.cache_block_bytes = 64 * sizeof(float);  // 16 ranges of 64 sources
    const auto expected = kernels::pagerank_pull_jacobi(g, flat);
    ASSERT_EQ(expected.cache_segments, 16);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::Accounting acc(pg.layout());
        auto r = kernels::pagerank_numa(pg, flat, mode, acc);  // the same blocks: 64 sources each
        EXPECT_EQ(r.cache_segments, 16);
        if (mode == EngineMode::kNuma) {
          EXPECT_EQ(acc.total().remote_random, 0);
        }
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_NEAR(r.scores[v], expected.scores[v], 1e-12 * std::fabs(expected.scores[v]) + 1e-300)
              << nodes << " nodes, vertex " << v;
      }
    }
  }
}

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

TEST(NumaEngine, PageRankNumaModeHasNoRemoteRandomAccess) {
  Graph32 g = kron(10, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8));
  kernels::PageRankOptions o;
  o.max_iterations = 3;
  o.tolerance = 0;
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::pagerank_numa(pg, o, EngineMode::kNuma, numa_acc);
  kernels::pagerank_numa(pg, o, EngineMode::kShared, flat_acc);
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(numa_acc.total().local_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, flat_acc.total().local_random);
}

TEST(NumaEngine, BfsNumaModeCutsRemoteRandomAccess) {
  Graph32 g = kron(11, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kNuma, numa_acc);
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kShared, flat_acc);
  EXPECT_LT(numa_acc.total().remote_random * 5, flat_acc.total().remote_random);
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

TEST(NumaEngine, SsspMatchesDijkstraOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed, /*weighted=*/true);
    const std::uint32_t root = first_vertex_with_edges(g);
    const auto expected = serial_dijkstra(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        // 1.1 does not divide the distances evenly; 0.01 puts entries
        // beyond the bins' window (weights up to 255: 25,500 buckets ahead).
        // Whole-number weights: the search runs on 32-bit distances unless
        // the workspace says otherwise; both must give Dijkstra's answer.
        for (bool narrow : {true, false}) {
          for (double delta : {8.0, 1000.0, 1.1, 0.01}) {
            engine::NoAccounting acc;
            kernels::SsspWorkspace ws;
            ws.narrow = narrow;
            auto r = kernels::sssp_numa(pg, root, delta, mode, acc, &ws);
            for (std::int64_t v = 0; v < g.num_vertices(); ++v)
              ASSERT_EQ(r.dist[v], expected[v])
                  << "v=" << v << " nodes=" << nodes << " delta=" << delta << " narrow=" << narrow;
          }
        }
      }
    }
  }
}

// Relaxations write only local targets; the one remote random access left is
// the staleness read of another node's hub entry (engine_delta_stepping.hpp),
// a small share of the accesses, and far fewer than the flat kernel's.
TEST(NumaEngine, SsspNumaModeReadsRemotelyOnlyToSkipStaleHubs) {
  Graph32 g = kron(10, false, true);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kNuma, numa_acc);
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kShared, flat_acc);
  const auto numa = numa_acc.total(), flat = flat_acc.total();
  const auto numa_all = numa.local_random + numa.local_sequential + numa.remote_random + numa.remote_sequential;
  EXPECT_LT(numa.remote_random * 100, numa_all);
  EXPECT_LT(numa.remote_random * 20, flat.remote_random);
  EXPECT_GT(flat.remote_random, 0);
}

namespace {
// Serial Brandes: raw sums over the sources (each ordered pair once).
std::vector<double> serial_brandes(const Graph32& g, const std::vector<std::uint32_t>& sources) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> bc(n, 0);
  for (auto s : sources) {
    std::vector<int> d(n, -1);
    std::vector<double> sigma(n, 0), delta(n, 0);
    std::vector<std::uint32_t> order;
    std::queue<std::uint32_t> q;
    d[s] = 0;
    sigma[s] = 1;
    q.push(s);
    while (!q.empty()) {
      auto u = q.front();
      q.pop();
      order.push_back(u);
      for (auto v : g.out_neighbors(u)) {
        if (d[v] < 0) {
          d[v] = d[u] + 1;
          q.push(v);
        }
        if (d[v] == d[u] + 1) sigma[v] += sigma[u];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      auto w = *it;
      for (auto v : g.out_neighbors(w))
        if (d[v] == d[w] + 1) delta[w] += sigma[w] / sigma[v] * (1 + delta[v]);
      if (w != s) bc[w] += delta[w];
    }
  }
  return bc;
}
}  // namespace

TEST(NumaEngine, BetweennessMatchesSerialBrandesOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(9, directed);
    std::vector<std::uint32_t> sources;
    for (std::uint32_t v = 0; sources.size() < 4; ++v)
      if (g.out_degree(v) > 0) sources.push_back(v);
    const auto expected = serial_brandes(g, sources);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
        engine::NoAccounting acc;
        auto r = kernels::betweenness_numa(pg, sources, {}, {}, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, expected[v]))
              << "v=" << v << " nodes=" << nodes << " directed=" << directed;
      }
    }
  }
}

TEST(NumaEngine, BetweennessNumaHasNoRemoteRandomAccess) {
  Graph32 g = kron(10, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  // One source on the first node, one on the last (not thread 0's node).
  std::vector<std::uint32_t> sources{1};
  for (auto v = static_cast<std::uint32_t>(g.num_vertices() - 1); sources.size() < 2; --v)
    if (g.out_degree(v) > 0) sources.push_back(v);
  ASSERT_EQ(pg.layout().node_of_vertex(sources[1]), 7);
  kernels::StealPolicy steal;
  steal.across_nodes = false;  // 8 threads time-sliced on this machine's cores
  kernels::betweenness_numa(pg, sources, {}, steal, EngineMode::kNuma, numa_acc);
  kernels::betweenness_numa(pg, sources, {}, steal, EngineMode::kShared, flat_acc);
  // Every random access of the numa kernel is local: discoveries and path
  // counts in the forward, successor coefficients in the backward, and the
  // sources are finished by their own node.
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, 0);
}

TEST(WorkQueues, EveryItemOnceAndStealingFollowsDistance) {
  // 4 nodes x 2 threads; node 0 is close to node 1, far from 2 and 3.
  std::vector<int> thread_node{0, 0, 1, 1, 2, 2, 3, 3};
  std::vector<int> owner{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::vector<int>> dist{{10, 12, 30, 30}, {12, 10, 30, 30}, {30, 30, 10, 12}, {30, 30, 12, 10}};
  auto order = parallel::steal_order_by_distance(thread_node, owner, thread_node, dist);
  EXPECT_EQ(order[0], (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  // Ties at one distance go by XOR with the thief's id (seed 000's victim = tid ^ d).
  EXPECT_EQ(order[5], (std::vector<int>{4, 7, 6, 1, 0, 3, 2}));
  parallel::WorkQueues q(owner, order, 16);
  const std::int64_t items = 10000;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  for (int t = 0; t < 8; ++t) ranges.emplace_back(items * t / 8, items * (t + 1) / 8);
  q.reset(ranges);
  std::vector<std::atomic<int>> seen(items);
#pragma omp parallel num_threads(8)
  q.drain(omp_get_thread_num(), [&](std::int64_t b, std::int64_t e, int) {
    for (auto i = b; i < e; ++i) seen[static_cast<std::size_t>(i)]++;
  });
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
}

TEST(EdgeMap, LigraThresholdPicksBothDirectionsAndKeepsDepths) {
  Graph32 g = kron(11, false);
  const std::uint32_t root = first_vertex_with_edges(g);
  const auto expected = serial_depths(g, root);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, false});
  engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
  NumaArray<std::int32_t> parent(static_cast<std::size_t>(g.num_vertices()));
  NumaArray<std::int32_t> depth(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    parent[v] = -(g.out_degree(static_cast<std::uint32_t>(v)) + 1);  // BfsStep's unvisited mark
    depth[v] = -1;
  }
  parent[root] = root;
  depth[root] = 0;
  engine::SparseFrontier<std::uint32_t> frontier{root};
  bool pushed = false, pulled = false;
  engine::NoAccounting acc;
  for (std::int32_t level = 0; !frontier.empty(); ++level) {
    kernels::detail::BfsStep<std::uint32_t> step{parent.data(), depth.data(), level + 1};
    frontier = mapper.edge_map(frontier, step, {}, acc);
    (mapper.last_direction() == engine::Direction::kPush ? pushed : pulled) = true;
  }
  EXPECT_TRUE(pushed);
  EXPECT_TRUE(pulled);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(depth[v], expected[v]);
}

namespace {
// A functor without the degree-reporting overloads: edge_map reads the
// degrees itself (the other branch of push and pull).
struct ReachStep {
  std::int32_t* level;
  std::int32_t next;
  bool cond(std::uint32_t v) const { return level[v] < 0; }
  bool update(std::uint32_t, std::uint32_t v) {
    level[v] = next;
    return true;
  }
  bool update_atomic(std::uint32_t, std::uint32_t v) {
    return parallel::compare_and_swap(level[v], std::int32_t{-1}, next);
  }
};
}  // namespace

// Every forced direction sequence gives BFS levels; each returned frontier's
// size and out-degree sum match the level's vertices, dense or not.
TEST(EdgeMap, FrontierSizesAndDegreesInEveryDirectionMix) {
  Graph32 g = kron(10, true);
  const std::uint32_t root = first_vertex_with_edges(g);
  const auto expected = serial_depths(g, root);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
    for (int pattern = 0; pattern < 4; ++pattern) {  // bit 0: pull on odd levels, bit 1: on even ones
      engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
      NumaArray<std::int32_t> level(static_cast<std::size_t>(g.num_vertices()));
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) level[v] = -1;
      level[root] = 0;
      engine::NoAccounting acc;
      auto frontier = mapper.make_frontier({root});
      for (std::int32_t d = 0; !frontier.empty(); ++d) {
        ReachStep step{level.data(), d + 1};
        engine::EdgeMapOptions em;
        em.direction = (pattern >> (d % 2)) & 1 ? engine::Direction::kPull : engine::Direction::kPush;
        frontier = mapper.edge_map(frontier, step, em, acc);
        ASSERT_EQ(frontier.dense, em.direction == engine::Direction::kPull);
        const auto list = mapper.to_list(frontier);
        std::int64_t size = 0;
        eid_t degrees = 0;
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          if (expected[v] == d + 1) {
            ++size;
            degrees += g.out_degree(static_cast<std::uint32_t>(v));
          }
        ASSERT_EQ(frontier.size, size) << "level " << d + 1 << " nodes=" << nodes;
        ASSERT_EQ(static_cast<std::int64_t>(list.size()), size);
        ASSERT_EQ(frontier.out_degrees, degrees) << "level " << d + 1 << " nodes=" << nodes;
        for (auto v : list) ASSERT_EQ(expected[v], d + 1);
      }
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(level[v], expected[v]) << "v=" << v;
    }
  }
}

// A dense frontier lives in the mapper: passing an old one back is refused.
TEST(EdgeMap, StaleDenseFrontierIsRefused) {
  Graph32 g = kron(9, false);
  const std::uint32_t root = first_vertex_with_edges(g);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 2, 2), {true, false});
  engine::EdgeMapper<std::uint32_t> mapper(pg, EngineMode::kNuma);
  NumaArray<std::int32_t> level(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) level[v] = -1;
  level[root] = 0;
  engine::NoAccounting acc;
  engine::EdgeMapOptions pull;
  pull.direction = engine::Direction::kPull;
  ReachStep first{level.data(), 1};
  const auto dense = mapper.edge_map(mapper.make_frontier({root}), first, pull, acc);
  ASSERT_TRUE(dense.dense);
  ReachStep second{level.data(), 2};
  const auto next = mapper.edge_map(dense, second, pull, acc);
  EXPECT_THROW(mapper.edge_map(dense, second, pull, acc), UsageError);
  EXPECT_THROW(mapper.to_list(dense), UsageError);
  EXPECT_NO_THROW(mapper.to_list(next));
}

namespace {
// Exact marginals P(x_v = 1) of the BP model by enumerating all 2^n states.
std::vector<double> brute_force_marginals(const Graph32& g, const kernels::bp::Model& m) {
  const int n = static_cast<int>(g.num_vertices());
  std::vector<double> p1(static_cast<std::size_t>(n), 0);
  double z = 0;
  for (std::uint32_t s = 0; s < (1u << n); ++s) {
    double w = 1;
    for (int v = 0; v < n; ++v) {
      const double p = kernels::bp::belief(kernels::bp::prior_log_odds(m, static_cast<std::uint64_t>(v)));
      w *= (s >> v & 1) ? p : 1 - p;
      for (auto u : g.out_neighbors(static_cast<std::uint32_t>(v)))
        if (u > static_cast<std::uint32_t>(v)) w *= ((s >> v & 1) == (s >> u & 1)) ? m.coupling : 1 - m.coupling;
    }
    z += w;
    for (int v = 0; v < n; ++v)
      if (s >> v & 1) p1[static_cast<std::size_t>(v)] += w;
  }
  for (auto& x : p1) x /= z;
  return p1;
}

Graph32 from_pairs(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pairs) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(pairs.size());
  e.dst = NumaArray<std::uint64_t>(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) std::tie(e.src[i], e.dst[i]) = pairs[i];
  e.undirected = true;
  return std::get<Graph32>(build_graph(std::move(e), {}));
}
}  // namespace

TEST(NumaEngine, BeliefPropagationIsExactOnTrees) {
  // A 9-vertex tree of diameter 4: BP converges to the exact marginals.
  Graph32 g = from_pairs({{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {5, 6}, {5, 7}, {2, 8}});
  kernels::bp::Model m;
  m.iterations = 10;
  const auto exact = brute_force_marginals(g, m);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    for (auto mode : {EngineMode::kNuma, EngineMode::kShared}) {
      engine::NoAccounting acc;
      auto r = kernels::belief_propagation_numa(pg, m, mode, acc);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_NEAR(r.belief[v], exact[v], 1e-12);
    }
  }
}

TEST(NumaEngine, BeliefPropagationSameOnEveryTopologyAndLocal) {
  Graph32 g = kron(10, false);
  kernels::bp::Model m;
  auto reference_pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 1, 1));
  engine::NoAccounting none;
  auto reference = kernels::belief_propagation_numa(reference_pg, m, EngineMode::kShared, none);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    engine::Accounting acc(pg.layout());
    auto r = kernels::belief_propagation_numa(pg, m, EngineMode::kNuma, acc);
    EXPECT_EQ(acc.total().remote_random, 0);
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_EQ(r.belief[v], reference.belief[v]);
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
