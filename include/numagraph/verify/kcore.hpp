// k-core verifier: checks a coreness array against its definition, without
// peeling the whole graph again.
//  1. Each vertex v with core c has at least c neighbours of core >= c. Then
//     the vertices of core >= k induce a subgraph of minimum degree >= k, so
//     each lies in the k-core: no core is too high.
//  2. Level by level, the vertices of core c peel away when only the
//     vertices of core >= c are present and the threshold is c + 1 (remove,
//     repeatedly, those with <= c such neighbours left). If a core were too
//     low, the first vertex of the true higher core to be removed would still
//     have more than c neighbours left, and that vertex is reported.
// Each vertex is handled at its own level only: O(n + m) in all. Parallel
// edges count once per edge, as in the kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
Result core_numbers(const CSRGraph<V>& g, const std::int32_t* core) {
  const std::int64_t n = g.num_vertices();
  if (g.directed()) return Result::fail("the k-core verifier needs an undirected graph");
  std::int32_t top = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    if (core[v] < 0 || static_cast<eid_t>(core[v]) > g.out_degree(static_cast<V>(v)))
      return Result::fail("vertex " + std::to_string(v) + " has core " + std::to_string(core[v]) + " outside [0, degree " +
                          std::to_string(g.out_degree(static_cast<V>(v))) + "]");
    top = std::max(top, core[v]);
  }
  // at_least[v]: neighbours of v whose core is >= core[v].
  std::vector<std::int64_t> at_least(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<V>> by_core(static_cast<std::size_t>(top) + 1);
  for (std::int64_t v = 0; v < n; ++v) {
    for (const V u : g.out_neighbors(static_cast<V>(v)))
      if (core[u] >= core[v]) ++at_least[static_cast<std::size_t>(v)];
    if (at_least[static_cast<std::size_t>(v)] < core[v])
      return Result::fail("vertex " + std::to_string(v) + " has core " + std::to_string(core[v]) + " but only " +
                          std::to_string(at_least[static_cast<std::size_t>(v)]) + " neighbours of core >= " +
                          std::to_string(core[v]));
    by_core[static_cast<std::size_t>(core[v])].push_back(static_cast<V>(v));
  }
  std::vector<char> gone(static_cast<std::size_t>(n), 0);
  std::vector<V> stack;
  for (std::int32_t c = 0; c <= top; ++c) {
    for (const V v : by_core[static_cast<std::size_t>(c)])
      if (at_least[v] <= c) {
        gone[v] = 1;
        stack.push_back(v);
      }
    while (!stack.empty()) {
      const V v = stack.back();
      stack.pop_back();
      for (const V u : g.out_neighbors(v))
        if (core[u] == c && !gone[u] && --at_least[u] <= c) {
          gone[u] = 1;
          stack.push_back(u);
        }
    }
    for (const V v : by_core[static_cast<std::size_t>(c)])
      if (!gone[v])
        return Result::fail("vertex " + std::to_string(v) + " has core " + std::to_string(c) +
                            " but lies in the " + std::to_string(c + 1) + "-core: with the vertices of core below " +
                            std::to_string(c) + " removed it keeps " + std::to_string(at_least[v]) +
                            " neighbours that cannot be peeled");
  }
  return Result::pass();
}

}  // namespace numagraph::verify
