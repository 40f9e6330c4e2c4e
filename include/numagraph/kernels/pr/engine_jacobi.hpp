// PageRank on the NUMA engine (Polymer-style, seed 004).
//
// Pull iteration: every vertex v of node k sums contrib[u] = rank[u]/deg(u)
// over its in-edges, which node k stores in its own memory (PartitionedGraph
// pull part). contrib is replicated per node (when there are several) and
// refreshed by rolling update: the thread that computes v's new score writes
// v's next contribution into every node's copy (a sequential remote write of
// its own range). So each random read is local and every remote access is
// sequential. Threads meet at one hierarchical barrier per iteration.
//
// Scores equal the flat pull kernel's to rounding (sums in the same order).
// Dangling vertices and the stopping rule as the flat kernels
// (kernels/pr/options.hpp): NetworkX's mode spreads their mass uniformly and
// stops at its own limit; otherwise the mass is dropped, as gapbs does.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/engine/segmented_parts.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

template <typename C, typename V, typename Acc>
PageRankResult pagerank_numa_with(const engine::PartitionedGraph<V>& pg, const PageRankOptions& o,
                                      engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const auto& out_offsets = pg.graph().out().offsets;
  PageRankResult r;
  r.variant = PageRankVariant::kJacobi;
  // Every array below is written before it is read (scores and the first
  // contributions by the threads' first pass, the others by the sweeps), so
  // they may be recycled ones (numa/memory.hpp), as the flat kernels' are.
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("ranks", numa::Placement::partitioned()));
  if (n == 0) return r;
  // Contributions are double-buffered by iteration parity (with their
  // replicas): the pass that computes x'[v] also publishes v's next
  // contribution, so an iteration is one pass and one barrier, as in the
  // flat kernel; the buffer being read is never the one being written.
  const numa::Placement contrib_place = numa::placement_for("contrib", numa::Placement::partitioned());
  NumaArray<C> contrib[2] = {NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), contrib_place),
                             NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), contrib_place)};
  Replicas<C> replicas[2] = {Replicas<C>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n)),
                             Replicas<C>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n))};
  // Cache blocking: the pull parts cut by source range (built in the call,
  // as the flat kernel does). A thread sweeps its own vertices once per
  // range, carrying each vertex's sum in `partial` (node-local); the ranges
  // need no barrier between them, because the contributions read in an
  // iteration are never written in it.
  const auto blocked = segment_parts(pg, pagerank_block_width(pg.graph(), o), [&](int k) -> const NodeEdges<V>& { return pg.pull(k); });
  const int last = blocked.empty() ? 0 : blocked.front().num_segments() - 1;
  r.cache_segments = last + 1;
  NumaArray<double> partial(blocked.empty() ? 0 : static_cast<std::size_t>(n), numa::Placement::partitioned());
  HierarchicalBarrier barrier(layout);
  const bool prefetch = kernels::prefetch_pays(n, sizeof(C));  // as the flat kernels (gather_sum.hpp)
  // Per-thread partial sums, double-buffered by iteration parity so a fast
  // thread's next iteration never overwrites what a slow one still reads.
  std::vector<parallel::Padded<double>> change(2 * static_cast<std::size_t>(layout.threads));
  std::vector<parallel::Padded<double>> dangling(2 * static_cast<std::size_t>(layout.threads));
  const double init = 1.0 / static_cast<double>(n);
  int iterations = 0;
  double last_change = 0;
  const double limit = stop_limit(o, n);

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    auto out_degree = [&](std::int64_t v) { return out_offsets[v + 1] - out_offsets[v]; };
    double my_dangling = 0;
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v) {
        r.scores[v] = init;
        const eid_t deg = out_degree(v);
        const double kept = score_if_out_arcs(init, deg);
        publish(replicas[0].if_any() ? nullptr : contrib[0].data(), replicas[0].if_any(), v,
                contribution<C>(kept, deg), mode, tid, acc);
        my_dangling += init - kept;
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential, 2);
      }
    dangling[static_cast<std::size_t>(tid)].value = my_dangling;
    barrier.wait(tid);
    for (int it = 0; it < o.max_iterations; ++it) {
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread (tid 0)
      if (tid == 0) phase.emplace("iteration");
      const int cur = it % 2, nxt = 1 - cur;
      double dangling_mass = 0;
      for (int t = 0; t < layout.threads; ++t)
        dangling_mass += dangling[static_cast<std::size_t>(cur * layout.threads + t)].value;
      const double base = (1.0 - o.damping) / static_cast<double>(n) +
                          (o.networkx ? o.damping * dangling_mass / static_cast<double>(n) : 0.0);
      const C* source = replicas[cur].copy_or(my_node, contrib[cur].data());
      Replicas<C>* next_replicas = replicas[nxt].if_any();
      C* next_master = next_replicas ? nullptr : contrib[nxt].data();  // unread while replicas exist
      double my_change = 0;
      my_dangling = 0;
      // The sweep, blocked or not and prefetching or not as template
      // arguments, as in the flat kernel: a run-time test in the vertex loop
      // is slower (docs/kernels/pr.md, "Loop shape").
      auto sweep = [&](auto is_blocked, auto prefetching) {
        constexpr bool kBlocked = decltype(is_blocked)::value;
        constexpr bool kPrefetch = decltype(prefetching)::value;
        for (const auto& [lo, hi] : ranges) {
          const int part = layout.node_of_vertex(lo);
          const std::int64_t first = layout.node_bounds[part];
          if constexpr (kBlocked)
            for (int s = 0; s < last; ++s)
              for (std::int64_t v = lo; v < hi; ++v) {
                const double piece = pull_list_sum<false>(pg, part, blocked[part].piece(s, v - first), nullptr,
                                                          source, mode, tid, acc);
                partial[v] = s == 0 ? piece : partial[v] + piece;
              }
          for (std::int64_t v = lo; v < hi; ++v) {
            double sum;
            if constexpr (kBlocked)
              sum = (last == 0 ? 0.0 : partial[v]) +
                    pull_list_sum<false>(pg, part, blocked[part].piece(last, v - first), nullptr, source, mode, tid,
                                         acc);
            else
              sum = pull_sum<false, kPrefetch>(pg, part, v, source, mode, tid, acc);
            const double next = base + o.damping * sum;
            my_change += std::fabs(next - r.scores[v]);
            r.scores[v] = next;
            const eid_t deg = out_degree(v);
            const double kept = score_if_out_arcs(next, deg);  // as the flat kernels, same bits
            publish(next_master, next_replicas, v, contribution<C>(kept, deg), mode, tid, acc);
            my_dangling += next - kept;
            if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential, 3);
          }
        }
      };
      if (!blocked.empty())
        sweep(std::true_type{}, std::false_type{});
      else if (prefetch)
        sweep(std::false_type{}, std::true_type{});
      else
        sweep(std::false_type{}, std::false_type{});
      change[static_cast<std::size_t>(cur * layout.threads + tid)].value = my_change;
      dangling[static_cast<std::size_t>(nxt * layout.threads + tid)].value = my_dangling;
      barrier.wait(tid);
      double total = 0;
      for (int t = 0; t < layout.threads; ++t) total += change[static_cast<std::size_t>(cur * layout.threads + t)].value;
      if (tid == 0) {
        iterations = it + 1;
        last_change = total;
      }
      if (o.tolerance > 0 && total < limit) break;  // every thread sees the same total
    }
  });
  r.iterations = iterations;
  r.last_change = last_change;
  return r;
}

template <typename V, typename Acc = engine::NoAccounting>
PageRankResult pagerank_numa(const engine::PartitionedGraph<V>& pg, const PageRankOptions& o,
                                 engine::EngineMode mode, Acc& acc) {
  // The flat kernels' contribution width and blocking (options.hpp), so both
  // sum the same pieces in the same order and give the same scores.
  return needs_double_contributions(o) ? pagerank_numa_with<double>(pg, o, mode, acc)
                                       : pagerank_numa_with<float>(pg, o, mode, acc);
}

}  // namespace numagraph::kernels
