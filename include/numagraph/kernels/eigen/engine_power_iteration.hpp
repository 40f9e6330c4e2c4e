// Eigenvector and Katz centrality on the NUMA engine: the power iteration of
// power_iteration.hpp as the engine's pull (as PageRank's engine_jacobi.hpp).
// Every vertex v of node k sums x over its in-edges, which node k stores
// (PartitionedGraph pull part), reading x from its node's replica; the
// thread that computes v's next value writes it into every node's replica (a
// sequential write of its own range). So in kNuma mode every random read is
// local and every remote access is sequential.
// Eigenvector keeps the iterate unnormalized in the replicas with one scale
// factor (x = scale * stored): the norm is known only after the sweep, and
// rescaling would write every replica again. An eigenvector iteration is a
// sweep, a barrier, a pass over the thread's own vertices (the L1 change)
// and a barrier; a Katz iteration is one sweep and one barrier.
// Values equal the flat kernel's to rounding (the same sums per vertex; the
// norms and changes summed per thread instead of per fixed piece).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/kernels/eigen/options.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/sweep/gather_sum.hpp"

namespace numagraph::kernels {

template <bool Weighted, bool Prefetch, typename V, typename Acc>
CentralityResult power_iteration_numa_with(const engine::PartitionedGraph<V>& pg, const PowerIteration& p,
                                           engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  CentralityResult r;
  // The sweeps write every vertex of `values` (the unnormalized iterate);
  // with no iteration the start vector is written below.
  r.values = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
                                              numa::placement_for("x", numa::Placement::partitioned()));
  if (n == 0) {
    r.converged = true;
    return r;
  }
  const numa::Placement place = numa::placement_for("x", numa::Placement::partitioned());
  NumaArray<double> master[2] = {NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), place),
                                 NumaArray<double>::for_overwrite(static_cast<std::size_t>(n), place)};
  Replicas<double> replicas[2] = {Replicas<double>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n)),
                                  Replicas<double>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n))};
  HierarchicalBarrier barrier(layout);
  // Per-thread sums, double-buffered by iteration parity.
  std::vector<parallel::Padded<double>> squares(2 * static_cast<std::size_t>(layout.threads));
  std::vector<parallel::Padded<double>> change(2 * static_cast<std::size_t>(layout.threads));
  const bool katz = p.rule == PowerRule::kKatz;
  const double limit = p.stop_limit(n), start = p.start(n);
  double* const values = r.values.data();
  int iterations = 0;
  double last_change = 0, eigenvalue = 0;
  bool converged = false;
  auto total = [&](const std::vector<parallel::Padded<double>>& per_thread, int parity) {
    double s = 0;
    for (int t = 0; t < layout.threads; ++t) s += per_thread[static_cast<std::size_t>(parity * layout.threads + t)].value;
    return s;
  };

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v) {
        publish(replicas[0].if_any() ? nullptr : master[0].data(), replicas[0].if_any(), v, start, mode, tid, acc);
        values[v] = start;
      }
    barrier.wait(tid);
    double scale = 1;  // x of this iteration = scale * the stored vector
    bool done = false;
    for (int it = 0; it < p.max_iterations && !done; ++it) {
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread (tid 0)
      if (tid == 0) phase.emplace("iteration");
      const int cur = it % 2, nxt = 1 - cur;
      const double* source = replicas[cur].copy_or(my_node, master[cur].data());
      Replicas<double>* next_replicas = replicas[nxt].if_any();
      double* next_master = next_replicas ? nullptr : master[nxt].data();
      double mine = 0;
      for (const auto& [lo, hi] : ranges) {
        const int part = layout.node_of_vertex(lo);
        for (std::int64_t v = lo; v < hi; ++v) {
          const double sum = pull_sum<Weighted, Prefetch>(pg, part, v, source, mode, tid, acc);
          double next;
          if (katz) {
            next = p.alpha * sum + p.beta;
            mine += std::fabs(next - source[v]);
          } else {
            next = scale * (source[v] + sum);
            mine += next * next;
          }
          values[v] = next;
          publish(next_master, next_replicas, v, next, mode, tid, acc);
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential, 2);
        }
      }
      double step;
      if (katz) {
        change[static_cast<std::size_t>(cur * layout.threads + tid)].value = mine;
        barrier.wait(tid);
        step = total(change, cur);
      } else {
        squares[static_cast<std::size_t>(cur * layout.threads + tid)].value = mine;
        barrier.wait(tid);
        const double two_norm = std::sqrt(total(squares, cur));
        const double next_scale = two_norm > 0 ? 1.0 / two_norm : 1.0;
        // NetworkX's change: the normalized iterate against the last one.
        double moved = 0;
        for (const auto& [lo, hi] : ranges)
          for (std::int64_t v = lo; v < hi; ++v) moved += std::fabs(values[v] * next_scale - scale * source[v]);
        if constexpr (Acc::enabled)
          for (const auto& [lo, hi] : ranges) acc.count_vertex(tid, lo, Pattern::kSequential, 2 * (hi - lo));
        change[static_cast<std::size_t>(cur * layout.threads + tid)].value = moved;
        barrier.wait(tid);
        step = total(change, cur);
        scale = next_scale;
        if (tid == 0) eigenvalue = two_norm - 1;
      }
      if (tid == 0) {
        iterations = it + 1;
        last_change = step;
      }
      done = step < limit;  // every thread sees the same total
    }
    // The answer: eigenvector's stored vector times its scale; Katz's, by
    // the L2 norm when asked and converged (NetworkX's rule).
    if (katz && p.normalized && done) {
      double mine = 0;
      for (const auto& [lo, hi] : ranges)
        for (std::int64_t v = lo; v < hi; ++v) mine += values[v] * values[v];
      squares[static_cast<std::size_t>(tid)].value = mine;
      barrier.wait(tid);
      const double two_norm = std::sqrt(total(squares, 0));
      scale = two_norm > 0 ? 1.0 / two_norm : 1.0;
    }
    if (scale != 1)
      for (const auto& [lo, hi] : ranges)
        for (std::int64_t v = lo; v < hi; ++v) values[v] *= scale;
    if (tid == 0) converged = done;
  });
  r.iterations = iterations;
  r.last_change = last_change;
  r.converged = converged;
  r.eigenvalue = eigenvalue;
  return r;
}

template <typename V, typename Acc = engine::NoAccounting>
CentralityResult power_iteration_numa(const engine::PartitionedGraph<V>& pg, const PowerIteration& p,
                                      engine::EngineMode mode, Acc& acc) {
  const bool prefetch = prefetch_pays(pg.num_vertices(), sizeof(double));  // as the flat kernel
  if (p.weighted)
    return prefetch ? power_iteration_numa_with<true, true>(pg, p, mode, acc)
                    : power_iteration_numa_with<true, false>(pg, p, mode, acc);
  return prefetch ? power_iteration_numa_with<false, true>(pg, p, mode, acc)
                  : power_iteration_numa_with<false, false>(pg, p, mode, acc);
}

}  // namespace numagraph::kernels
