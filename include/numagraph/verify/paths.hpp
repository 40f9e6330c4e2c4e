// Path verifiers: shortest-path predecessors (SSSP, or hop counts) and BFS
// predecessor lists, checked against the distances they come with. Serial,
// on the graph in the caller's ids. For a predecessor array:
//  1. the source is its own predecessor, at distance 0;
//  2. a vertex has a predecessor iff it has a distance;
//  3. every predecessor arc u -> v exists and is tight: dist[u] + w == dist[v]
//     exactly (hop counts: w = 1);
//  4. following predecessors from any vertex reaches the source without
//     meeting a vertex twice.
// With verify::sssp (or bfs_tree) on the distances, every path so followed is
// a shortest path. For predecessor lists: each list holds, in increasing
// order, exactly the tight in-neighbours of its vertex.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

namespace detail {

template <typename D>
bool has_distance(D d) {
  if constexpr (std::is_floating_point_v<D>) return d < std::numeric_limits<D>::infinity();
  else return d >= 0;
}

// Whether some arc u -> v is tight (several when the graph keeps parallel arcs).
template <typename V, typename D>
bool tight_arc(const CSRGraph<V>& g, bool weighted, V u, V v, const D* dist) {
  const auto nb = g.out_neighbors(u);
  const auto [first, last] = std::equal_range(nb.begin(), nb.end(), v);
  for (auto it = first; it != last; ++it) {
    const double w = weighted ? static_cast<double>(g.out_weights(u)[static_cast<std::size_t>(it - nb.begin())]) : 1.0;
    if (static_cast<D>(dist[u] + static_cast<D>(w)) == dist[v]) return true;
  }
  return false;
}

}  // namespace detail

// `weighted`: arcs weigh their weight (SSSP on a weighted graph), else 1
// (hop counts, or SSSP on an unweighted graph). Negative predecessors mean none.
template <typename V, typename D>
Result predecessors(const CSRGraph<V>& g, V source, const D* dist, const std::int64_t* pred, bool weighted) {
  const std::int64_t n = g.num_vertices();
  auto id = [&](std::int64_t v) { return std::to_string(g.label(static_cast<V>(v))); };
  if (pred[source] != static_cast<std::int64_t>(source) || dist[source] != 0)
    return Result::fail("the source " + id(source) + " must be its own predecessor at distance 0");
  for (std::int64_t v = 0; v < n; ++v) {
    const bool has_pred = pred[v] >= 0, reached = detail::has_distance(dist[v]);
    if (has_pred != reached)
      return Result::fail("vertex " + id(v) + (has_pred ? " has a predecessor but no distance" : " has a distance but no predecessor"));
    if (!has_pred || v == static_cast<std::int64_t>(source)) continue;
    const std::int64_t u = pred[v];
    if (u >= n) return Result::fail("vertex " + id(v) + " has predecessor " + std::to_string(u) + ", not a vertex");
    if (u == v) return Result::fail("vertex " + id(v) + " is its own predecessor but is not the source");
    if (!detail::has_distance(dist[u]) || !detail::tight_arc(g, weighted, static_cast<V>(u), static_cast<V>(v), dist))
      return Result::fail("predecessor arc " + id(u) + " -> " + id(v) +
                          " is not an arc of the graph with dist[u] + weight == dist[v]");
  }
  // 0: not seen, 1: on the walk being followed, 2: known to reach the source.
  std::vector<std::uint8_t> state(static_cast<std::size_t>(n), 0);
  state[source] = 2;
  std::vector<std::int64_t> walk;
  for (std::int64_t v = 0; v < n; ++v) {
    if (pred[v] < 0) continue;
    walk.clear();
    std::int64_t x = v;
    while (state[x] == 0) {
      state[x] = 1;
      walk.push_back(x);
      x = pred[x];
    }
    if (state[x] == 1) return Result::fail("following predecessors from vertex " + id(v) + " cycles at vertex " + id(x));
    for (const std::int64_t w : walk) state[w] = 2;
  }
  return Result::pass();
}

// BFS predecessor lists (kernels::PredecessorLists: offsets, sources) against
// hop counts `depth` (-1 unreached).
template <typename V>
Result predecessor_lists(const CSRGraph<V>& g, const std::int32_t* depth, const eid_t* offsets,
                         const std::int64_t* sources) {
  const std::int64_t n = g.num_vertices();
  auto id = [&](std::int64_t v) { return std::to_string(g.label(static_cast<V>(v))); };
  std::vector<eid_t> tight(static_cast<std::size_t>(n), 0);  // distinct tight in-neighbours per vertex
  for (std::int64_t u = 0; u < n; ++u) {
    if (depth[u] < 0) continue;
    const auto nb = g.out_neighbors(static_cast<V>(u));
    for (std::size_t j = 0; j < nb.size(); ++j)
      if (depth[nb[j]] == depth[u] + 1 && (j == 0 || nb[j - 1] != nb[j])) ++tight[nb[j]];
  }
  for (std::int64_t v = 0; v < n; ++v) {
    std::int64_t previous = -1;
    for (eid_t i = offsets[v]; i < offsets[v + 1]; ++i) {
      const std::int64_t u = sources[i];
      if (u <= previous || u >= n)
        return Result::fail("the predecessors of vertex " + id(v) + " are not increasing vertex ids");
      previous = u;
      if (depth[u] < 0 || depth[v] != depth[u] + 1 || !detail::tight_arc(g, false, static_cast<V>(u), static_cast<V>(v), depth))
        return Result::fail("vertex " + id(u) + " is listed as a predecessor of " + id(v) +
                            " but is not an in-neighbour one level above it");
    }
    // The listed ones are distinct tight in-neighbours: fewer misses one.
    if (offsets[v + 1] - offsets[v] != tight[v])
      return Result::fail("vertex " + id(v) + " has " + std::to_string(offsets[v + 1] - offsets[v]) +
                          " predecessors listed but " + std::to_string(tight[v]) + " in-neighbours one level above");
  }
  return Result::pass();
}

}  // namespace numagraph::verify
