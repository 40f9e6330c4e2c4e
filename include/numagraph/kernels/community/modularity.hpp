// Modularity of a partition of one level's graph, as
// networkx.community.modularity(G, communities, weight, resolution):
//   Q = sum over communities c of  L_c / m  -  gamma * (K_c / 2m)^2,
// L_c the weight of c's internal edges (each once, a self-loop once), K_c the
// sum of its members' weighted degrees (a self-loop counted twice), m the
// total edge weight. The same on every level of the multilevel search, since
// aggregation keeps internal weights as self-loops. Per-vertex terms are
// computed in parallel and summed in vertex order (the same on any thread
// count). O(n + m).
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/kernels/community/level_graph.hpp"

namespace numagraph::kernels::community {

template <typename Adj, typename V>
double modularity(const Adj& a, const std::vector<V>& part, const std::vector<double>& k, double resolution) {
  const std::int64_t n = a.num_vertices();
  std::vector<double> internal(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(dynamic, 1024) if (n > 0 && a.end(n - 1) >= parallel_arcs())
  for (std::int64_t v = 0; v < n; ++v) {
    double s = 0;
    for (eid_t e = a.begin(v); e < a.end(v); ++e) {
      const auto u = static_cast<std::int64_t>(a.target(e));
      if (u == v)
        s += a.weight(e);
      else if (part[u] == part[v])
        s += 0.5 * a.weight(e);
    }
    internal[v] = s;
  }
  std::vector<double> total(static_cast<std::size_t>(n), 0.0);
  double inside = 0, two_m = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    inside += internal[v];
    total[part[v]] += k[v];
    two_m += k[v];
  }
  if (two_m == 0) return 0;
  double squares = 0;
  for (const double t : total) squares += t * t;
  return 2 * inside / two_m - resolution * squares / (two_m * two_m);
}

}  // namespace numagraph::kernels::community
