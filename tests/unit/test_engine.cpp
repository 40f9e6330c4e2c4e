// The NUMA engine gives the same answers on every topology (1, 2, 4, 8 nodes,
// threads >= or < nodes), in numa and flat mode, and its accounting shows no
// remote random access for PageRank in numa mode.
#include <gtest/gtest.h>

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
#include "numagraph/kernels/bfs/numa_partitioned.hpp"
#include "numagraph/kernels/cc/numa_label_propagation.hpp"
#include "numagraph/kernels/pr/numa_partitioned.hpp"
#include "numagraph/kernels/sssp/numa_delta_stepping.hpp"

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
    std::uint32_t root = 0;
    while (g.out_degree(root) == 0) ++root;
    const auto expected = serial_depths(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kFlat}) {
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

TEST(NumaEngine, PageRankMatchesSerialOnEveryTopology) {
  Graph32 g = kron(10, true);
  const auto expected = serial_pagerank(g, 10);
  for (auto [nodes, threads] : kTopologies) {
    auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads));
    for (auto mode : {EngineMode::kNuma, EngineMode::kFlat}) {
      engine::NoAccounting acc;
      kernels::NumaPageRankOptions o;
      o.max_iterations = 10;
      auto r = kernels::pagerank_numa(pg, o, mode, acc);
      EXPECT_EQ(r.iterations, 10);
      for (std::int64_t v = 0; v < g.num_vertices(); ++v)
        ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, std::fabs(expected[v])));
    }
  }
}

TEST(NumaEngine, PageRankNumaModeHasNoRemoteRandomAccess) {
  Graph32 g = kron(10, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8));
  kernels::NumaPageRankOptions o;
  o.max_iterations = 3;
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::pagerank_numa(pg, o, EngineMode::kNuma, numa_acc);
  kernels::pagerank_numa(pg, o, EngineMode::kFlat, flat_acc);
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(numa_acc.total().local_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, flat_acc.total().local_random);
}

TEST(NumaEngine, BfsNumaModeCutsRemoteRandomAccess) {
  Graph32 g = kron(11, false);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 8, 8), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kNuma, numa_acc);
  kernels::bfs_numa(pg, std::uint32_t{1}, {}, EngineMode::kFlat, flat_acc);
  EXPECT_LT(numa_acc.total().remote_random * 5, flat_acc.total().remote_random);
}

TEST(NumaEngine, ComponentsAreCanonicalOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(11, directed);  // Kronecker graphs have many isolated vertices
    const auto expected = serial_min_labels(g);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {false, true});
      for (auto mode : {EngineMode::kNuma, EngineMode::kFlat}) {
        engine::NoAccounting acc;
        auto r = kernels::connected_components_numa(pg, mode, acc);
        for (std::int64_t v = 0; v < g.num_vertices(); ++v)
          ASSERT_EQ(r.labels[v], expected[v]) << "v=" << v << " nodes=" << nodes;
      }
    }
  }
}

TEST(NumaEngine, SsspMatchesDijkstraOnEveryTopology) {
  for (bool directed : {false, true}) {
    Graph32 g = kron(10, directed, /*weighted=*/true);
    std::uint32_t root = 0;
    while (g.out_degree(root) == 0) ++root;
    const auto expected = serial_dijkstra(g, root);
    for (auto [nodes, threads] : kTopologies) {
      auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, nodes, threads), {true, false});
      for (auto mode : {EngineMode::kNuma, EngineMode::kFlat}) {
        for (double delta : {8.0, 1000.0}) {
          engine::NoAccounting acc;
          auto r = kernels::sssp_numa(pg, root, delta, mode, acc);
          for (std::int64_t v = 0; v < g.num_vertices(); ++v)
            ASSERT_EQ(r.dist[v], expected[v]) << "v=" << v << " nodes=" << nodes << " delta=" << delta;
        }
      }
    }
  }
}

TEST(NumaEngine, SsspNumaModeHasNoRemoteRandomWrites) {
  Graph32 g = kron(10, false, true);
  auto pg = engine::PartitionedGraph<std::uint32_t>(g, layout_for(g, 4, 4), {true, false});
  engine::Accounting numa_acc(pg.layout()), flat_acc(pg.layout());
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kNuma, numa_acc);
  kernels::sssp_numa(pg, std::uint32_t{1}, 16.0, EngineMode::kFlat, flat_acc);
  EXPECT_EQ(numa_acc.total().remote_random, 0);
  EXPECT_GT(flat_acc.total().remote_random, 0);
}
