// Every BFS predecessor of every vertex: the in-neighbours u with
// depth[u] + 1 == depth[v] (NetworkX's `predecessor`), as lists in the
// caller's ids, each sorted. Two parallel passes over the arcs (count, then
// fill), so a graph without in-edges works too; O(n + m).
#pragma once

#include <algorithm>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

// Vertex c's predecessors are sources[offsets[c] .. offsets[c + 1]).
struct PredecessorLists {
  NumaArray<eid_t> offsets;  // n + 1 entries
  NumaArray<std::int64_t> sources;
};

// `g` may be renumbered (its permutation maps its vertices to the caller's);
// `depth` is in the caller's order, -1 for unreached vertices.
template <typename V>
PredecessorLists bfs_all_predecessors(const CSRGraph<V>& g, const std::int32_t* depth) {
  const std::int64_t n = g.num_vertices();
  const auto& ids = g.permutation();
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  PredecessorLists r;
  r.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1);  // zeroed: the counts
  // Visits every tight arc as (caller u, caller v).
  auto tight_arcs = [&](auto&& take) {
    parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t k) {
      const auto cu = static_cast<std::int64_t>(ids.to_old(static_cast<V>(k)));
      if (depth[cu] < 0) return;
      for (eid_t j = off[k]; j < off[k + 1]; ++j) {
        if (j > off[k] && nbr[j] == nbr[j - 1]) continue;  // a parallel arc: u is listed once
        const auto cv = static_cast<std::int64_t>(ids.to_old(nbr[j]));
        if (depth[cv] == depth[cu] + 1) take(cu, cv);
      }
    }, std::int64_t{256});
  };
  tight_arcs([&](std::int64_t, std::int64_t cv) { parallel::fetch_add(r.offsets[cv], eid_t{1}); });
  parallel::exclusive_prefix_sum(r.offsets.data(), r.offsets.data(), n);
  r.sources = NumaArray<std::int64_t>::for_overwrite(static_cast<std::size_t>(r.offsets[n]));
  auto cursor = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t c) { cursor[c] = r.offsets[c]; });
  tight_arcs([&](std::int64_t cu, std::int64_t cv) { r.sources[parallel::fetch_add(cursor[cv], eid_t{1})] = cu; });
  parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t c) {
    std::sort(r.sources.data() + r.offsets[c], r.sources.data() + r.offsets[c + 1]);
  }, std::int64_t{1024});
  return r;
}

}  // namespace numagraph::kernels
