// Builder: every neighbour list on its own (short, cache resident):
// sort it by (id, weight), so the graph is the same whatever order the input
// and the threads wrote in; drop self-loops and repeated ids when asked,
// inside the list's own slots; then, if anything was dropped, copy the kept
// arcs into arrays of the final size. Sorting by weight second puts the
// lightest of parallel edges first, which is the one dedupe keeps.
// Private to builder.cpp.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/graph/types.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::build {

// A float's bits mapped to an unsigned integer in the same order (negative
// numbers reversed), so (id, weight) pairs sort as integers. Weights are
// finite here (the builder refuses others first).
inline std::uint32_t weight_order(weight_t w) {
  const auto bits = std::bit_cast<std::uint32_t>(w);
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

inline weight_t weight_from_order(std::uint32_t order) {
  return std::bit_cast<weight_t>(order & 0x80000000u ? order & 0x7FFFFFFFu : ~order);
}

// Lists this short are sorted by insertion: no call, no recursion.
inline constexpr eid_t kInsertionSortMax = 32;

template <typename T>
void insertion_sort(T* first, T* last) {
  for (T* i = first + 1; i < last; ++i) {
    const T x = *i;
    T* j = i;
    for (; j > first && x < j[-1]; --j) *j = j[-1];
    *j = x;
  }
}

// Merges the sorted runs [keys, mid) and [mid, end) in place, through a
// copy of the first run: what is written never passes what is still unread.
template <typename T>
void merge_runs(T* keys, T* mid, T* end, std::vector<T>& scratch) {
  scratch.assign(keys, mid);
  const T* a = scratch.data();
  const T* const a_end = a + scratch.size();
  T* b = mid;
  T* out = keys;
  while (a != a_end) *out++ = b != end && *b < *a ? *b++ : *a++;
  // [b, end) is already in place.
}

// Sorts keys[0..d). Lists usually arrive sorted (a sorted input) or as two
// sorted runs (an undirected graph's forward arcs, then its reverse arcs):
// those are checked, or merged, in linear time.
template <typename T>
void order_keys(T* keys, eid_t d, std::vector<T>& scratch) {
  T* const end = keys + d;
  T* const mid = std::is_sorted_until(keys, end);
  if (mid == end) return;
  if (std::is_sorted(mid, end)) {
    merge_runs(keys, mid, end, scratch);
  } else if (d <= kInsertionSortMax) {
    insertion_sort(keys, end);
  } else {
    std::sort(keys, end);
  }
}

// The thread's scratch arrays for order_list.
template <typename V>
struct ListScratch {
  using Pair = std::pair<std::uint64_t, std::uint32_t>;
  std::vector<V> ids;
  std::vector<std::uint64_t> keys, key_run;  // 32-bit id and weight in one word
  std::vector<Pair> pairs, pair_run;          // 64-bit id and weight
};

// Sorts one list of `d` arcs by (id, weight): weighted arcs become one key
// each (id, then the weight's order bits), sorted as a whole.
template <typename V>
void order_list(V* ids, weight_t* weights, eid_t d, ListScratch<V>& s) {
  if (d < 2) return;
  if (weights == nullptr) return order_keys(ids, d, s.ids);
  auto sort_as = [&](auto& keys, auto& run, auto pack, auto unpack) {
    keys.resize(static_cast<std::size_t>(d));
    for (eid_t k = 0; k < d; ++k) keys[k] = pack(ids[k], weight_order(weights[k]));
    order_keys(keys.data(), d, run);
    for (eid_t k = 0; k < d; ++k) unpack(keys[k], ids[k], weights[k]);
  };
  using Pair = typename ListScratch<V>::Pair;
  if constexpr (sizeof(V) == 4) {
    sort_as(
        s.keys, s.key_run, [](V id, std::uint32_t w) { return std::uint64_t{id} << 32 | w; },
        [](std::uint64_t key, V& id, weight_t& w) {
          id = static_cast<V>(key >> 32);
          w = weight_from_order(static_cast<std::uint32_t>(key));
        });
  } else {
    sort_as(
        s.pairs, s.pair_run, [](V id, std::uint32_t w) { return Pair(id, w); },
        [](const Pair& key, V& id, weight_t& w) {
          id = key.first;
          w = weight_from_order(key.second);
        });
  }
}

struct ListCounts {
  std::int64_t loops_removed = 0;
  std::int64_t duplicates_removed = 0;  // arcs
  std::int64_t loops_kept = 0;
};

// Drops, from the sorted list of vertex v, its self-loops and the repeats of
// an id, moving the kept arcs to the front of its slots; returns how many
// were kept. A repeated self-loop counts as a loop when loops are dropped.
// Arc k is only ever moved to slot kept <= k, so slot k-1 still holds the
// input's arc k-1 when arc k is compared with it.
template <typename V>
eid_t clean_list(std::uint64_t v, V* ids, weight_t* weights, eid_t d, bool drop_loops, bool dedupe,
                 ListCounts& c) {
  eid_t kept = 0;
  for (eid_t k = 0; k < d; ++k) {
    const V x = ids[k];
    if (x == v && drop_loops) {
      ++c.loops_removed;
    } else if (dedupe && k > 0 && x == ids[k - 1]) {
      ++c.duplicates_removed;
    } else {
      c.loops_kept += x == v;
      ids[kept] = x;
      if (weights) weights[kept] = weights[k];
      ++kept;
    }
  }
  return kept;
}

// The kept prefix of every list, copied into arrays of the final size.
template <typename V>
void compact_lists(CSRArrays<V>& a, std::int64_t n, NumaArray<eid_t>& kept) {
  const bool weighted = !a.weights.empty();
  CSRArrays<V> b;
  b.offsets = std::move(kept);
  parallel::exclusive_prefix_sum(b.offsets.data(), b.offsets.data(), n);
  const auto arcs = static_cast<std::size_t>(b.offsets[n]);
  b.neighbors = NumaArray<V>(arcs, numa::placement_for("graph"));
  if (weighted) b.weights = NumaArray<weight_t>(arcs, numa::placement_for("graph"));
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < n; ++v) {
    const eid_t d = b.offsets[v + 1] - b.offsets[v];
    std::copy_n(a.neighbors.data() + a.offsets[v], d, b.neighbors.data() + b.offsets[v]);
    if (weighted) std::copy_n(a.weights.data() + a.offsets[v], d, b.weights.data() + b.offsets[v]);
  }
  a = std::move(b);
}

