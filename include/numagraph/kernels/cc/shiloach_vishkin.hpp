// Connected components by Shiloach-Vishkin (1982): alternate hooking (for an
// edge whose endpoints carry different labels, the root with the larger
// label is hooked under the smaller label) and shortcutting (pointer
// jumping to the root) until no hook happens. Every arc is looked at in both
// orientations, so directed graphs give weakly connected components.
#pragma once

#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/cc/link.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

template <typename V>
NumaArray<V> components_shiloach_vishkin(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  NumaArray<V> comp(static_cast<std::size_t>(n), numa::placement_for("labels"));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { comp[v] = static_cast<V>(v); });
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  const eid_t arcs = off[n];
  bool changed = true;
  while (changed) {
    changed = false;
#pragma omp parallel for schedule(dynamic, 16384) reduction(|| : changed)
    for (std::int64_t u = 0; u < n; ++u) {
      for (eid_t j = off[u]; j < off[u + 1]; ++j) {
        // The label of the target 16 arcs on: a random read otherwise
        // waited for in turn (kron20, urand22: see docs/kernels/cc.md).
        if (j + 16 < arcs) __builtin_prefetch(&comp[nbr[j + 16]]);
        const V v = nbr[j];
        const V cu = __atomic_load_n(&comp[u], __ATOMIC_RELAXED), cv = __atomic_load_n(&comp[v], __ATOMIC_RELAXED);
        if (cu == cv) continue;
        const V high = cu > cv ? cu : cv, low = cu + cv - high;
        // Hook only roots, so the forest never gains a cycle.
        if (__atomic_load_n(&comp[high], __ATOMIC_RELAXED) == high) {
          __atomic_store_n(&comp[high], low, __ATOMIC_RELAXED);
          changed = true;
        }
      }
    }
    cc_detail::compress(comp.data(), static_cast<std::int64_t>(comp.size()));
  }
  return comp;
}

}  // namespace numagraph::kernels
