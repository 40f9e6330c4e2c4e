// Loopy belief propagation on the NUMA engine (model: kernels/bp/model.hpp).
//
// Polymer's trick applied to messages: node k keeps, for every edge {w, v}
// with w in its range, both the message v->w (incoming) and w->v (outgoing),
// in w's neighbour order. Iteration t+1 at node k computes
//   r_{v->w} = f(L_v - r_{w->v})   (L_v from the node's replica of L)
//   r_{w->v} = f(L_w - r_{v->w})   (everything local)
// so each message is computed at the node of its receiver AND of its sender,
// and every random read is local. L (log-odds of each vertex) is published by
// its owner to every replica between the two barriers of an iteration.
// Undirected graphs only (an MRF has no edge directions). Vertex w takes the
// prior of id prior_id[w] (w itself when null), as in per_arc.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/kernels/bp/model.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

template <typename V, typename Acc = engine::NoAccounting>
bp::Result belief_propagation_numa(const engine::PartitionedGraph<V>& pg, const bp::Model& model,
                                   engine::EngineMode mode, Acc& acc, const V* prior_id = nullptr) {
  using namespace engine;
  if (pg.graph().directed())
    throw UsageError("belief propagation needs an undirected graph: load it with -s (--symmetrize)");
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  bp::Result r;
  r.belief = NumaArray<double>(static_cast<std::size_t>(n),
      numa::placement_for("belief", numa::Placement::partitioned()));
  NumaArray<double> log_odds(static_cast<std::size_t>(n), numa::Placement::partitioned());
  Replicas<double> replicas(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n));
  std::vector<NumaArray<double>> incoming, outgoing;  // per node, in pull-part order
  for (int k = 0; k < layout.nodes; ++k) {
    incoming.emplace_back(pg.pull(k).neighbors.size(), numa::Placement::bind(k));
    outgoing.emplace_back(pg.pull(k).neighbors.size(), numa::Placement::bind(k));
  }
  HierarchicalBarrier barrier(layout);

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    const double* L = replicas.copy_or(my_node, log_odds.data());
    auto total_log_odds = [&](int part, std::int64_t w) {
      const NodeEdges<V>& e = pg.pull(part);
      double l = bp::prior_log_odds(model, static_cast<std::uint64_t>(prior_id ? prior_id[w] : w));
      for (eid_t i = e.begin(w); i < e.end(w); ++i) l += incoming[part][static_cast<std::size_t>(i)];
      if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, e.end(w) - e.begin(w));
      return l;
    };
    for (int it = 0; it < model.iterations; ++it) {
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        for (std::int64_t w = lo; w < hi; ++w)
          publish(log_odds.data(), replicas.if_any(), w, total_log_odds(part, w), mode, tid, acc);
      }
      barrier.wait(tid);
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        const NodeEdges<V>& e = pg.pull(part);
        for (std::int64_t w = lo; w < hi; ++w) {
          const double lw = log_odds[w];
          for (eid_t i = e.begin(w); i < e.end(w); ++i) {
            const auto j = static_cast<std::size_t>(i);
            const V v = e.neighbors[j];
            const double in = incoming[part][j], out = outgoing[part][j];
            incoming[part][j] = bp::message_log_odds(model, L[v] - out);
            outgoing[part][j] = bp::message_log_odds(model, lw - in);
            if constexpr (Acc::enabled) {
              if (numa) acc.count(tid, my_node, Pattern::kRandom);
              else acc.count_vertex(tid, v, Pattern::kRandom);
            }
          }
          if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, 5 * (e.end(w) - e.begin(w)) + 1);
        }
      }
      barrier.wait(tid);
    }
    for (const auto& [lo, hi] : ranges) {
      const int part = layout.node_of_vertex(lo);
      for (std::int64_t w = lo; w < hi; ++w) r.belief[w] = bp::belief(total_log_odds(part, w));
    }
  });
  return r;
}

}  // namespace numagraph::kernels
