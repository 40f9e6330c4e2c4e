// Union-by-min linking and path compression on a parent-pointer forest of
// component labels, shared by the connected-components kernels: roots are
// their own labels, and link(u, v) hangs the larger root under the smaller
// with a compare-and-swap, retrying if another thread moved a root first.
// The labels are passed as a raw pointer: through a NumaArray reference the
// compiler reloads its data pointer after every atomic (docs/kernels/cc.md).
#pragma once

#include <cstdint>
#include <omp.h>
#include <unordered_map>

#include "numagraph/graph/types.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels::cc_detail {

template <typename L>
void link(L u, L v, L* comp) {
  L p1 = __atomic_load_n(&comp[u], __ATOMIC_RELAXED);
  L p2 = __atomic_load_n(&comp[v], __ATOMIC_RELAXED);
  while (p1 != p2) {
    const L high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    const L p_high = __atomic_load_n(&comp[high], __ATOMIC_RELAXED);
    if (p_high == low || (p_high == high && parallel::compare_and_swap(comp[high], high, low))) break;
    p1 = __atomic_load_n(&comp[__atomic_load_n(&comp[high], __ATOMIC_RELAXED)], __ATOMIC_RELAXED);
    p2 = __atomic_load_n(&comp[low], __ATOMIC_RELAXED);
  }
}

// Vertices per dynamic chunk of a pass over all vertices: 16384 (far-apart
// ranges, so threads rarely link into each other's labels), but at least 8
// chunks per thread, so a small graph's threads finish together (docs/kernels/cc.md).
inline std::int64_t link_chunk(std::int64_t n) {
  const std::int64_t per_thread = n / (8 * static_cast<std::int64_t>(omp_get_max_threads()));
  return per_thread < 1024 ? 1024 : per_thread > 16384 ? 16384 : per_thread;
}

// The root above label c. Other threads shorten the same paths meanwhile, so
// labels are read as relaxed atomics (plain moves on x86): every value read
// is an ancestor, and the walk ends at the root.
template <typename L>
L root_of(const L* comp, L c) {
  for (L up = __atomic_load_n(&comp[c], __ATOMIC_RELAXED); up != c; up = __atomic_load_n(&comp[c], __ATOMIC_RELAXED))
    c = up;
  return c;
}

// Points every vertex straight at its root.
template <typename L>
void compress(L* comp, std::int64_t n) {
  const std::int64_t chunk = link_chunk(n);
#pragma omp parallel for schedule(dynamic, chunk)
  for (std::int64_t v = 0; v < n; ++v) {
    const L parent = __atomic_load_n(&comp[v], __ATOMIC_RELAXED);
    const L root = root_of(comp, parent);
    if (root != parent) __atomic_store_n(&comp[v], root, __ATOMIC_RELAXED);
  }
}

// Afforest's sample rounds (afforest.hpp, and numagraph-mpi's per-rank
// links). Undirected: round r links each vertex's r-th arc. Directed: the
// rounds alternate out-lists and in-lists (out 0, in 0, out 1, ...), so that
// a vertex with few out-arcs but many in-arcs (the high ids of a Kronecker
// graph) joins the giant in the samples instead of linking all its in-arcs
// in the final pass.
struct SampledArc {
  bool in_list;  // the round reads in-lists
  int index;     // which arc of each list
};
inline SampledArc sampled_arc(int round, bool directed) {
  return directed ? SampledArc{round % 2 == 1, round / 2} : SampledArc{false, round};
}
// The arcs `rounds` sample rounds linked at the head of each out-list and in-list.
inline int sampled_out_arcs(int rounds, bool directed) { return directed ? (rounds + 1) / 2 : rounds; }
inline int sampled_in_arcs(int rounds, bool directed) { return directed ? rounds / 2 : 0; }

// One sample round: vertex u in [0, n) links to its arc `index` of the lists
// (offsets `off`, targets `nb`), if it has one. With `prefetch`, two stages
// run ahead: the list entry 64 vertices on (on a Kronecker graph the heads of
// long lists lie far apart), and the label the link 16 vertices on will read:
// each link otherwise waits for a random read in turn (docs/kernels/cc.md).
// `note(u, arc)` sees every vertex's sampled arc while it is in hand (arc
// null when u has none): numagraph-mpi notes what each arc reached.
struct NoNote {
  template <typename T>
  void operator()(std::int64_t, const T*) const {}
};
template <typename L, typename T, typename Note = NoNote>
void link_sampled_arcs(const eid_t* off, const T* nb, int index, std::int64_t n, L* comp, bool prefetch,
                       std::int64_t chunk, Note&& note = {}) {
#pragma omp parallel for schedule(dynamic, chunk)
  for (std::int64_t u = 0; u < n; ++u) {
    if (prefetch && u + 64 < n) __builtin_prefetch(&nb[off[u + 64] + index]);
    if (prefetch && u + 16 < n && off[u + 16] + index < off[u + 17])
      __builtin_prefetch(&comp[nb[off[u + 16] + index]]);
    const T* arc = off[u] + index < off[u + 1] ? &nb[off[u] + index] : nullptr;
    if (arc) link(static_cast<L>(u), static_cast<L>(*arc), comp);
    note(u, arc);
  }
}

// Afforest's guess of the giant component: the most frequent label among
// 1024 deterministic samples of the indices [0, n) (ties to the smaller
// label). `label_at(i)` is the label at index i: comp[i], or its root where
// comp is not compressed (numagraph-mpi), and the engine counts that read.
template <typename L, typename LabelAt>
L most_frequent_sampled_label(std::uint64_t n, std::uint64_t seed, LabelAt&& label_at) {
  std::unordered_map<L, int> counts;
  std::uint64_t x = seed;
  for (int i = 0; i < 1024; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    ++counts[label_at(static_cast<std::size_t>((x >> 11) % n))];
  }
  L giant = 0;  // every label counted beats best = 0
  int best = 0;
  for (const auto& [label, c] : counts)
    if (c > best || (c == best && label < giant)) {
      best = c;
      giant = label;
    }
  return giant;
}
// The same over a compressed array; `on_sample(i)` sees every sampled index.
template <typename L, typename OnSample>
L most_frequent_sampled_label(const NumaArray<L>& comp, std::uint64_t seed, OnSample&& on_sample) {
  return most_frequent_sampled_label<L>(static_cast<std::uint64_t>(comp.size()), seed, [&](std::size_t s) {
    on_sample(s);
    return comp[s];
  });
}

}  // namespace numagraph::kernels::cc_detail
