// k-core decomposition parameters and result, shared by every variant (flat
// and engine).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "numagraph/execution.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// Library options of the flat peeling (kcore/peeling.hpp); the CLI and
// Python keep the defaults.
struct KcoreOptions {
  // A round pulls (each remaining vertex counts its peeled neighbours in a
  // bitmap, no atomics) when the peeled vertices' edges times this exceed
  // the remaining vertices' edges; otherwise it pushes (an atomic decrement
  // per edge). 0: always push. -1: 2 while the n degree counters fit in a
  // quarter of the last-level cache, 8 beyond, where each pushed decrement
  // misses the caches (docs/kernels/kcore.md).
  double pull_ratio = -1;
};

// core[v]: the largest k such that v belongs to the k-core, the maximal
// subgraph in which every vertex has at least k neighbours. Degrees count
// parallel edges (kept with --keep-duplicates) once per edge.
template <typename V>
struct KcoreResult {
  NumaArray<std::int32_t> core;
  std::int32_t max_core = 0;  // 0 on an empty graph
  int rounds = 0;             // peeling rounds, summed over the levels (the same on every variant)
  CallInfo ran;
};

// Brings the core numbers of a run on a renumbered graph back to the
// caller's ids (EngineCall::ids()).
template <typename V>
void unpermute(KcoreResult<V>& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.core, ids);
}

// What every variant needs of its input: an undirected graph without
// self-loops (as networkx.core_number), whose degrees fit the 32-bit counters.
template <typename V>
void require_kcore_input(const CSRGraph<V>& g) {
  if (g.directed())
    throw UsageError("k-core decomposition needs an undirected graph: load it with -s (--symmetrize)");
  if (g.num_self_loops() > 0)
    throw UsageError("k-core decomposition needs a graph without self-loops (" + std::to_string(g.num_self_loops()) +
                     " here): load it without --keep-self-loops");
  constexpr eid_t kMaxDegree = std::numeric_limits<std::int32_t>::max();
  if (g.num_arcs() <= kMaxDegree) return;  // no vertex can have more neighbours than that
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (g.out_degree(static_cast<V>(v)) > kMaxDegree)
      throw ResourceError("vertex " + std::to_string(v) + " has more than 2^31 - 1 neighbours, more than k-core's "
                          "32-bit degree counters hold: drop parallel edges (load without --keep-duplicates)");
}

}  // namespace numagraph::kernels
