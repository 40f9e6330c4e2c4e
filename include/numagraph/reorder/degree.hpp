// Degree order: vertices by descending out-degree, ties by ascending id, so
// the hubs (the vertices most kernels touch most) share the first cache lines
// and pages. One parallel sort of (degree, id) keys (common.hpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/reorder/common.hpp"

namespace numagraph::reorder {

// old_of_new of the degree order.
template <typename V>
NumaArray<V> degree_order(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  eid_t max_degree = 0;
#pragma omp parallel for schedule(static) reduction(max : max_degree)
  for (std::int64_t v = 0; v < n; ++v) max_degree = std::max(max_degree, g.out_degree(static_cast<V>(v)));
  return detail::sort_by_key<V>(n, nullptr, n, [&](V v) {
    return static_cast<std::uint64_t>(max_degree - g.out_degree(v));
  });
}

}  // namespace numagraph::reorder
