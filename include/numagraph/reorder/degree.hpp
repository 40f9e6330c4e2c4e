// Degree order: vertices by descending out-degree, ties by ascending id, so
// the hubs (the vertices most kernels touch most) share the first cache lines
// and pages. Triangle counting and clustering rank vertices by it too. A
// counting sort: O(n + max degree), and stable, so ties keep id order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

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
  // first[k]: the first slot of the vertices of degree max_degree - k.
  std::vector<eid_t> first(static_cast<std::size_t>(max_degree) + 2, 0);
  for (std::int64_t v = 0; v < n; ++v) ++first[static_cast<std::size_t>(max_degree - g.out_degree(static_cast<V>(v))) + 1];
  for (std::size_t k = 1; k < first.size(); ++k) first[k] += first[k - 1];
  auto old_of_new = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v)
    old_of_new[static_cast<std::size_t>(first[static_cast<std::size_t>(max_degree - g.out_degree(static_cast<V>(v)))]++)] =
        static_cast<V>(v);
  return old_of_new;
}

}  // namespace numagraph::reorder
