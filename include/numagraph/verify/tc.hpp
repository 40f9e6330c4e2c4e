// Triangle verifier: a serial count by hashing each vertex's neighbours and
// testing every pair u < v < w of a wedge (a different method from the
// kernel's ordered merge), compared with the kernel's total.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::int64_t serial_triangles(const CSRGraph<V>& g) {
  std::int64_t total = 0;
  for (std::int64_t u = 0; u < g.num_vertices(); ++u) {
    auto nu = g.out_neighbors(static_cast<V>(u));
    std::unordered_set<V> set(nu.begin(), nu.end());
    for (const V v : nu) {
      if (v <= static_cast<V>(u)) continue;
      for (const V w : g.out_neighbors(v))
        if (w > v && set.count(w)) ++total;
    }
  }
  return total;
}

template <typename V>
Result triangles(const CSRGraph<V>& g, std::int64_t count) {
  const std::int64_t expected = serial_triangles(g);
  if (count != expected)
    return Result::fail("counted " + std::to_string(count) + " triangles but the serial count is " + std::to_string(expected));
  return Result::pass();
}

}  // namespace numagraph::verify
