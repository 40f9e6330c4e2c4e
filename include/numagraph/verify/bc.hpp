// Betweenness verifier: serial Brandes (queue BFS, predecessor-free
// backward sweep) over the same sources; raw sums must agree to 1e-9
// relative (the parallel kernel adds path counts in another order).
#pragma once

#include <cmath>
#include <queue>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::vector<double> serial_brandes(const CSRGraph<V>& g, const std::vector<V>& sources) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> bc(n, 0), sigma(n), delta(n);
  std::vector<std::int64_t> depth(n);
  std::vector<V> order;
  for (const V s : sources) {
    std::fill(depth.begin(), depth.end(), -1);
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(delta.begin(), delta.end(), 0.0);
    order.clear();
    std::queue<V> q;
    depth[s] = 0;
    sigma[s] = 1;
    q.push(s);
    while (!q.empty()) {
      const V u = q.front();
      q.pop();
      order.push_back(u);
      for (const V v : g.out_neighbors(u)) {
        if (depth[v] < 0) {
          depth[v] = depth[u] + 1;
          q.push(v);
        }
        if (depth[v] == depth[u] + 1) sigma[v] += sigma[u];
      }
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const V w = *it;
      for (const V v : g.out_neighbors(w))
        if (depth[v] == depth[w] + 1) delta[w] += sigma[w] / sigma[v] * (1 + delta[v]);
      if (w != s) bc[w] += delta[w];
    }
  }
  return bc;
}

template <typename V>
Result betweenness(const CSRGraph<V>& g, const std::vector<V>& sources, const double* raw_scores) {
  const auto expected = serial_brandes(g, sources);
  for (std::size_t v = 0; v < expected.size(); ++v)
    if (std::fabs(raw_scores[v] - expected[v]) > 1e-9 * std::max(1.0, std::fabs(expected[v])))
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " has score " +
                          std::to_string(raw_scores[v]) + " but serial Brandes gives " + std::to_string(expected[v]));
  return Result::pass();
}

}  // namespace numagraph::verify
