// Diameter verifier: the bound must be realised, i.e. a serial BFS from one
// endpoint reaches the other at exactly that distance (so it is a true lower
// bound on the diameter).
#pragma once

#include <queue>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::vector<std::int64_t> serial_bfs_depths(const CSRGraph<V>& g, V source) {
  std::vector<std::int64_t> d(static_cast<std::size_t>(g.num_vertices()), -1);
  std::queue<V> q;
  d[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const V u = q.front();
    q.pop();
    for (const V v : g.out_neighbors(u))
      if (d[v] < 0) {
        d[v] = d[u] + 1;
        q.push(v);
      }
  }
  return d;
}

template <typename V>
Result diameter_bound(const CSRGraph<V>& g, V from, V to, std::int64_t bound) {
  const auto d = serial_bfs_depths(g, from);
  if (d[to] != bound)
    return Result::fail("the endpoints " + std::to_string(g.label(from)) + " and " + std::to_string(g.label(to)) +
                        " are " + std::to_string(d[to]) + " hops apart, not " + std::to_string(bound));
  return Result::pass();
}

}  // namespace numagraph::verify
