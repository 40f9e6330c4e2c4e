// Sum of values gathered through a neighbour list, the inner loop of every
// pull kernel (PageRank, SpMV): one running sum over a plain pointer loop.
// The loop waits on random loads more than on its additions, and on a skewed
// graph most lists are short, so the branches around a list, whose outcomes
// follow its length, cost more than the chain of additions: interleaved
// partial sums would need an unrolled loop plus a remainder step, one more
// length-dependent branch per vertex. Always inlined, as a call per vertex
// costs more than the loop on short lists. The additions follow the list's
// order, so a sum does not depend on the threads.
// Measured: docs/kernels/pr.md, "Loop shape".
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "numagraph/graph/types.hpp"
#include "numagraph/numa/machine_resources.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
[[gnu::always_inline]] inline double gather_sum(std::span<const V> nb, const C* value) {
  double s = 0;
  for (const V* p = nb.data(), *end = p + nb.size(); p != end; ++p) s += static_cast<double>(value[*p]);
  return s;
}

// The same with a weight per edge: sum of w[j] * value[nb[j]].
template <typename V, typename C>
[[gnu::always_inline]] inline double gather_weighted_sum(std::span<const V> nb, const weight_t* w, const C* value) {
  double s = 0;
  for (std::size_t j = 0; j < nb.size(); ++j) s += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
  return s;
}

// The unblocked sweeps' loop (PageRank Jacobi and Gauss-Seidel, SpMV, and
// the NUMA engine's) on values that outgrow the caches: the same running sum
// over the list [b, e) of a neighbour array `nb` whose last index is `last`,
// plus, with Prefetch, a software prefetch of the value the arc
// kGatherPrefetchArcs further on will read, in this list or in the lists
// after it (clamped to `last`). Those reads miss the caches, and the
// out-of-order window holds only a few dozen arcs of a loop that waits on
// them; a prefetch retires at once, so the misses of the next arcs are under
// way early. Values that the caches hold gain nothing and lose a little,
// hence prefetch_pays: values above a quarter of the last-level cache, the
// threshold of the segmented sweeps (sweep/cache_blocking.hpp; Jacobi and
// SpMV tile from the L2 on, so they prefetch here only when not tiled:
// fewer than 3 sweeps, or --cache-block off). The sum is the same sequence
// of additions as gather_sum's.
// Measured (bench/pull_prefetch_ab.cpp): docs/kernels/pr.md, "Value prefetch".
inline constexpr eid_t kGatherPrefetchArcs = 192;

// Whether the unblocked pull loops prefetch: n values of `value_bytes` each
// take more than a quarter of the last-level cache.
inline bool prefetch_pays(std::int64_t n, std::size_t value_bytes) {
  return static_cast<std::uint64_t>(n) * value_bytes > numa::last_level_cache_bytes() / 4;
}

template <bool Prefetch, typename V, typename C>
[[gnu::always_inline]] inline double gather_sum_ahead(const V* nb, eid_t b, eid_t e, eid_t last, const C* value) {
  double s = 0;
  for (eid_t j = b; j < e; ++j) {
    if constexpr (Prefetch) __builtin_prefetch(value + nb[std::min(j + kGatherPrefetchArcs, last)]);
    s += static_cast<double>(value[nb[j]]);
  }
  return s;
}

// The same with a weight per arc, w[j] for nb[j] (w indexed like nb).
template <bool Prefetch, typename V, typename C>
[[gnu::always_inline]] inline double gather_weighted_sum_ahead(const V* nb, const weight_t* w, eid_t b, eid_t e,
                                                               eid_t last, const C* value) {
  double s = 0;
  for (eid_t j = b; j < e; ++j) {
    if constexpr (Prefetch) __builtin_prefetch(value + nb[std::min(j + kGatherPrefetchArcs, last)]);
    s += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
  }
  return s;
}

// The sums of gather_sum_ahead over the lists of the consecutive vertices
// lo, lo + 1, ..., hi - 1 of a CSR (offsets `off` into `nb`, whose last index
// is `last`), handed to fn(v, sum) in that order, each before the next list
// is summed (so a Gauss-Seidel sweep's write of vertex v is read by the lists
// after it). List v + 1 starts where list v ends: the loop carries its
// pointer from one list to the next and reads one offset per vertex, not
// two. fn returns a value of type T (a vertex's share of a sweep's totals);
// their sum is returned, accumulated here in a local that no pointer reaches
// (a total kept through a reference sat in memory, a store and a load per
// vertex). The same additions in the same order as gather_sum_ahead.
// Measured: docs/kernels/pr.md, "Carried list pointers".
template <bool Prefetch, typename T, typename V, typename C, typename F>
[[gnu::always_inline]] inline T gather_sums_of_range(const V* nb, const eid_t* off, std::int64_t lo, std::int64_t hi,
                                                     eid_t last, const C* value, F&& fn) {
  const V* p = nb + off[lo];
  const V* const nb_last = nb + last;
  T total{};
  for (std::int64_t v = lo; v < hi; ++v) {
    const V* const end = nb + off[v + 1];
    double s = 0;
    for (; p != end; ++p) {
      if constexpr (Prefetch) __builtin_prefetch(value + *std::min(p + kGatherPrefetchArcs, nb_last));
      s += static_cast<double>(value[*p]);
    }
    total += fn(v, s);
  }
  return total;
}

// The last arc index of a CSR with offsets `off` over n vertices (0 without arcs).
[[gnu::always_inline]] inline eid_t last_arc(const eid_t* off, std::int64_t n) {
  return off[n] > 0 ? off[n] - 1 : 0;
}

}  // namespace numagraph::kernels
