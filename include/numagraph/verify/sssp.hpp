// SSSP verifier: serial Dijkstra (binary heap) from the same source; every
// distance must match (exactly for integer weights, to 1e-9 relative for
// real ones); unreachable vertices must be +infinity.
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::vector<double> dijkstra(const CSRGraph<V>& g, V source) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  using Item = std::pair<double, V>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  d[source] = 0;
  heap.push({0.0, source});
  while (!heap.empty()) {
    const auto [du, u] = heap.top();
    heap.pop();
    if (du > d[u]) continue;
    auto nb = g.out_neighbors(u);
    for (std::size_t j = 0; j < nb.size(); ++j) {
      const double nd = du + (g.weighted() ? static_cast<double>(g.out_weights(u)[j]) : 1.0);
      if (nd < d[nb[j]]) {
        d[nb[j]] = nd;
        heap.push({nd, nb[j]});
      }
    }
  }
  return d;
}

template <typename V>
Result sssp(const CSRGraph<V>& g, V source, const double* dist) {
  const auto expected = dijkstra(g, source);
  const bool exact = g.weight_kind() != WeightKind::kReal;
  for (std::size_t v = 0; v < expected.size(); ++v) {
    const double e = expected[v], d = dist[v];
    const bool ok = std::isinf(e) ? std::isinf(d) && d > 0
                                  : (exact ? d == e : std::fabs(d - e) <= 1e-9 * std::max(1.0, std::fabs(e)));
    if (!ok)
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " has distance " + std::to_string(d) +
                          " but Dijkstra finds " + std::to_string(e));
  }
  return Result::pass();
}

}  // namespace numagraph::verify
