// The pull step shared by the engine's sparse-matrix kernels (PageRank, SpMV):
// for one vertex v of a node's range, sum source values over v's in-edges,
// optionally weighted. In kNuma mode the source values come from the thread's
// node-local replica, so every random read is local; in kShared mode they come
// from the one master array, owned piecewise by the nodes (first touch), which
// is what a NUMA-oblivious kernel does. Both modes compute the same sums.
#pragma once

#include <cstdint>
#include <span>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/mode.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/engine/replicated.hpp"
#include "numagraph/sweep/gather_sum.hpp"

namespace numagraph::engine {

// The accounting of one pulled list `nb` of node `part` (a no-op without
// accounting): the list scanned in order from the part's memory (+1 for its
// offset), and one random read of the values per edge.
template <bool Weighted, typename V, typename Acc>
void count_pulled_list(const PartitionedGraph<V>& pg, int part, std::span<const V> nb, EngineMode mode, int tid,
                       Acc& acc) {
  if constexpr (Acc::enabled) {
    const auto edges = static_cast<std::int64_t>(nb.size());
    acc.count(tid, part, Pattern::kSequential, edges * (Weighted ? 2 : 1) + 1);
    if (mode == EngineMode::kNuma) {
      acc.count(tid, pg.layout().thread_node[static_cast<std::size_t>(tid)], Pattern::kRandom, edges);
    } else {
      for (const V u : nb) acc.count_vertex(tid, u, Pattern::kRandom);
    }
  }
}

// Sum of values[u] (* weight) over one list `nb` that node `part` stores
// (an in-list, or a cache-blocked piece of one), with its accounting.
template <bool Weighted, typename V, typename T, typename Acc>
double pull_list_sum(const PartitionedGraph<V>& pg, int part, std::span<const V> nb, const weight_t* weights,
                     const T* values, EngineMode mode, int tid, Acc& acc) {
  // The flat kernels' inner loop: the same partial sums in the same order,
  // so the sum equals the flat kernel's exactly.
  double sum;
  if constexpr (Weighted)
    sum = kernels::gather_weighted_sum(nb, weights, values);
  else
    sum = kernels::gather_sum(nb, values);
  count_pulled_list<Weighted>(pg, part, nb, mode, tid, acc);
  return sum;
}

// Sum over vertex v's list in `edges` (node `part`'s pull or out part) of
// values[u] (* weight), as the flat unblocked kernels sum it: with Prefetch,
// prefetching the values of the arcs ahead in the part
// (kernels/pr/gather_sum.hpp); the same sum either way.
template <bool Weighted, bool Prefetch, typename V, typename T, typename Acc>
double pull_edges_sum(const PartitionedGraph<V>& pg, int part, const NodeEdges<V>& edges, std::int64_t v,
                      const T* values, EngineMode mode, int tid, Acc& acc) {
  const eid_t b = edges.begin(v), e = edges.end(v);
  const auto arcs = static_cast<eid_t>(edges.neighbors.size());
  const eid_t last = arcs > 0 ? arcs - 1 : 0;
  double sum;
  if constexpr (Weighted)
    sum = kernels::gather_weighted_sum_ahead<Prefetch>(edges.neighbors.data(), edges.weights.data(), b, e, last,
                                                       values);
  else
    sum = kernels::gather_sum_ahead<Prefetch>(edges.neighbors.data(), b, e, last, values);
  count_pulled_list<Weighted>(pg, part, std::span<const V>(edges.neighbors.data() + b, static_cast<std::size_t>(e - b)),
                              mode, tid, acc);
  return sum;
}

// Sum over in-edges of v (v in node `part`'s range) of values[u] (* weight).
// `values` is the array the thread reads (a replica or the master).
template <bool Weighted, bool Prefetch = false, typename V, typename T, typename Acc>
double pull_sum(const PartitionedGraph<V>& pg, int part, std::int64_t v, const T* values,
                EngineMode mode, int tid, Acc& acc) {
  return pull_edges_sum<Weighted, Prefetch>(pg, part, pg.pull(part), v, values, mode, tid, acc);
}

// Publishes value x of vertex v: the master entry (unless `master` is null:
// nobody reads it while replicas exist), plus every node's replica in kNuma
// mode (sequential writes: each thread walks its own range in order).
template <typename T, typename Acc>
void publish(T* master, Replicas<T>* replicas, std::int64_t v, T x, EngineMode mode, int tid,
             Acc& acc) {
  if (master) master[v] = x;
  if (mode == EngineMode::kNuma && replicas) {
    replicas->set(static_cast<std::size_t>(v), x);
    if constexpr (Acc::enabled)  // one write per node's copy, shared or not (see Replicas)
      for (int k = 0; k < replicas->nodes(); ++k) acc.count(tid, k, Pattern::kSequential);
  }
  if constexpr (Acc::enabled)
    if (master) acc.count_vertex(tid, v, Pattern::kSequential);
}

}  // namespace numagraph::engine
