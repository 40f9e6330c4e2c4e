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
// queued it, which owns the vertex, when a round's frontier is formed; and
// while a round runs, a node skips the stale entries of the vertices it owns
// (a local read; other nodes' entries are relaxed unchecked, which costs
// useless relaxations but never a remote random read).
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
  const double inverse_delta = 1.0 / delta;
  auto bucket_of = [&](double d) { return static_cast<std::size_t>(d * inverse_delta); };
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
        // Raw pointers hoisted out of the loops (push parts cover every vertex:
        // first == 0); in flat mode the graph's own CSR.
        auto process = [&](int part, std::atomic<std::int64_t>& c, bool use_push) {
          const eid_t* off = use_push ? pg.push(part).offsets.data() : g.out().offsets.data();
          const V* nbr = use_push ? pg.push(part).neighbors.data() : g.out().neighbors.data();
          const weight_t* wt = !g.weighted() ? nullptr : use_push ? pg.push(part).weights.data() : g.out().weights.data();
          const std::int64_t own_lo = numa ? layout.node_bounds[static_cast<std::size_t>(part)] : 0;
          const std::int64_t own_hi = numa ? layout.node_bounds[static_cast<std::size_t>(part) + 1] : n;
          double* dist = r.dist.data();
          for (std::int64_t s; (s = c.fetch_add(kChunk)) < fsize;) {
            for (std::int64_t i = s; i < std::min(fsize, s + kChunk); ++i) {
              const auto [u, du] = frontier[static_cast<std::size_t>(i)];
              if constexpr (Acc::enabled) acc.count(tid, 0, Pattern::kSequential);
              // Stale since queued (improved earlier in this round)? Only
              // checked where the check is local: u owned by this node.
              if (static_cast<std::int64_t>(u) >= own_lo && static_cast<std::int64_t>(u) < own_hi) {
                if constexpr (Acc::enabled) acc.count_vertex(tid, u, Pattern::kRandom);
                if (std::atomic_ref<double>(dist[u]).load(std::memory_order_relaxed) < du) continue;
              }
              const eid_t b = off[u], e = off[u + 1];
              if constexpr (Acc::enabled) {
                if (use_push) {
                  acc.count(tid, part, Pattern::kRandom);
                  acc.count(tid, part, Pattern::kSequential, 2 * (e - b));
                } else {
                  acc.count_vertex(tid, u, Pattern::kRandom);
                  acc.count_vertex(tid, u, Pattern::kSequential, 2 * (e - b));
                }
              }
              if (wt)
                for (eid_t j = b; j < e; ++j) relax(u, du, nbr[j], wt[j]);
              else
                for (eid_t j = b; j < e; ++j) relax(u, du, nbr[j], weight_t{1});
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
