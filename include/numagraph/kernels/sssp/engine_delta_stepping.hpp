// Single-source shortest paths on the NUMA engine: delta-stepping (Meyer and
// Sanders 2003) over the per-node push parts.
//
// Vertices wait in buckets of width delta. A round relaxes the out-edges of
// the current bucket's frontier; each node relaxes only the edges whose
// target it owns (its push part), so every distance update (an atomic min) is
// a local random write. Frontier entries carry the distance they were queued
// with, so a node relaxes with it and need not read another node's distance
// array: the frontier is read in order (sequential, remote for other nodes'
// entries). An entry whose
// distance is stale (the vertex improved since) is dropped by the thread that
// queued it, which serves the vertex's part, when a round's frontier is formed; and
// while a round runs, a node checks the entries of the vertices it owns (a
// local read) and marks the stale ones in place; each node walks the frontier
// from its own entries on, so the other nodes mostly find those marks (an
// entry reached before its owner got to it is relaxed with its old distance,
// in vain but never wrongly). The one remote random read: a node checks
// another node's entry itself when the vertex has many arcs in its part
// (kRemoteCheckArcs), where a stale relaxation would cost far more. On one node,
// where the one part holds every edge, the search is the flat kernel's over
// that part (sssp_numa below); the engine's loop there, used for accounting,
// also relaxes a thread's small bins at once (bin fusion).
//
// Results are doubles: exact for integer weights (sums below 2^53) and the
// same on every topology and in both modes. The search runs on 32-bit integer
// distances where those are exact (distances.hpp), which also halves the queue
// entries (vertex and distance: 8 bytes instead of 16).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <limits>
#include <string>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/mode.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/sssp/buckets.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/distances.hpp"
#include "numagraph/kernels/sssp/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

namespace sssp_detail {

// The out-edges an engine search relaxes through: node `part`'s push part,
// or the graph's own when `use_push` is false (flat mode); wt is null for
// an unweighted graph. Push parts are indexed by vertex id, as the graph is.
template <typename V>
struct SearchEdges {
  const eid_t* off;
  const V* nbr;
  const weight_t* wt;
};

template <typename V>
SearchEdges<V> search_edges(const engine::PartitionedGraph<V>& pg, int part, bool use_push) {
  const auto& g = pg.graph();
  auto of = [&](const auto& a) {
    return SearchEdges<V>{a.offsets.data(), a.neighbors.data(), g.weighted() ? a.weights.data() : nullptr};
  };
  return use_push ? of(pg.push(part)) : of(g.out());
}

// One search on distances of type D (double, or 32-bit integers where
// distances.hpp allows), initialised by the caller; returns the rounds it took.
template <typename D, typename V, typename Acc>
int numa_delta_stepping_search(const engine::PartitionedGraph<V>& pg, V source, double delta,
                               engine::EngineMode mode, Acc& acc, D* dist) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  int rounds = 0;
  const auto served = served_parts(layout);
  const int threads = layout.threads;
  // The first thread serving each part: a part's threads queue the entries
  // of the vertices it owns, so its own slots start there. Each node walks
  // a round's frontier from its own slots on, and has mostly marked the
  // stale ones among them before the other nodes arrive.
  std::vector<std::size_t> first_slot(static_cast<std::size_t>(layout.nodes), 0);
  for (int t = threads - 1; t >= 0; --t)
    for (int part : served[static_cast<std::size_t>(t)]) first_slot[static_cast<std::size_t>(part)] = static_cast<std::size_t>(t);
  // Arcs in a part from which a node checks another node's entry for
  // staleness itself, with a remote read of its distance, instead of relaxing
  // it in vain: a few remote random reads save many more local accesses.
  // Measured: docs/numa-engine.md, "SSSP on several nodes".
  constexpr eid_t kRemoteCheckArcs = 16;
  // An entry's distance once its owner has found it stale: never a queued one.
  constexpr D kStaleMark = std::numeric_limits<D>::has_infinity ? std::numeric_limits<D>::infinity()
                                                                 : std::numeric_limits<D>::max();
  struct Entry {
    V vertex;
    D dist;  // the distance it was queued with: other nodes relax with it, never reading dist[]
  };
  // As in the flat kernel, the whole search runs in one parallel region with
  // one barrier per round (sssp_detail::RoundSlots: round r's frontier is the
  // threads' slots, read in place; a thread fills its next slot by swapping
  // in its own bin of the next bucket). A thread only queues targets of the
  // parts it serves, so it can drop its own stale entries there with local
  // reads.
  sssp_detail::RoundSlots<Entry> frontier(threads);
  frontier.seed({source, D{0}}, 0);
  // Chunk cursors per part, by round parity: the cursors of round r + 1 are
  // reset while round r runs (round r - 1, their last user, is over).
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursor(2 * static_cast<std::size_t>(layout.nodes));
  HierarchicalBarrier barrier(layout);
  const double inverse_delta = 1.0 / delta;

