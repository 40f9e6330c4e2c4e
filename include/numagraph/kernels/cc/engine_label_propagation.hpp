// Connected components on the NUMA engine: min-label propagation with
// shortcutting (weakly connected for directed graphs).
//
// Every vertex starts with its own id as label. In a round each node lowers
// the labels of its own vertices to the smallest label among their in- and
// out-neighbours (edges from its own parts), then follows label -> label of
// label (the shortcut of Shiloach-Vishkin, which cuts rounds on long paths).
// Labels are read from the node's replica (local random reads) and a changed
// label is written to every replica by its owner (sequential rolling update).
// Rounds end at a hierarchical barrier; the run stops when no label changed.
//
// At the fixed point every component carries the smallest vertex id in it, so
// the labels are canonical: the same on every topology, in both modes.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/kernels/cc/options.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

template <typename V, typename Acc = engine::NoAccounting>
CcResult<V> connected_components_numa(const engine::PartitionedGraph<V>& pg, engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  const bool directed = pg.graph().directed();
  if (directed && !pg.has_out())
    throw UsageError("connected_components_numa on a directed graph needs out parts");
  CcResult<V> r;
  r.variant = CcVariant::kLabelPropagation;
  r.labels = NumaArray<V>(static_cast<std::size_t>(n),
      numa::placement_for("labels", numa::Placement::partitioned()));
  Replicas<V> replicas(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n));
  HierarchicalBarrier barrier(layout);
  std::vector<parallel::Padded<int>> changed(2 * static_cast<std::size_t>(layout.threads));
  int rounds = 0;

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    auto* view = replicas.if_any();
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v)
        publish(r.labels.data(), view, v, static_cast<V>(v), mode, tid, acc);
    barrier.wait(tid);
    const V* labels = replicas.copy_or(my_node, r.labels.data());
    auto read = [&](V u) {
      if constexpr (Acc::enabled) {
        if (numa) acc.count(tid, my_node, Pattern::kRandom);
        else acc.count_vertex(tid, static_cast<std::int64_t>(u), Pattern::kRandom);
      }
      return __atomic_load_n(&labels[u], __ATOMIC_RELAXED);
    };
    for (int round = 0;; ++round) {
      const std::size_t slot = static_cast<std::size_t>((round % 2) * layout.threads + tid);
      int my_changed = 0;
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        for (std::int64_t v = lo; v < hi; ++v) {
          V best = r.labels[v];
          auto scan = [&](const NodeEdges<V>& edges) {
            const eid_t b = edges.begin(v), e = edges.end(v);
            for (eid_t j = b; j < e; ++j) {
              const V l = read(edges.neighbors[static_cast<std::size_t>(j)]);
              if (l < best) best = l;
            }
            if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, e - b + 1);
          };
          scan(pg.pull(part));
          if (directed) scan(pg.out(part));
          for (V up = read(best); up < best; up = read(best)) best = up;  // shortcut
          if (best < r.labels[v]) {
            // Only the owner writes a label, but others read it concurrently
            // (the master, and the replicas when there are several nodes): atomic stores.
            __atomic_store_n(&r.labels[v], best, __ATOMIC_RELAXED);
            for (int c = 0; c < replicas.distinct_copies(); ++c)
              __atomic_store_n(&replicas.distinct_copy(c)[v], best, __ATOMIC_RELAXED);
            if constexpr (Acc::enabled)
              for (int k = 0; k < replicas.nodes(); ++k) acc.count(tid, k, Pattern::kSequential);
            my_changed = 1;
          }
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);
        }
      }
      changed[slot].value = my_changed;
      barrier.wait(tid);
      int any = 0;
      for (int t = 0; t < layout.threads; ++t)
        any |= changed[static_cast<std::size_t>((round % 2) * layout.threads + t)].value;
      if (tid == 0) rounds = round + 1;
      if (!any) break;
    }
  });
  r.rounds = rounds;
  return r;
}

}  // namespace numagraph::kernels
