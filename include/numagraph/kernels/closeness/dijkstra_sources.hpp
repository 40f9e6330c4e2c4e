// Closeness sums of a weighted graph: one serial Dijkstra search per source
// (binary heap), sources run in parallel, a round of B searches at a time
// (B rows of n distances). After each round every vertex v adds, in source
// order, the distances d(s, v) of the round's sources that reach it: the sums
// are the same for any thread count. Weights must be >= 0 (the entry point
// refuses negative ones, sssp/delta_stepping.hpp); a pair at distance 0
// (zero-weight edges) counts as reached for closeness but adds nothing to
// the harmonic sum, as in NetworkX. Work: O(m log n) per source plus O(n)
// per source for the rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/closeness/options.hpp"
#include "numagraph/kernels/sssp/distances.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

// Distances from `source` into `dist` (n entries, kUnreachable when not reached).
template <typename V>
void dijkstra_row(const CSRGraph<V>& g, V source, double* dist,
                  std::vector<std::pair<double, V>>& heap_storage) {
  const std::int64_t n = g.num_vertices();
  std::fill(dist, dist + n, kUnreachable);
  const eid_t* const off = g.out().offsets.data();
  const V* const adj = g.out().neighbors.data();
  const weight_t* const wt = g.out().weights.data();
  auto& heap = heap_storage;  // a min-heap on distance, reused between searches
  const auto later = std::greater<std::pair<double, V>>{};
  heap.clear();
  dist[source] = 0;
  heap.push_back({0.0, source});
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [d, u] = heap.back();
    heap.pop_back();
    if (d > dist[u]) continue;  // a stale entry: u was settled closer
    for (eid_t j = off[u]; j < off[u + 1]; ++j) {
      const V v = adj[j];
      const double dv = d + static_cast<double>(wt[j]);
      if (dv < dist[v]) {
        dist[v] = dv;
        heap.push_back({dv, v});
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
}

// Adds to `sums` (kernel ids, zeroed by the caller) the contributions of
// `sources` (kernel ids, distinct).
template <typename V>
void closeness_sums_dijkstra(const CSRGraph<V>& g, const std::vector<V>& sources, ClosenessSums& sums) {
  const std::int64_t n = g.num_vertices();
  if (n == 0 || sources.empty()) return;
  // Rows for every thread twice over, within 256 MiB.
  const std::size_t cap = std::max<std::size_t>(1, (std::size_t{256} << 20) / (sizeof(double) * static_cast<std::size_t>(n)));
  const std::size_t rows = std::min({sources.size(), cap, static_cast<std::size_t>(2 * parallel::max_threads())});
  auto dist = NumaArray<double>::for_overwrite(rows * static_cast<std::size_t>(n));
  std::int64_t* const reached = sums.reached.data();
  double* const distance = sums.distance.data();
  double* const inverse = sums.inverse.data();
  for (std::size_t first = 0; first < sources.size(); first += rows) {
    const std::size_t count = std::min(rows, sources.size() - first);
#pragma omp parallel
    {
      std::vector<std::pair<double, V>> heap;
#pragma omp for schedule(dynamic, 1)
      for (std::size_t b = 0; b < count; ++b)
        dijkstra_row(g, sources[first + b], dist.data() + b * static_cast<std::size_t>(n), heap);
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t v = 0; v < n; ++v)
      for (std::size_t b = 0; b < count; ++b) {
        const double d = dist[b * static_cast<std::size_t>(n) + static_cast<std::size_t>(v)];
        if (d == kUnreachable || sources[first + b] == static_cast<V>(v)) continue;
        ++reached[v];
        distance[v] += d;
        if (d > 0) inverse[v] += 1.0 / d;
      }
    ++sums.batches;
  }
}

}  // namespace numagraph::kernels
