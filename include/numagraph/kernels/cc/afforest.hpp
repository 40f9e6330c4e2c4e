// Connected components by Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018).
// First link every vertex to its first `neighbor_rounds` neighbours only (a
// sparse subgraph that already joins most of the giant component), compress,
// and guess the giant component from a sample of labels. Then the final pass
// skips every vertex already in the giant component and links the remaining
// vertices through their other edges. Directed graphs give weakly connected
// components: an arc counts both ways, so the samples take out-arcs and
// in-arcs in turn and the final pass follows both.
// Labels are representative vertex ids (a root of the forest).
#pragma once

#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/cc/link.hpp"
#include "numagraph/numa/machine_resources.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

template <typename V>
NumaArray<V> components_afforest(const CSRGraph<V>& g, int neighbor_rounds = 2, std::uint64_t seed = 27491095) {
  if (neighbor_rounds < 0)
    throw UsageError("Afforest's neighbour rounds must be 0 or more (got " + std::to_string(neighbor_rounds) + ")");
  const std::int64_t n = g.num_vertices();
  auto comp = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("labels"));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { comp[v] = static_cast<V>(v); });
  if (n == 0) return comp;
  const std::int64_t chunk = cc_detail::link_chunk(n);
  // Raw pointers: the links' atomics would otherwise make the compiler reload
  // the arrays' pointers from the graph and the NumaArray at every arc.
  V* const c = comp.data();
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  // Labels within 1/16 of the L3 are mostly cache hits already; the prefetch
  // then only costs (road-NY 1.07x, soc-Slashdot0902 1.2x: docs/kernels/cc.md).
  const bool prefetch = static_cast<std::uint64_t>(n) * sizeof(V) > numa::last_level_cache_bytes() / 16;
  // Sampled arcs: out-lists and in-lists in turn on a directed graph (cc_detail::sampled_arc).
  const bool directed = g.directed();
  const int sampled_out = cc_detail::sampled_out_arcs(neighbor_rounds, directed);
  const int sampled_in = cc_detail::sampled_in_arcs(neighbor_rounds, directed);
  for (int r = 0; r < neighbor_rounds; ++r) {
    profile::InnerPhase phase("sample links");
    const cc_detail::SampledArc arc = cc_detail::sampled_arc(r, directed);
    const CSRArrays<V>& lists = arc.in_list ? g.in_arrays() : g.out();
    cc_detail::link_sampled_arcs(lists.offsets.data(), lists.neighbors.data(), arc.index, n, c, prefetch, chunk);
    cc_detail::compress(c, n);
  }
  profile::InnerPhase phase("final links");
  // Most frequent label among 1024 deterministic samples: the giant component.
  const V giant = cc_detail::most_frequent_sampled_label(comp, seed, [](std::size_t) {});
#pragma omp parallel for schedule(dynamic, chunk)
  for (std::int64_t u = 0; u < n; ++u) {
    if (__atomic_load_n(&c[u], __ATOMIC_RELAXED) == giant) continue;  // other threads link meanwhile
    for (eid_t e = off[u] + sampled_out, end = off[u + 1]; e < end; ++e) cc_detail::link(static_cast<V>(u), nbr[e], c);
    if (directed) {
      const eid_t* const in_off = g.in_arrays().offsets.data();
      const V* const in_nbr = g.in_arrays().neighbors.data();
      for (eid_t e = in_off[u] + sampled_in, end = in_off[u + 1]; e < end; ++e)
        cc_detail::link(static_cast<V>(u), in_nbr[e], c);
    }
  }
  cc_detail::compress(c, n);
  return comp;
}

}  // namespace numagraph::kernels
