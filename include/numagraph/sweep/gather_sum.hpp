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
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

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

// Short lists (road networks, meshes: 1 to 4 arcs a vertex in no pattern).
// The loop over a list ends on a branch that follows the list's length, so
// there it is mispredicted about once a vertex, and that, not the loads,
// sets a sweep's pace. A list of at most kShortListArcs arcs is summed
// instead over kShortListArcs slots, those past its end masked to 0, with no
// branch on its length: the one branch left (is the list short) goes the
// same way on nearly every vertex of such a graph. The slots are added in
// pairs, (s0 + s1) + (s2 + s3): the list's order, and its bits, on lists of
// up to 3 arcs; a list of 4 may differ in the last bit of the double sum,
// and no sum depends on the threads. Measured: docs/kernels/pr.md, "Short lists".
inline constexpr eid_t kShortListArcs = 4;

// value if keep, else +0, without a branch (the bits masked).
template <typename C>
[[gnu::always_inline]] inline double value_if(C value, bool keep) {
  using Bits = std::conditional_t<sizeof(C) == sizeof(std::uint32_t), std::uint32_t, std::uint64_t>;
  static_assert(sizeof(Bits) == sizeof(C));
  const Bits mask = Bits{0} - static_cast<Bits>(keep);
  return static_cast<double>(std::bit_cast<C>(static_cast<Bits>(std::bit_cast<Bits>(value) & mask)));
}

// The sum over the list at `list` of `length` <= kShortListArcs arcs; reads
// kShortListArcs entries of the neighbour array (all must exist), and the
// values of the entries past the list (vertex ids, so valid indices).
template <typename V, typename C>
[[gnu::always_inline]] inline double gather_short_sum(const V* list, eid_t length, const C* value) {
  static_assert(kShortListArcs == 4, "the sum below adds four slots");
  const double s0 = value_if(value[list[0]], length > 0);
  const double s1 = value_if(value[list[1]], length > 1);
  const double s2 = value_if(value[list[2]], length > 2);
  const double s3 = value_if(value[list[3]], length > 3);
  return (s0 + s1) + (s2 + s3);
}

// The sum over the list [p, end) of a neighbour array starting at `first`,
// by gather_short_sum when the list has at most kShortListArcs arcs and
// starts at index `last_slots` or before (its slots all exist), else by the
// loop; p moves to end.
template <typename V, typename C>
[[gnu::always_inline]] inline double short_list_or_loop_sum(const V*& p, const V* end, const V* first,
                                                            eid_t last_slots, const C* value) {
  const eid_t length = end - p;
  double s = 0;
  if (length <= kShortListArcs && p - first <= last_slots) [[likely]] {
    s = gather_short_sum(p, length, value);
    p = end;
  } else {
    for (; p != end; ++p) s += static_cast<double>(value[*p]);
  }
  return s;
}

// gather_sums_of_range (without the prefetch) for graphs of mostly short
// lists (lists_mostly_short), each list summed by short_list_or_loop_sum;
// slots never pass the range's last arc.
template <typename T, typename V, typename C, typename F>
[[gnu::always_inline]] inline T gather_sums_of_short_lists(const V* nb, const eid_t* off, std::int64_t lo,
                                                           std::int64_t hi, const C* value, F&& fn) {
  const V* p = nb + off[lo];
  const eid_t last_slots = off[hi] - kShortListArcs;
  T total{};
  for (std::int64_t v = lo; v < hi; ++v)
    total += fn(v, short_list_or_loop_sum(p, nb + off[v + 1], nb, last_slots, value));
  return total;
}

// The same over [lo, hi) cut into two halves swept side by side: a vertex
// of the first half, then one of the second, in turn (fn(v, sum) in order
// within each half). For Gauss-Seidel on a road network: vertex v often
// reads the value that fn just wrote for v - 1, so one half's vertices wait
// on each other (a store, its load, the sum and fn's arithmetic: about 25
// cycles), and the other half's, which do not depend on them, fill the wait.
// The second half starts from the values its first vertices held before
// the sweep, as if another thread swept it. Returns the total of fn's
// values (the first half's, then the second's, added).
template <typename T, typename V, typename C, typename F>
[[gnu::always_inline]] inline T gather_sums_of_short_lists_in_pairs(const V* nb, const eid_t* off, std::int64_t lo,
                                                                    std::int64_t hi, const C* value, F&& fn) {
  const std::int64_t mid = lo + (hi - lo + 1) / 2;
  const V* p = nb + off[lo];
  const V* q = nb + off[mid];
  const eid_t last_slots = off[hi] - kShortListArcs;
  T first_half{}, second_half{};
  for (std::int64_t v = lo, w = mid; v < mid; ++v, ++w) {
    first_half += fn(v, short_list_or_loop_sum(p, nb + off[v + 1], nb, last_slots, value));
    if (w < hi) second_half += fn(w, short_list_or_loop_sum(q, nb + off[w + 1], nb, last_slots, value));
  }
  first_half += second_half;
  return first_half;
}

// Whether at least 7/8 of the lists have at most kShortListArcs arcs, as
// seen on kShortListSamples vertices spread evenly over the n of a CSR with
// offsets `off` (a road network's: nearly all; a Kronecker graph's: too few).
inline constexpr std::int64_t kShortListSamples = 1024;

inline bool lists_mostly_short(const eid_t* off, std::int64_t n) {
  if (n == 0) return false;
  const std::int64_t samples = std::min(n, kShortListSamples);
  std::int64_t short_lists = 0;
  for (std::int64_t i = 0; i < samples; ++i) {
    const std::int64_t v = i * n / samples;
    short_lists += off[v + 1] - off[v] <= kShortListArcs;
  }
  return short_lists * 8 >= samples * 7;
}

}  // namespace numagraph::kernels
