// Repeated sparse matrix-vector product on the NUMA engine.
//
// A[u][v] is the weight of arc u -> v (1 when unweighted), so y = A x sums
// over u's out-edges. Each iteration computes y = A x and feeds back
// x <- y / sum(|y|) (the power iteration: keeps values finite however many
// iterations run). x starts at 1/n. Row u is handled by u's node, which
// stores u's out-edges (PartitionedGraph out part; the pull part when the
// graph is undirected) and reads x from its own replica.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"

namespace numagraph::kernels {

struct NumaSpmvResult {
  NumaArray<double> y;  // the last product A x (before normalisation)
  int iterations = 0;
};

template <typename V, typename Acc = engine::NoAccounting>
NumaSpmvResult spmv_numa(const engine::PartitionedGraph<V>& pg, int iterations, engine::EngineMode mode,
                         Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  if (pg.graph().directed() && !pg.has_out())
    throw UsageError("spmv_numa on a directed graph needs out parts");
  NumaSpmvResult r;
  r.y = NumaArray<double>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  if (n == 0) return r;
  NumaArray<double> x(static_cast<std::size_t>(n), numa::Placement::partitioned());
  Replicas<double> replicas(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n));
  HierarchicalBarrier barrier(layout);
  std::vector<parallel::Padded<double>> norm(2 * static_cast<std::size_t>(layout.threads));
  const bool weighted = pg.graph().weighted();

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    auto* view = replicas.if_any();
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v) publish(x.data(), view, v, 1.0 / static_cast<double>(n), mode, tid, acc);
    barrier.wait(tid);
    const double* source = replicas.copy_or(my_node, x.data());
    for (int it = 0; it < iterations; ++it) {
      const std::size_t slot = static_cast<std::size_t>((it % 2) * layout.threads + tid);
      double my_norm = 0;
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        for (std::int64_t u = lo; u < hi; ++u) {
          const NodeEdges<V>& rows = pg.out(part);
          const eid_t b = rows.begin(u), e = rows.end(u);
          // The flat kernel's inner loop (same partial sums, same order).
          const std::span<const V> nb(rows.neighbors.data() + b, static_cast<std::size_t>(e - b));
          const double sum = weighted ? gather_weighted_sum(nb, rows.weights.data() + b, source) : gather_sum(nb, source);
          if constexpr (Acc::enabled) {
            for (eid_t j = b; j < e; ++j) {
              if (numa) acc.count(tid, my_node, Pattern::kRandom);
              else acc.count_vertex(tid, rows.neighbors[static_cast<std::size_t>(j)], Pattern::kRandom);
            }
            acc.count(tid, part, Pattern::kSequential, (e - b) * (weighted ? 2 : 1) + 1);
          }
          r.y[u] = sum;
          my_norm += std::fabs(sum);
          if constexpr (Acc::enabled) acc.count_vertex(tid, u, Pattern::kSequential);
        }
      }
      norm[slot].value = my_norm;
      barrier.wait(tid);  // every product of this iteration is done: x may change
      double total = 0;
      for (int t = 0; t < layout.threads; ++t) total += norm[static_cast<std::size_t>((it % 2) * layout.threads + t)].value;
      const double scale = total > 0 ? 1.0 / total : 1.0;
      for (const auto& [lo, hi] : ranges)
        for (std::int64_t u = lo; u < hi; ++u) publish(x.data(), view, u, r.y[u] * scale, mode, tid, acc);
      barrier.wait(tid);
    }
  });
  r.iterations = iterations;
  return r;
}

}  // namespace numagraph::kernels