  run_on_threads(layout, [&](int tid) {
    sssp_detail::BucketBins<Entry> bins;  // bins[b]: this thread's entries for bucket b
    std::vector<std::int64_t> start;  // slot offsets of the round's frontier
    std::size_t bucket = 0;  // every thread computes the same value
    // An improvement: queue v for the bucket of nd (never an earlier one).
    auto queue = [&](V v, D nd) {
      bins[std::max(bucket, sssp_detail::bucket_of(nd, inverse_delta))].push_back({v, nd});
    };
    // Relaxes the edges of u in `part` (its push part: targets the part
    // owns) or, in flat mode, all of u's edges, with u at distance du.
    auto relax_edges = [&](int part, bool use_push, V u, D du) {
      const auto [off, nbr, wt] = search_edges(pg, part, use_push);
      const eid_t b = off[u], end = off[u + 1];
      if constexpr (Acc::enabled) {
        if (use_push) {
          acc.count(tid, part, Pattern::kRandom);
          acc.count(tid, part, Pattern::kSequential, 2 * (end - b));
        } else {
          acc.count_vertex(tid, u, Pattern::kRandom);
          acc.count_vertex(tid, u, Pattern::kSequential, 2 * (end - b));
        }
        for (eid_t j = b; j < end; ++j) acc.count_vertex(tid, nbr[j], Pattern::kRandom);
      }
      if (wt)
        sssp_detail::relax_run<true>(nbr, wt, b, end, du, dist, queue);
      else
        sssp_detail::relax_run<false>(nbr, wt, b, end, du, dist, queue);
    };
    // Bin fusion, as in the flat kernel, where one thread may relax an entry
    // on its own: in flat mode, or when a single node's part holds every
    // edge. (With several nodes an entry needs every node's part, so its
    // owner cannot finish it alone.)
    const bool one_part = !numa || layout.nodes == 1;
    // Software prefetch ahead of relax_edges (sssp_detail::prefetch_ahead),
    // of the distance too where this thread owns every vertex (with several
    // nodes that would be a remote read).
    const D* const own_dist = one_part ? dist : nullptr;
    // Relaxes, for the frontier entries claimed from `c`, the edges of `part`
    // (or all edges in flat mode).
    auto process = [&](int part, std::atomic<std::int64_t>& c, bool use_push, int round) {
      const std::int64_t total = start.back();
      const std::int64_t own_lo = numa ? layout.node_bounds[static_cast<std::size_t>(part)] : 0;
      const std::int64_t own_hi = numa ? layout.node_bounds[static_cast<std::size_t>(part) + 1] : n;
      const std::int64_t chunk = std::clamp<std::int64_t>(total / (8 * threads), 1, 64);
      const SearchEdges<V> edges = search_edges(pg, part, use_push);
      // This part's own slots first (see first_slot), then the others'.
      const std::int64_t rotate = numa ? start[first_slot[static_cast<std::size_t>(part)]] : 0;
      std::size_t k = 0;
      for (std::int64_t s; (s = c.fetch_add(chunk)) < total;) {
        for (std::int64_t i = s; i < std::min(total, s + chunk); ++i) {
          const std::int64_t j = i + rotate < total ? i + rotate : i + rotate - total;
          if (j < start[k] || j >= start[k + 1]) k = frontier.slot_of(start, j);
          std::vector<Entry>& slot = frontier.slot(round, k);
          const std::size_t at = static_cast<std::size_t>(j - start[k]);
          prefetch_ahead<true>(slot.data(), at, slot.size(), edges.off, edges.nbr, edges.wt, own_dist);
          Entry& e = slot[at];
          const V u = e.vertex;
          std::atomic_ref<D> queued(e.dist);
          const D du = queued.load(std::memory_order_relaxed);
          if constexpr (Acc::enabled) acc.count(tid, layout.thread_node[k], Pattern::kSequential);
          // Stale since queued (improved earlier in this round)? Checked
          // where the check is local, u owned by this part, which then marks
          // the entry so that nodes reaching it later skip it too (they read
          // the entry anyway; a node that gets there first relaxes it with
          // the old distance, merely in vain). Another node's entry is
          // checked here only when u has kRemoteCheckArcs arcs or more in
          // this part: one remote read against that many relaxations.
          if (static_cast<std::int64_t>(u) >= own_lo && static_cast<std::int64_t>(u) < own_hi) {
            if constexpr (Acc::enabled) acc.count_vertex(tid, u, Pattern::kRandom);
            if (std::atomic_ref<D>(dist[u]).load(std::memory_order_relaxed) < du) {
              if (!one_part) queued.store(kStaleMark, std::memory_order_relaxed);
              continue;
            }
          } else if (du == kStaleMark) {
            continue;
          } else if (edges.off[u + 1] - edges.off[u] >= kRemoteCheckArcs) {
            if constexpr (Acc::enabled) acc.count_vertex(tid, u, Pattern::kRandom);
            if (std::atomic_ref<D>(dist[u]).load(std::memory_order_relaxed) < du) {
              if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kRandom);  // the offsets read for the test
              continue;
            }
          }
          relax_edges(part, use_push, u, du);
        }
      }
    };
    // Bin fusion (where one_part): while this thread's bin of the current
    // bucket is small it relaxes it at once instead of meeting the others at
    // a barrier for each small round.
    std::vector<Entry> fused;  // trades places with the bin, so both keep their capacity
    const SearchEdges<V> all = search_edges(pg, 0, numa);  // what relax_edges(0, numa, ...) reads
    auto fuse_bins = [&]() {
      while (!bins[bucket].empty() && bins[bucket].size() < sssp_detail::kFusionLimit) {
        fused.clear();
        fused.swap(bins[bucket]);
        for (std::size_t j = 0; j < fused.size(); ++j) {
          prefetch_ahead<true>(fused.data(), j, fused.size(), all.off, all.nbr, all.wt, own_dist);
          const Entry& e = fused[j];
          if constexpr (Acc::enabled) acc.count_vertex(tid, e.vertex, Pattern::kRandom);
          if (std::atomic_ref<D>(dist[e.vertex]).load(std::memory_order_relaxed) < e.dist) continue;  // stale
          relax_edges(0, numa, e.vertex, e.dist);
        }
      }
    };
    std::optional<profile::InnerPhase> phase;  // marked by the calling thread
    std::size_t group_end = 0;
    for (int round = 0;; ++round) {
      const int parity = round % 2;
      if (tid == 0)  // the next round's cursors; their last round ended before the barrier passed
        for (int k = 0; k < layout.nodes; ++k)
          cursor[static_cast<std::size_t>((1 - parity) * layout.nodes + k)].value.store(0, std::memory_order_relaxed);
      bucket = frontier.begin(round, tid, bins, start);
      if (bucket == sssp_detail::kNoBucket) break;
      if (tid == 0) rounds = round + 1;
      if (tid == 0 && bucket >= group_end) {  // as the flat kernel: groups of buckets, doubling
        phase.emplace("buckets");
        group_end = std::max<std::size_t>(1, 2 * bucket);
      }
      auto* cur = &cursor[static_cast<std::size_t>(parity * layout.nodes)];
      if (!numa) {
        process(0, cur[0].value, false, round);
      } else {
        for (int part : served[static_cast<std::size_t>(tid)]) process(part, cur[part].value, true, round);
      }
      if (one_part) fuse_bins();
      // The next round's slot: this thread's smallest non-empty bin (the
      // current bucket may have refilled). With several nodes, less the
      // entries of vertices that improved after they were queued (local
      // reads; a vertex improved by a thread still in this round keeps its
      // entry, which is then merely relaxed with a longer distance, never a
      // wrong one): other nodes cannot check them. Where one part holds
      // every edge, process() checks every entry anyway.
      std::vector<Entry>& next = frontier.end(round, tid, bins, bucket);
      if (!one_part)
        std::erase_if(next, [&](const Entry& e) {
          if constexpr (Acc::enabled) acc.count_vertex(tid, e.vertex, Pattern::kRandom);
          return std::atomic_ref<D>(dist[e.vertex]).load(std::memory_order_relaxed) < e.dist;
        });
      barrier.wait(tid);  // every relaxation and every slot of the round is done
    }
  });
  return rounds;
}

}  // namespace sssp_detail

