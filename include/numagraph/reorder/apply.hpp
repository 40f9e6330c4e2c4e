// apply_permutation: the graph renumbered by a Permutation (vertex i of the
// result is vertex p.old_of_new[i] of g). Out- and in-arrays are rebuilt,
// weights move with their arcs, every neighbour list is sorted by new id,
// labels follow their vertices, and the result's permutation() is the
// composition with g's own, so it still maps to the ids of the graph the user
// loaded even when g was itself a renumbered graph.
//
// Method, per direction: new degrees from the old offsets, a parallel prefix
// sum into 64-bit offsets, then each new vertex copies its old list through
// new_of_old and sorts it on its own (short lists, cache resident). Memory:
// the new graph plus per-thread scratch for one list.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/reorder/permutation.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::reorder {

namespace detail {

template <typename V>
CSRArrays<V> permute_arrays(const CSRArrays<V>& a, std::int64_t n, const V* old_of_new, const V* new_of_old) {
  CSRArrays<V> r;
  r.offsets = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) {
    const V o = old_of_new[i];
    r.offsets[i] = a.offsets[o + 1] - a.offsets[o];
  });
  parallel::exclusive_prefix_sum(r.offsets.data(), r.offsets.data(), n);
  const eid_t m = r.offsets[n];
  const bool weighted = !a.weights.empty();
  r.neighbors = NumaArray<V>::for_overwrite(static_cast<std::size_t>(m), numa::placement_for("graph"));
  if (weighted)
    r.weights = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(m), numa::placement_for("graph"));
#pragma omp parallel
  {
    std::vector<std::pair<V, weight_t>> scratch;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < n; ++i) {
      const V o = old_of_new[i];
      const eid_t from = a.offsets[o], len = a.offsets[o + 1] - from, to = r.offsets[i];
      if (!weighted) {
        for (eid_t k = 0; k < len; ++k) r.neighbors[to + k] = new_of_old[a.neighbors[from + k]];
        std::sort(r.neighbors.begin() + to, r.neighbors.begin() + to + len);
        continue;
      }
      scratch.resize(static_cast<std::size_t>(len));
      for (eid_t k = 0; k < len; ++k) scratch[k] = {new_of_old[a.neighbors[from + k]], a.weights[from + k]};
      // Parallel arcs keep their relative order (stable), as the builder leaves them.
      std::stable_sort(scratch.begin(), scratch.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (eid_t k = 0; k < len; ++k) {
        r.neighbors[to + k] = scratch[k].first;
        r.weights[to + k] = scratch[k].second;
      }
    }
  }
  return r;
}

}  // namespace detail

// p must have g's vertex count (or be the identity: the result is then a copy).
template <typename V>
CSRGraph<V> apply_permutation(const CSRGraph<V>& g, const Permutation<V>& p) {
  const std::int64_t n = g.num_vertices();
  if (!p.identity() && p.size() != static_cast<std::size_t>(n))
    throw UsageError("permutation of " + std::to_string(p.size()) + " vertices applied to a graph of " +
                     std::to_string(n) + ": compute it on this graph");
  NumaArray<V> iota;
  const V* old_of_new = p.old_of_new.data();
  const V* new_of_old = p.new_of_old.data();
  if (p.identity()) {
    iota = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { iota[i] = static_cast<V>(i); });
    old_of_new = new_of_old = iota.data();
  }
  CSRArrays<V> out, in;
  if (n > 0) {
    out = detail::permute_arrays(g.out(), n, old_of_new, new_of_old);
    if (g.directed() && g.has_in_edges()) in = detail::permute_arrays(g.in_arrays(), n, old_of_new, new_of_old);
  }
  NumaArray<std::uint64_t> labels;
  if (g.relabelled()) {
    labels = NumaArray<std::uint64_t>::for_overwrite(static_cast<std::size_t>(n));
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { labels[i] = g.label(old_of_new[i]); });
  }
  CSRGraph<V> r(n, g.directed(), g.weight_kind(), std::move(out), std::move(in), std::move(labels),
                g.num_self_loops());
  r.set_names(g.names());  // indexed by user id, which a renumbering keeps
  // New id i -> id old_of_new[i] in g -> g.permutation().to_old(...) in the loaded graph.
  if (!p.identity() || g.reordered()) {
    auto composed = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
    const auto& base = g.permutation();
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { composed[i] = base.to_old(old_of_new[i]); });
    r.set_permutation(Permutation<V>::from_old_of_new(std::move(composed)));
  }
  return r;
}

// Compiled once in the library for both id widths (src/reorder/instances.cpp).
extern template CSRGraph<std::uint32_t> apply_permutation(const CSRGraph<std::uint32_t>&, const Permutation<std::uint32_t>&);
extern template CSRGraph<std::uint64_t> apply_permutation(const CSRGraph<std::uint64_t>&, const Permutation<std::uint64_t>&);

}  // namespace numagraph::reorder
