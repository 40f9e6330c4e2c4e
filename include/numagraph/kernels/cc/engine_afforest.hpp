// Connected components on the NUMA engine by Afforest (weakly connected for
// directed graphs): the flat kernel's algorithm (kernels/cc/afforest.hpp) run
// over the partitioned graph.
//
// The threads of a node link the vertices of the node's range (taking chunks
// of it, engine/node_chunks.hpp) and read their edges from the node's part
// (local, sequential): first the first
// `neighbor_rounds` neighbours of every vertex, then, after the giant
// component has been guessed from 1024 sampled labels, the remaining edges of
// the vertices outside it (and their in-edges on directed graphs). The label
// forest is placed partitioned, so the label of a thread's own vertex is
// local; the labels of neighbours and the roots a link walks to may live on
// any node. That is the price against label propagation
// (engine_label_propagation.hpp), whose random reads are all local but which
// scans every edge once per round; Afforest reads most edges never.
//
// Links hang the larger root under the smaller, so after the last compress
// every vertex carries the smallest id of its component: the same labels on
// every topology and as label propagation gives.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/node_chunks.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/cc/link.hpp"
#include "numagraph/kernels/cc/engine_label_propagation.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

// Labels in the graph's id type, as the flat kernels return them.
// `mode` only changes the accounting: in both modes the labels are placed
// partitioned and every thread scans its own node's edges.
template <typename V, typename Acc = engine::NoAccounting>
CcResult<V> components_afforest_numa(const engine::PartitionedGraph<V>& pg, engine::EngineMode mode, Acc& acc,
                                     int neighbor_rounds = 2, std::uint64_t seed = 27491095) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const bool directed = pg.graph().directed();
  if (directed && !pg.has_out())
    throw UsageError("components_afforest_numa on a directed graph needs out parts");
  (void)mode;
  NumaArray<V> comp(static_cast<std::size_t>(n),
      numa::placement_for("labels", numa::Placement::partitioned()));
  HierarchicalBarrier barrier(layout);
  // Phases: a link and a compress per neighbour round, then the final link and compress.
  NodeChunks chunks(layout, 2 * neighbor_rounds + 2, 4096);
  V giant = 0;

  // Labels are read through a node-owned array: count the lookup by owner.
  auto count_label = [&](int tid, std::int64_t v, Pattern p) {
    if constexpr (Acc::enabled) acc.count_vertex(tid, v, p);
  };
  auto compress_range = [&](int tid, std::int64_t lo, std::int64_t hi) {
    for (std::int64_t v = lo; v < hi; ++v) {
      const V c = cc_detail::root_of(comp.data(), __atomic_load_n(&comp[v], __ATOMIC_RELAXED));
      __atomic_store_n(&comp[v], c, __ATOMIC_RELAXED);
      count_label(tid, v, Pattern::kSequential);
      count_label(tid, c, Pattern::kRandom);
    }
  };
  auto link_counted = [&](int tid, V u, V v) {
    cc_detail::link(u, v, comp.data());
    count_label(tid, u, Pattern::kSequential);
    count_label(tid, v, Pattern::kRandom);
  };

  run_on_threads(layout, [&](int tid) {
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    // First touch by the owner, in the partitioned placement's ranges.
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v) comp[v] = static_cast<V>(v);
    barrier.wait(tid);

    for (int r = 0; r < neighbor_rounds; ++r) {
      chunks.for_each(2 * r, tid, [&](std::int64_t lo, std::int64_t hi, int part) {
        const NodeEdges<V>& edges = pg.out(part);
        for (std::int64_t u = lo; u < hi; ++u) {
          if (u + 16 < hi) {  // the label the link 16 vertices on will read (as the flat kernel)
            const eid_t ahead = edges.begin(u + 16) + r;
            if (ahead < edges.end(u + 16)) __builtin_prefetch(&comp[edges.neighbors[static_cast<std::size_t>(ahead)]]);
          }
          const eid_t j = edges.begin(u) + r;
          if (j < edges.end(u)) {
            link_counted(tid, static_cast<V>(u), edges.neighbors[static_cast<std::size_t>(j)]);
            if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential);
          }
        }
      });
      barrier.wait(tid);
      chunks.for_each(2 * r + 1, tid, [&](std::int64_t lo, std::int64_t hi, int) { compress_range(tid, lo, hi); });
      barrier.wait(tid);
    }

    if (tid == 0 && n > 0)  // the giant component, as the flat kernel guesses it
      giant = cc_detail::most_frequent_sampled_label(
          comp, seed, [&](std::size_t s) { count_label(tid, static_cast<std::int64_t>(s), Pattern::kRandom); });
    barrier.wait(tid);

    const V big = giant;
    chunks.for_each(2 * neighbor_rounds, tid, [&](std::int64_t lo, std::int64_t hi, int part) {
      const NodeEdges<V>& out = pg.out(part);
      for (std::int64_t u = lo; u < hi; ++u) {
        count_label(tid, u, Pattern::kSequential);
        if (__atomic_load_n(&comp[u], __ATOMIC_RELAXED) == big) continue;
        const eid_t b = out.begin(u) + neighbor_rounds, e = out.end(u);
        for (eid_t j = b; j < e; ++j) link_counted(tid, static_cast<V>(u), out.neighbors[static_cast<std::size_t>(j)]);
        if constexpr (Acc::enabled)
          if (e > b) acc.count(tid, part, Pattern::kSequential, e - b);
        if (directed) {
          const NodeEdges<V>& in = pg.pull(part);
          for (eid_t j = in.begin(u); j < in.end(u); ++j)
            link_counted(tid, static_cast<V>(u), in.neighbors[static_cast<std::size_t>(j)]);
          if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, in.end(u) - in.begin(u));
        }
      }
    });
    barrier.wait(tid);
    chunks.for_each(2 * neighbor_rounds + 1, tid, [&](std::int64_t lo, std::int64_t hi, int) { compress_range(tid, lo, hi); });
  });

  CcResult<V> r;
  r.labels = std::move(comp);
  r.rounds = neighbor_rounds + 1;
  return r;
}

}  // namespace numagraph::kernels