// Distances from `source` into `dist`, +infinity where unreachable. The
// search runs on 32-bit integer distances where they are exact
// (distances.hpp; `ws`, when given, remembers that test between calls on the
// same graph, and keeps the 32-bit array), then widens them into `dist`.
// Both arrays are reused when they have the size and the partitioned
// placement (the owners' first touch), as the flat kernel reuses its own,
// so a search does not fault in fresh pages.
//
// Where one part holds every edge (one node, or flat mode) the engine's
// rounds would do exactly the flat kernel's work with more bookkeeping (its
// own cursors, a barrier that yields, per-part pointers in the inner loop;
// measured: docs/kernels/sssp.md). There the search is the flat
// kernel's, run over that one part's edges (in the node's memory) and the
// partitioned distance array. Accounting runs keep the engine loop, which
// makes the same accesses and counts them.
template <typename V, typename Acc = engine::NoAccounting>
int sssp_numa(const engine::PartitionedGraph<V>& pg, V source, double delta, engine::EngineMode mode, Acc& acc,
              SsspWorkspace* ws, NumaArray<double>& dist) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  if (!(delta > 0)) throw UsageError("delta must be positive (got " + std::to_string(delta) + ")");
  if (mode == EngineMode::kNuma && !pg.has_push())
    throw UsageError("sssp_numa in numa mode needs a PartitionedGraph built with push parts");
  // Each thread first touches, and later widens, the vertices it owns.
  auto per_vertex = [&](auto&& f) {
    run_on_threads(layout, [&](int tid) {
      for (const auto& [lo, hi] : layout.thread_ranges[tid])
        for (std::int64_t v = lo; v < hi; ++v) f(v);
    });
  };
  auto partitioned_of_size = [&](const auto& a) {
    return a.size() == static_cast<std::size_t>(n) && a.placement().partitioned_by_count();
  };
  const bool one_part = mode == EngineMode::kShared || layout.nodes == 1;
  const auto& g = pg.graph();
  SsspWorkspace own;
  SsspWorkspace& w = ws ? *ws : own;
  auto search = [&](auto* d) {
    if (Acc::enabled || !one_part) return sssp_detail::numa_delta_stepping_search(pg, source, delta, mode, acc, d);
    const auto e = sssp_detail::search_edges(pg, 0, mode == EngineMode::kNuma);
    return sssp_detail::delta_stepping_search(e.off, e.nbr, e.wt, source, delta, d, w, splits_statically(g));
  };
  if (!partitioned_of_size(dist))
    dist = NumaArray<double>(static_cast<std::size_t>(n),
        numa::placement_for("dist", numa::Placement::partitioned()));
  if (!w.use_narrow(g)) {
    per_vertex([&](std::int64_t v) { dist[v] = kUnreachable; });
    dist[source] = 0;
    return search(dist.data());
  }
  NumaArray<std::uint32_t>& narrow = w.narrow_dist;
  if (!partitioned_of_size(narrow))
    narrow = NumaArray<std::uint32_t>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  per_vertex([&](std::int64_t v) { narrow[v] = kNarrowInfinity; });
  narrow[source] = 0;
  const int rounds = search(narrow.data());
  per_vertex([&](std::int64_t v) { dist[v] = narrow[v] == kNarrowInfinity ? kUnreachable : static_cast<double>(narrow[v]); });
  return rounds;
}

// The same into a fresh array.
template <typename V, typename Acc = engine::NoAccounting>
SsspResult sssp_numa(const engine::PartitionedGraph<V>& pg, V source, double delta, engine::EngineMode mode, Acc& acc,
                     SsspWorkspace* ws = nullptr) {
  SsspResult r;
  r.delta = delta;
  r.rounds = sssp_numa(pg, source, delta, mode, acc, ws, r.dist);
  return r;
}

}  // namespace numagraph::kernels
