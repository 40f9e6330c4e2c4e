// Small graphs for the traversal tests (BFS, SSSP, BC, diameter): built from
// hand-written edge lists or the Kronecker generator, with 32- or 64-bit ids.
#pragma once

#include <cstdint>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"

namespace numagraph::test_graphs {

struct Arc {
  std::uint64_t u, v;
  float w = 1;
};

// `n` declares the vertex count, so trailing isolated vertices exist.
inline AnyGraph make_graph(const std::vector<Arc>& arcs, std::uint64_t n, bool directed, bool force64,
                           WeightKind weights = WeightKind::kNone, bool in_edges = true) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(arcs.size());
  e.dst = NumaArray<std::uint64_t>(arcs.size());
  if (weights != WeightKind::kNone) e.weights = NumaArray<weight_t>(arcs.size());
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    e.src[i] = arcs[i].u;
    e.dst[i] = arcs[i].v;
    if (weights != WeightKind::kNone) e.weights[i] = arcs[i].w;
  }
  e.weight_kind = weights;
  e.num_vertices = n;
  e.undirected = !directed;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  b.force_64bit_ids = force64;
  b.in_edges = in_edges;
  b.drop_self_loops = true;
  b.dedupe = true;
  return build_graph(std::move(e), b);
}

inline AnyGraph make_kron(int scale, bool directed, bool force64, bool weighted = false, bool in_edges = true) {
  GeneratorOptions o;
  o.scale = scale;
  o.edge_factor = 8;
  o.weighted = weighted;
  EdgeList e = generate_kronecker(o);
  e.undirected = !directed;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  b.force_64bit_ids = force64;
  b.in_edges = in_edges;
  b.dedupe = true;
  b.drop_self_loops = true;
  return build_graph(std::move(e), b);
}

// Hop counts by a plain queue BFS over out-edges (-1: unreached).
template <typename G>
std::vector<std::int32_t> queue_bfs(const G& g, typename G::vertex_type root) {
  std::vector<std::int32_t> d(static_cast<std::size_t>(g.num_vertices()), -1);
  std::queue<typename G::vertex_type> q;
  d[root] = 0;
  q.push(root);
  while (!q.empty()) {
    const auto u = q.front();
    q.pop();
    for (const auto v : g.out_neighbors(u))
      if (d[v] < 0) {
        d[v] = d[u] + 1;
        q.push(v);
      }
  }
  return d;
}

}  // namespace numagraph::test_graphs
