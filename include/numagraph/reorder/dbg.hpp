// Degree-based grouping (the idea of Faldu, Diamond and Grot, IISWC 2019):
// a coarse degree order that keeps most of the graph's own locality. With a
// the average out-degree, every vertex falls in one of eight buckets,
//   d >= 32a, >= 16a, >= 8a, >= 4a, >= 2a, >= a, >= a/2, < a/2,
// the hottest bucket first; inside a bucket vertices keep their original
// order. Hubs end up packed together (few cache lines hold all the hot
// vertices) while the long tail, most of the vertices, is not shuffled.
//
// Parallel and stable: each thread counts its contiguous block of ids per
// bucket, the counts are prefix-summed in (bucket, thread) order, and each
// thread scatters its block into its slots.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::reorder {

inline constexpr int kDbgBuckets = 8;

// The bucket of out-degree d when the average out-degree is avg (0 = hottest).
inline int dbg_bucket(eid_t d, double avg) {
  const double x = static_cast<double>(d);
  double bound = 32 * avg;
  for (int b = 0; b < kDbgBuckets - 1; ++b, bound /= 2)
    if (x >= bound) return b;
  return kDbgBuckets - 1;
}

// old_of_new of the DBG order.
template <typename V>
NumaArray<V> dbg_order(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  auto out = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  if (n == 0) return out;
  const double avg = static_cast<double>(g.num_arcs()) / static_cast<double>(n);
  const int threads = parallel::max_threads();
  // counts[b * threads + t]: vertices of bucket b in thread t's block.
  std::vector<std::int64_t> counts(static_cast<std::size_t>(kDbgBuckets * threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id(), nt = parallel::num_threads_in_region();
    const std::int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    std::int64_t mine[kDbgBuckets] = {};
    for (std::int64_t v = lo; v < hi; ++v) ++mine[dbg_bucket(g.out_degree(static_cast<V>(v)), avg)];
    for (int b = 0; b < kDbgBuckets; ++b) counts[static_cast<std::size_t>(b * threads + t)] = mine[b];
#pragma omp barrier
#pragma omp single
    {
      std::int64_t sum = 0;
      for (std::size_t i = 0; i < counts.size(); ++i) {
        const std::int64_t c = counts[i];
        counts[i] = sum;
        sum += c;
      }
    }
    std::int64_t at[kDbgBuckets];
    for (int b = 0; b < kDbgBuckets; ++b) at[b] = counts[static_cast<std::size_t>(b * threads + t)];
    for (std::int64_t v = lo; v < hi; ++v) out[at[dbg_bucket(g.out_degree(static_cast<V>(v)), avg)]++] = static_cast<V>(v);
  }
  return out;
}

}  // namespace numagraph::reorder
