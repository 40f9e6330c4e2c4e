// Clustering verifier: per-vertex triangles by brute force (every pair of
// v's neighbours tested for an edge through a hash set of each list, a
// different method from the kernel's ordered intersection), then each
// coefficient, the triangle total and the connected triples recomputed from
// the definition and compared exactly (the kernel divides the same integers).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/clustering/clustering.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
Result clustering(const CSRGraph<V>& g, const ClusteringResult& r) {
  const std::int64_t n = g.num_vertices();
  if (static_cast<std::int64_t>(r.coefficient.size()) != n || static_cast<std::int64_t>(r.triangles.size()) != n)
    return Result::fail("the result has " + std::to_string(r.coefficient.size()) + " coefficients for " +
                        std::to_string(n) + " vertices");
  std::vector<std::unordered_set<V>> adjacent(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v)
    for (const V w : g.out_neighbors(static_cast<V>(v)))
      if (w != static_cast<V>(v)) adjacent[static_cast<std::size_t>(v)].insert(w);
  std::int64_t corners = 0, triples = 0;
  double sum = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    std::vector<V> nb(adjacent[static_cast<std::size_t>(v)].begin(), adjacent[static_cast<std::size_t>(v)].end());
    std::int64_t t = 0;
    for (std::size_t i = 0; i < nb.size(); ++i)
      for (std::size_t j = i + 1; j < nb.size(); ++j) t += adjacent[nb[i]].count(nb[j]) ? 1 : 0;
    const auto d = static_cast<std::int64_t>(nb.size());
    const double c = d < 2 ? 0.0 : static_cast<double>(2 * t) / static_cast<double>(d * (d - 1));
    if (r.triangles[v] != t)
      return Result::fail("vertex " + std::to_string(v) + " has " + std::to_string(r.triangles[v]) +
                          " triangles but " + std::to_string(t) + " by brute force");
    if (r.coefficient[v] != c)
      return Result::fail("vertex " + std::to_string(v) + " has clustering " + std::to_string(r.coefficient[v]) +
                          " but its definition gives " + std::to_string(c));
    corners += t;
    triples += d * (d - 1) / 2;
    sum += c;
  }
  if (r.total_triangles * 3 != corners)
    return Result::fail("counted " + std::to_string(r.total_triangles) + " triangles but the brute-force count is " +
                        std::to_string(corners / 3));
  if (r.connected_triples != triples)
    return Result::fail("counted " + std::to_string(r.connected_triples) + " connected triples but the degrees give " +
                        std::to_string(triples));
  if (std::abs(r.coefficient_sum - sum) > 1e-9 * std::max(1.0, sum))
    return Result::fail("the coefficients sum to " + std::to_string(sum) + " but the result says " +
                        std::to_string(r.coefficient_sum));
  return Result::pass();
}

}  // namespace numagraph::verify
