// PageRank on the NUMA engine in the weighted and personalized model
// (kernels/pr/model.hpp): the Polymer-style iteration of engine_jacobi.hpp
// (node-local pull parts, replicated contributions refreshed by rolling
// update, one hierarchical barrier per iteration, the same cache blocking),
// where a contribution is x[u] / W(u), a sum weights its arcs when the
// weights are used (the pull parts carry them), and a vertex's teleport and
// dangling shares come from the model's arrays. Each vertex sums the same
// pieces in the same order as the flat kernel (pull_jacobi_weighted.hpp), so
// the scores do not depend on the topology. Runs only when weights or a
// distribution are asked for; the unweighted kernel keeps its own loop.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/engine/segmented_parts.hpp"
#include "numagraph/kernels/pr/model.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/pr/pull_jacobi_weighted.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

template <bool Weighted, typename C, typename V, typename Acc>
PageRankResult pagerank_numa_weighted_with(const engine::PartitionedGraph<V>& pg, const PageRankOptions& o,
                                           const PageRankModel& m, engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  PageRankResult r;
  r.variant = PageRankVariant::kJacobi;
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
                                              numa::placement_for("ranks", numa::Placement::partitioned()));
  if (n == 0) return r;
  const numa::Placement contrib_place = numa::placement_for("contrib", numa::Placement::partitioned());
  NumaArray<C> contrib[2] = {NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), contrib_place),
                             NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), contrib_place)};
  Replicas<C> replicas[2] = {Replicas<C>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n)),
                             Replicas<C>(replica_copies(mode, layout.nodes), static_cast<std::size_t>(n))};
  const std::int64_t width =
      cache_block_width(pagerank_weighted_block_request(pg.graph(), o, sizeof(V), Weighted));
  const auto blocked = segment_parts(pg, width, [&](int k) -> const NodeEdges<V>& { return pg.pull(k); });
  const int last = blocked.empty() ? 0 : blocked.front().num_segments() - 1;
  r.cache_segments = last + 1;
  NumaArray<double> partial(blocked.empty() ? 0 : static_cast<std::size_t>(n), numa::Placement::partitioned());
  HierarchicalBarrier barrier(layout);
  const bool prefetch = kernels::prefetch_pays(n, sizeof(C));
  std::vector<parallel::Padded<double>> change(2 * static_cast<std::size_t>(layout.threads));
  std::vector<parallel::Padded<double>> dangling(2 * static_cast<std::size_t>(layout.threads));
  const double init = 1.0 / static_cast<double>(n);
  int iterations = 0;
  double last_change = 0;
  const double limit = stop_limit(o, n);
  const double* const teleport = m.teleport.data();
  const double* const dangling_share = m.dangling_share.data();
  const double* const inv_out = m.inv_out.data();

  run_on_threads(layout, [&](int tid) {
    const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
    const auto& ranges = layout.thread_ranges[static_cast<std::size_t>(tid)];
    double my_dangling = 0;
    for (const auto& [lo, hi] : ranges)
      for (std::int64_t v = lo; v < hi; ++v) {
        r.scores[v] = init;
        publish(replicas[0].if_any() ? nullptr : contrib[0].data(), replicas[0].if_any(), v,
                static_cast<C>(init * inv_out[v]), mode, tid, acc);
        my_dangling += inv_out[v] > 0 ? 0.0 : init;
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential, 2);
      }
    dangling[static_cast<std::size_t>(tid)].value = my_dangling;
    barrier.wait(tid);
    for (int it = 0; it < o.max_iterations; ++it) {
      std::optional<profile::InnerPhase> phase;
      if (tid == 0) phase.emplace("iteration");
      const int cur = it % 2, nxt = 1 - cur;
      double mass = 0;  // dangling_share is 0 outside NetworkX's mode: the mass is dropped
      for (int t = 0; t < layout.threads; ++t) mass += dangling[static_cast<std::size_t>(cur * layout.threads + t)].value;
      const C* source = replicas[cur].copy_or(my_node, contrib[cur].data());
      Replicas<C>* next_replicas = replicas[nxt].if_any();
      C* next_master = next_replicas ? nullptr : contrib[nxt].data();
      double my_change = 0;
      my_dangling = 0;
      auto sweep = [&](auto is_blocked, auto prefetching) {
        constexpr bool kBlocked = decltype(is_blocked)::value;
        constexpr bool kPrefetch = decltype(prefetching)::value;
        for (const auto& [lo, hi] : ranges) {
          const int part = layout.node_of_vertex(lo);
          const std::int64_t first = layout.node_bounds[part];
          auto piece_sum = [&](int s, std::int64_t v) {
            const auto& b = blocked[static_cast<std::size_t>(part)];
            return pull_list_sum<Weighted>(pg, part, b.piece(s, v - first),
                                           Weighted ? b.piece_weights(s, v - first) : nullptr, source, mode, tid,
                                           acc);
          };
          if constexpr (kBlocked)
            for (int s = 0; s < last; ++s)
              for (std::int64_t v = lo; v < hi; ++v) {
                const double piece = piece_sum(s, v);
                partial[v] = s == 0 ? piece : partial[v] + piece;
              }
          for (std::int64_t v = lo; v < hi; ++v) {
            double sum;
            if constexpr (kBlocked)
              sum = (last == 0 ? 0.0 : partial[v]) + piece_sum(last, v);
            else
              sum = pull_sum<Weighted, kPrefetch>(pg, part, v, source, mode, tid, acc);
            const double next = teleport[v] + mass * dangling_share[v] + o.damping * sum;
            my_change += std::fabs(next - r.scores[v]);
            r.scores[v] = next;
            publish(next_master, next_replicas, v, static_cast<C>(next * inv_out[v]), mode, tid, acc);
            my_dangling += inv_out[v] > 0 ? 0.0 : next;
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

// The flat kernel's contribution width (options.hpp).
template <typename V, typename Acc = engine::NoAccounting>
PageRankResult pagerank_numa_weighted(const engine::PartitionedGraph<V>& pg, const PageRankOptions& o,
                                      const PageRankModel& m, engine::EngineMode mode, Acc& acc) {
  return with_contribution_type(o, [&](auto c) {
    using C = decltype(c);
    return m.weighted ? pagerank_numa_weighted_with<true, C>(pg, o, m, mode, acc)
                      : pagerank_numa_weighted_with<false, C>(pg, o, m, mode, acc);
  });
}

}  // namespace numagraph::kernels
