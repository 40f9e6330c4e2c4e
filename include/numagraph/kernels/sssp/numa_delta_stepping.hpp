// Single-source shortest paths on the NUMA engine: delta-stepping (Meyer and
// Sanders 2003) over the per-node push parts.
//
// Vertices wait in buckets of width delta. A round relaxes the out-edges of
// the current bucket's frontier; each node relaxes only the edges whose
// target it owns (its push part), so every distance update (an atomic min) is
// a local random write. Frontier entries carry the distance they were queued
// with, so no node ever reads another node's distance array: the frontier is
// read in order (sequential, remote for other nodes' entries). An entry whose
// distance is stale (the vertex improved since) is dropped by the thread that
// queued it, which owns the vertex.
//
// Distances are doubles: exact for integer weights (sums below 2^53) and the
// same on every topology and in both modes.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/engine/edge_map.hpp"

namespace numagraph::kernels {

struct NumaSsspResult {
  NumaArray<double> dist;  // +infinity when unreachable
  int rounds = 0;
};

template <typename V, typename Acc = engine::NoAccounting>
NumaSsspResult sssp_numa(const engine::PartitionedGraph<V>& pg, V source, double delta,
                         engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  using Entry = std::pair<V, double>;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  if (!(delta > 0)) throw UsageError("delta must be positive (got " + std::to_string(delta) + ")");
  if (numa && !pg.has_push())
    throw UsageError("sssp_numa in numa mode needs a PartitionedGraph built with push parts");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  NumaSsspResult r;
  r.dist = NumaArray<double>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  run_on_threads(layout, [&](int tid) {
    for (const auto& [lo, hi] : layout.thread_ranges[tid])
      for (std::int64_t v = lo; v < hi; ++v) r.dist[v] = kInf;
  });
  r.dist[source] = 0;

  const auto served = served_parts(layout);
  // bins[t][b]: entries thread t queued for bucket b.
  std::vector<std::vector<std::vector<Entry>>> bins(static_cast<std::size_t>(layout.threads));
  std::vector<std::vector<Entry>> next(static_cast<std::size_t>(layout.threads));
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursor(static_cast<std::size_t>(layout.nodes));
  std::vector<Entry> frontier{{source, 0.0}};
  std::size_t bucket = 0;
  auto bucket_of = [&](double d) { return static_cast<std::size_t>(d / delta); };
  // An entry is stale when its vertex improved after it was queued. Each
  // thread filters the entries it queued itself: in numa mode those are
  // targets its node owns, so the check is a local read.
  auto drop_stale = [&](int tid, std::vector<Entry>& list) {
    std::erase_if(list, [&](const Entry& e) {
      if constexpr (Acc::enabled) acc.count_vertex(tid, e.first, Pattern::kRandom);
      return r.dist[e.first] < e.second;
    });
  };

  while (true) {
    // Relax the current frontier until the bucket stops refilling.
    while (!frontier.empty()) {
      ++r.rounds;
      for (auto& c : cursor) c.value.store(0);
      run_on_threads(layout, [&](int tid) {
        auto& mine = next[static_cast<std::size_t>(tid)];
        auto& my_bins = bins[static_cast<std::size_t>(tid)];
        constexpr std::int64_t kChunk = 64;
        const std::int64_t fsize = static_cast<std::int64_t>(frontier.size());
        auto relax = [&](V u, double du, V v, weight_t w) {
          const double nd = du + static_cast<double>(w);
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
          if (parallel::write_min(r.dist[v], nd)) {
            const std::size_t b = bucket_of(nd);
            if (b <= bucket) {
              mine.emplace_back(v, nd);
            } else {
              if (my_bins.size() <= b) my_bins.resize(b + 1);
              my_bins[b].emplace_back(v, nd);
            }
          }
          (void)u;
        };
        auto process = [&](int part, std::atomic<std::int64_t>& c, bool use_push) {
          for (std::int64_t s; (s = c.fetch_add(kChunk)) < fsize;) {
            for (std::int64_t i = s; i < std::min(fsize, s + kChunk); ++i) {
              const auto [u, du] = frontier[static_cast<std::size_t>(i)];
              if constexpr (Acc::enabled) acc.count(tid, 0, Pattern::kSequential);
              if (use_push) {
                const NodeEdges<V>& push = pg.push(part);
                const eid_t b = push.begin(u), e = push.end(u);
                if constexpr (Acc::enabled) {
                  acc.count(tid, part, Pattern::kRandom);
                  acc.count(tid, part, Pattern::kSequential, 2 * (e - b));
                }
                for (eid_t j = b; j < e; ++j)
                  relax(u, du, push.neighbors[static_cast<std::size_t>(j)],
                        g.weighted() ? push.weights[static_cast<std::size_t>(j)] : weight_t{1});
              } else {
                auto nb = g.out_neighbors(u);
                if constexpr (Acc::enabled) {
                  acc.count_vertex(tid, u, Pattern::kRandom);
                  acc.count_vertex(tid, u, Pattern::kSequential, 2 * static_cast<std::int64_t>(nb.size()));
                }
                for (std::size_t j = 0; j < nb.size(); ++j)
                  relax(u, du, nb[j], g.weighted() ? g.out_weights(u)[j] : weight_t{1});
              }
            }
          }
        };
        if (!numa) {
          process(0, cursor[0].value, false);
        } else {
          for (int part : served[static_cast<std::size_t>(tid)])
            process(part, cursor[static_cast<std::size_t>(part)].value, true);
        }
      });
      run_on_threads(layout, [&](int tid) { drop_stale(tid, next[static_cast<std::size_t>(tid)]); });
      frontier = concatenate(next);
    }
    // Next non-empty bucket across all threads' bins.
    std::size_t best = std::numeric_limits<std::size_t>::max();
    for (const auto& tb : bins)
      for (std::size_t b = bucket + 1; b < tb.size() && b < best; ++b)
        if (!tb[b].empty()) best = b;
    if (best == std::numeric_limits<std::size_t>::max()) break;
    bucket = best;
    run_on_threads(layout, [&](int tid) {
      auto& tb = bins[static_cast<std::size_t>(tid)];
      if (tb.size() <= bucket) return;
      next[static_cast<std::size_t>(tid)].swap(tb[bucket]);
      std::vector<Entry>().swap(tb[bucket]);
      drop_stale(tid, next[static_cast<std::size_t>(tid)]);
    });
    frontier = concatenate(next);
  }
  return r;
}

}  // namespace numagraph::kernels
