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
#include "numagraph/engine/segmented_parts.hpp"
#include "numagraph/kernels/spmv/options.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

// `cache_block_width`: columns per cache block (0: not blocked); the entry
// point passes spmv_block_width's decision. A thread makes its rows' products one column
// range at a time, carrying each row's sum in `partial` (node-local); no
// barrier between ranges, because x is never written during a product.
template <typename V, typename Acc = engine::NoAccounting>
SpmvResult spmv_numa(const engine::PartitionedGraph<V>& pg, int iterations, engine::EngineMode mode, Acc& acc,
                     std::int64_t cache_block_width = 0) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  if (pg.graph().directed() && !pg.has_out())
    throw UsageError("spmv_numa on a directed graph needs out parts");
  SpmvResult r;
  if (n == 0 || iterations <= 0) {
    r.y = NumaArray<double>(static_cast<std::size_t>(n),
        numa::placement_for("y", numa::Placement::partitioned()));
    return r;
  }
  // Products are double-buffered by iteration parity (with their replicas):
  // iteration it reads vector[it % 2] and publishes its product into the
  // other buffer. The normalisation is folded into the next product, as in
  // the flat kernel (y' = (A y) / sum|y|), so an iteration is one pass and
  // one barrier; results equal the flat kernel's to rounding (the norm is
  // summed in per-thread pieces).
  // The first pass writes vector[0] and every product all of the other (so
  // they may be recycled arrays, numa/memory.hpp).
  NumaArray<double> vector[2] = {
      NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
          numa::placement_for("x", numa::Placement::partitioned())),
      NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
          numa::placement_for("y", numa::Placement::partitioned()))};
  Replicas<double> replicas[2] = {Replicas<double>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n)),
                                  Replicas<double>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n))};
  const auto blocked =
      segment_parts(pg, cache_block_width, [&](int k) -> const NodeEdges<V>& { return pg.out(k); });
  const int last = blocked.empty() ? 0 : blocked.front().num_segments() - 1;
  r.cache_segments = last + 1;
  NumaArray<double> partial(blocked.empty() ? 0 : static_cast<std::size_t>(n), numa::Placement::partitioned());
  HierarchicalBarrier barrier(layout);
  std::vector<parallel::Padded<double>> norm(2 * static_cast<std::size_t>(layout.threads));
  const bool weighted = pg.graph().weighted();
  const bool prefetch = kernels::prefetch_pays(n, sizeof(double));  // as the flat kernel (gather_sum.hpp)

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v)
        publish(vector[0].data(), replicas[0].if_any(), v, 1.0 / static_cast<double>(n), mode, tid, acc);
    barrier.wait(tid);
    double scale = 1;  // the product of this iteration = scale * A * vector[cur]
    for (int it = 0; it < iterations; ++it) {
      const int cur = it % 2, nxt = 1 - cur;
      const double* source = replicas[cur].copy_or(my_node, vector[cur].data());
      Replicas<double>* next_replicas = replicas[nxt].if_any();
      // While replicas exist nobody reads the master vector, except the
      // result: the last product.
      double* next_master = next_replicas && it + 1 < iterations ? nullptr : vector[nxt].data();
      double my_norm = 0;
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        const NodeEdges<V>& rows = pg.out(part);
        const std::int64_t first = layout.node_bounds[part];
        auto piece_sum = [&](int s, std::int64_t u) {
          const SegmentedLists<V>& seg = blocked[static_cast<std::size_t>(part)];
          return weighted ? pull_list_sum<true>(pg, part, seg.piece(s, u - first), seg.piece_weights(s, u - first),
                                                source, mode, tid, acc)
                          : pull_list_sum<false>(pg, part, seg.piece(s, u - first), nullptr, source, mode, tid, acc);
        };
        for (int s = 0; s < last; ++s)
          for (std::int64_t u = lo; u < hi; ++u) partial[u] = s == 0 ? piece_sum(s, u) : partial[u] + piece_sum(s, u);
        for (std::int64_t u = lo; u < hi; ++u) {
          double y;
          if (!blocked.empty()) {
            y = scale * ((last == 0 ? 0.0 : partial[u]) + piece_sum(last, u));
          } else {
            // Branches on run-time constants, taken the same way for every row.
            if (weighted)
              y = prefetch ? pull_edges_sum<true, true>(pg, part, rows, u, source, mode, tid, acc)
                           : pull_edges_sum<true, false>(pg, part, rows, u, source, mode, tid, acc);
            else
              y = prefetch ? pull_edges_sum<false, true>(pg, part, rows, u, source, mode, tid, acc)
                           : pull_edges_sum<false, false>(pg, part, rows, u, source, mode, tid, acc);
            y *= scale;
          }
          publish(next_master, next_replicas, u, y, mode, tid, acc);
          my_norm += std::fabs(y);
        }
      }
      norm[static_cast<std::size_t>(cur * layout.threads + tid)].value = my_norm;
      barrier.wait(tid);  // every product of this iteration is published
      double total = 0;
      for (int t = 0; t < layout.threads; ++t) total += norm[static_cast<std::size_t>(cur * layout.threads + t)].value;
      scale = total > 0 ? 1.0 / total : 1.0;
    }
  });
  r.y = std::move(vector[iterations % 2]);
  r.iterations = iterations;
  return r;
}

}  // namespace numagraph::kernels