// Sorts the front of every list, [offsets[v], offsets[v + 1] - room[v]).
template <typename V>
void sort_list_fronts(CSRArrays<V>& a, std::int64_t n, const NumaArray<eid_t>& room) {
  const bool weighted = !a.weights.empty();
#pragma omp parallel
  {
    ListScratch<V> scratch;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t v = 0; v < n; ++v)
      order_list(a.neighbors.data() + a.offsets[v], weighted ? a.weights.data() + a.offsets[v] : nullptr,
                 a.offsets[v + 1] - room[v] - a.offsets[v], scratch);
  }
}

// Sorts every list, drops self-loops and/or duplicates when asked, and
// returns what it dropped and the self-loops that remain. List v belongs to
// vertex first_id + v (numagraph-mpi's ranks hold a block of the vertices).
template <typename V>
ListCounts sort_and_clean_lists(CSRArrays<V>& a, std::int64_t n, bool drop_loops, bool dedupe,
                                std::uint64_t first_id = 0) {
  const bool weighted = !a.weights.empty();
  const bool cleaning = drop_loops || dedupe;
  NumaArray<eid_t> kept(cleaning ? static_cast<std::size_t>(n) + 1 : 0);
  ListCounts total;
#pragma omp parallel
  {
    ListScratch<V> scratch;
    ListCounts c;
#pragma omp for schedule(dynamic, 256) nowait
    for (std::int64_t v = 0; v < n; ++v) {
      V* ids = a.neighbors.data() + a.offsets[v];
      weight_t* w = weighted ? a.weights.data() + a.offsets[v] : nullptr;
      const eid_t d = a.offsets[v + 1] - a.offsets[v];
      order_list(ids, w, d, scratch);
      if (cleaning) {
        kept[v] = clean_list(first_id + static_cast<std::uint64_t>(v), ids, w, d, drop_loops, dedupe, c);
      } else {
        c.loops_kept += std::count(ids, ids + d, static_cast<V>(first_id + static_cast<std::uint64_t>(v)));
      }
    }
#pragma omp critical
    {
      total.loops_removed += c.loops_removed;
      total.duplicates_removed += c.duplicates_removed;
      total.loops_kept += c.loops_kept;
    }
  }
  if (total.loops_removed + total.duplicates_removed > 0) compact_lists(a, n, kept);
  return total;
}

}  // namespace numagraph::build
