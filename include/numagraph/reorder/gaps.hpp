// How far apart neighbours' ids are in a numbering: the bandwidth (max
// |u - v| over arcs, what RCM minimises) and the average log2(1 + |u - v|)
// (the "gap" measure of graph-compression and reordering studies: about the
// bits a delta code spends per arc; small when most neighbours sit close).
// Of the graph as numbered, or as a permutation would renumber it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"

namespace numagraph::reorder {

struct Gaps {
  std::int64_t bandwidth = 0;  // max |u - v| over out-arcs (0 without arcs)
  double average_log_gap = 0;  // mean of log2(1 + |u - v|) over out-arcs
};

// new_of_old: the renumbering to measure (nullptr: g's own ids).
template <typename V>
Gaps measure_gaps(const CSRGraph<V>& g, const V* new_of_old = nullptr) {
  const std::int64_t n = g.num_vertices();
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  std::int64_t bw = 0;
  double log_sum = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : bw) reduction(+ : log_sum)
  for (std::int64_t u = 0; u < n; ++u) {
    const std::int64_t nu = new_of_old ? static_cast<std::int64_t>(new_of_old[u]) : u;
    for (eid_t e = off[u]; e < off[u + 1]; ++e) {
      const std::int64_t nv = new_of_old ? static_cast<std::int64_t>(new_of_old[nbr[e]]) : static_cast<std::int64_t>(nbr[e]);
      const std::int64_t d = nu > nv ? nu - nv : nv - nu;
      bw = std::max(bw, d);
      log_sum += std::log2(1.0 + static_cast<double>(d));
    }
  }
  const eid_t m = g.num_arcs();
  return {bw, m == 0 ? 0.0 : log_sum / static_cast<double>(m)};
}

}  // namespace numagraph::reorder
