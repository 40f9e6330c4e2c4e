// Community verifier, serial, O(n + m): (1) the labels are a partition into
// `communities` dense ids 0..communities-1; (2) the modularity recomputed from
// the definition, each edge taken once in long double (networkx's
//   Q = sum_c L_c / m - gamma (K_c / 2m)^2),
// matches the reported one; (3) with connected = true (Leiden), every
// community is connected (a search confined to each community reaches all of
// its members from one).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

// Modularity of the partition `labels` (dense ids < communities) of an
// undirected graph; 0 without edges.
template <typename V, typename L>
double modularity(const CSRGraph<V>& g, const L* labels, std::int64_t communities, double resolution) {
  std::vector<long double> inside(static_cast<std::size_t>(communities), 0), degree(inside);
  long double m = 0;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const auto nbrs = g.out_neighbors(static_cast<V>(v));
    for (std::size_t i = 0; i < nbrs.size(); ++i) {
      const auto u = static_cast<std::int64_t>(nbrs[i]);
      if (u < v) continue;  // each edge once, from its smaller end
      const long double w = g.weighted() ? g.out_weights(static_cast<V>(v))[i] : 1.0L;
      m += w;
      degree[labels[v]] += w;
      degree[labels[u]] += w;
      if (labels[u] == labels[v]) inside[labels[v]] += w;
    }
  }
  if (m == 0) return 0;
  long double q = 0;
  for (std::int64_t c = 0; c < communities; ++c)
    q += inside[c] / m - resolution * (degree[c] / (2 * m)) * (degree[c] / (2 * m));
  return static_cast<double>(q);
}

template <typename V, typename L>
Result communities(const CSRGraph<V>& g, const L* labels, std::int64_t communities, double modularity_reported,
                   double resolution, bool connected) {
  const std::int64_t n = g.num_vertices();
  if (g.directed()) return Result::fail("the community verifier needs an undirected graph");
  std::vector<std::int64_t> size(static_cast<std::size_t>(communities), 0);
  for (std::int64_t v = 0; v < n; ++v) {
    const auto c = static_cast<std::int64_t>(labels[v]);
    if (c < 0 || c >= communities)
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " has community " +
                          std::to_string(c) + ", outside 0.." + std::to_string(communities - 1));
    ++size[c];
  }
  for (std::int64_t c = 0; c < communities; ++c)
    if (size[c] == 0) return Result::fail("community " + std::to_string(c) + " has no member: the ids are not dense");
  const double q = modularity(g, labels, communities, resolution);
  if (!(std::abs(q - modularity_reported) <= 1e-9 * std::max(1.0, std::abs(q))))
    return Result::fail("reported modularity " + std::to_string(modularity_reported) + " differs from the recomputed " +
                        std::to_string(q));
  if (!connected) return Result::pass();
  std::vector<std::uint8_t> reached(static_cast<std::size_t>(n), 0), started(static_cast<std::size_t>(communities), 0);
  std::vector<std::int64_t> stack;
  for (std::int64_t s = 0; s < n; ++s) {
    if (reached[s]) continue;
    const auto c = static_cast<std::int64_t>(labels[s]);
    if (started[c])
      return Result::fail("community " + std::to_string(c) + " is not connected: vertex " +
                          std::to_string(g.label(static_cast<V>(s))) + " is cut off from its smaller members");
    started[c] = 1;
    reached[s] = 1;
    stack.push_back(s);
    while (!stack.empty()) {
      const std::int64_t v = stack.back();
      stack.pop_back();
      for (const V u : g.out_neighbors(static_cast<V>(v)))
        if (!reached[u] && static_cast<std::int64_t>(labels[u]) == c) {
          reached[u] = 1;
          stack.push_back(u);
        }
    }
  }
  return Result::pass();
}

}  // namespace numagraph::verify
