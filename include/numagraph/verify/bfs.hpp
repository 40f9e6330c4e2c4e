// BFS verifier: the Graph500 checks on a parent array and a depth array.
// Serial and independent of how the tree was computed (shared by every BFS
// variant, the CLI, Python and the MPI driver):
//  1. the root is its own parent at depth 0, and no other vertex has depth 0;
//  2. a vertex has a parent iff it has a depth;
//  3. every tree edge parent[v] -> v is an arc of the graph, and
//     depth[v] = depth[parent[v]] + 1;
//  4. every arc u -> v with u reached has v reached and depth[v] <= depth[u] + 1
//     (for undirected graphs this gives |depth[u] - depth[v]| <= 1);
//  5. so every vertex reachable from the root is in the tree (4), and every
//     tree vertex reaches the root by strictly decreasing depths (1, 3).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

// `parent` is signed: negative means "no parent"; `depth` uses -1 for unreached.
template <typename V, typename P, typename D>
Result bfs_tree(const CSRGraph<V>& g, V root, const P* parent, const D* depth) {
  static_assert(std::is_signed_v<P>, "parents are signed: negative means unreached");
  const std::int64_t n = g.num_vertices();
  auto id = [&](std::int64_t v) { return std::to_string(g.label(static_cast<V>(v))); };
  if (parent[root] != static_cast<P>(root) || depth[root] != 0)
    return Result::fail("the root " + id(root) + " must be its own parent at depth 0");
  for (std::int64_t v = 0; v < n; ++v) {
    const bool has_parent = parent[v] >= 0, has_depth = depth[v] >= 0;
    if (has_parent != has_depth)
      return Result::fail("vertex " + id(v) + (has_parent ? " has a parent but no depth" : " has a depth but no parent"));
    if (!has_parent || v == static_cast<std::int64_t>(root)) continue;
    if (depth[v] == 0) return Result::fail("vertex " + id(v) + " has depth 0 but is not the root");
    const auto p = static_cast<std::int64_t>(parent[v]);
    if (p >= n) return Result::fail("vertex " + id(v) + " has parent " + std::to_string(p) + ", not a vertex");
    auto nb = g.out_neighbors(static_cast<V>(p));
    if (!std::binary_search(nb.begin(), nb.end(), static_cast<V>(v)))
      return Result::fail("tree edge " + id(p) + " -> " + id(v) + " is not an edge of the graph");
    if (depth[p] < 0 || depth[v] != depth[p] + 1)
      return Result::fail("tree edge " + id(p) + " -> " + id(v) + " joins depths " + std::to_string(depth[p]) + " and " +
                          std::to_string(depth[v]) + " (must differ by exactly 1)");
  }
  for (std::int64_t u = 0; u < n; ++u) {
    if (depth[u] < 0) continue;
    for (V v : g.out_neighbors(static_cast<V>(u))) {
      if (depth[v] < 0)
        return Result::fail("vertex " + id(v) + " is reachable (edge from " + id(u) + ") but not in the tree");
      if (depth[v] > depth[u] + 1)
        return Result::fail("edge " + id(u) + " -> " + id(v) + " joins depths " + std::to_string(depth[u]) + " and " +
                            std::to_string(depth[v]) + " (a BFS never leaves a gap)");
    }
  }
  return Result::pass();
}

}  // namespace numagraph::verify
