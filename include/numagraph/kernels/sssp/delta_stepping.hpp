// Single-source shortest paths by delta-stepping (Meyer and Sanders, 2003),
// the flat kernel. Vertices wait in buckets of width delta; a round relaxes
// the edges of the current bucket's frontier in parallel (atomic min on the
// distance), and improved vertices go to thread-local bins by bucket. When
// the current bucket stops refilling, all threads move to the smallest
// non-empty bucket. Results are doubles; the search itself runs on 32-bit
// integers where those are exact (whole-number weights, distances.hpp), and on
// doubles otherwise. Negative weights are refused; unweighted graphs use
// weight 1.
//
// A queued entry carries (a lower bound of) the distance its vertex had when
// it was queued. A vertex that improves again before its turn is queued
// again, and the older entry is then stale: it is skipped, where an entry
// without a distance would relax the same edges twice (Kronecker graphs do
// this a lot). On 32-bit distances the entry holds the distance itself; on
// doubles, a float rounded down, so an entry stays 8 bytes either way (road
// graphs, with few stale entries, feel every extra byte), an entry holding
// the vertex's current distance is never taken for stale, and a stale one
// that rounding hides is merely relaxed twice.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/sssp/buckets.hpp"
#include "numagraph/kernels/sssp/distances.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// Default delta: the mean edge weight (at least 1), so a bucket holds about
// one hop; road graphs want far larger values (see docs/kernels/sssp.md).
template <typename V>
double default_delta(const CSRGraph<V>& g) {
  if (!g.weighted() || g.num_arcs() == 0) return 1;
  const double total = parallel::sum<double>(eid_t{0}, g.num_arcs(), [&](eid_t i) {
    return static_cast<double>(g.out().weights[static_cast<std::size_t>(i)]);
  });
  return std::max(1.0, total / static_cast<double>(g.num_arcs()));
}

// Throws UsageError naming the first negative edge, if any.
template <typename V>
void refuse_negative_weights(const CSRGraph<V>& g) {
  if (!g.weighted()) return;
  for (std::int64_t u = 0; u < g.num_vertices(); ++u) {
    auto w = g.out_weights(static_cast<V>(u));
    for (std::size_t j = 0; j < w.size(); ++j)
      if (w[j] < 0)
        throw UsageError("edge " + std::to_string(g.label(static_cast<V>(u))) + " -> " +
                         std::to_string(g.label(g.out_neighbors(static_cast<V>(u))[j])) + " has negative weight " +
                         std::to_string(w[j]) + ": shortest paths need non-negative weights");
  }
}

namespace sssp_detail {

// A queued vertex of the flat kernel. Narrow distances are queued exactly;
// doubles as a float bound.
template <typename V, typename D>
struct QueuedEntry {
  using Bound = std::conditional_t<std::is_integral_v<D>, D, float>;
  V vertex;
  Bound bound;  // <= the distance the vertex was queued with
};

// The queue entry of v at distance d: exact on 32-bit distances, a float
// rounded down on doubles.
template <typename V, typename D>
QueuedEntry<V, D> queued_entry(V v, D d) {
  if constexpr (std::is_integral_v<D>) {
    return {v, d};
  } else {
    float f = static_cast<float>(d);
    if (static_cast<double>(f) > d) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return {v, f};
  }
}

// Drops from `run` (the next round's slot) the entries whose vertex improved
// after they were queued, the test relax() makes, and returns how many are
// left. On Kronecker graphs most entries are stale by their bucket's turn
// (kron20, delta 2: 0.95 M of 1.59 M): dropped here, by the thread that
// queued them, before the round that reads them, they no longer take a share
// of its chunks, nor the slots of its edge-list prefetch, which then requests
// only edges that will be read (docs/kernels/sssp.md, "Stale entries"). The
// loop has no branch on staleness, which is as likely as not.
template <bool Alone, typename Entry, typename D>
std::size_t drop_stale(std::vector<Entry>& run, D* dist) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < run.size(); ++i) {
    const Entry e = run[i];
    const D du = Alone ? dist[e.vertex] : std::atomic_ref<D>(dist[e.vertex]).load(std::memory_order_relaxed);
    run[kept] = e;
    kept += !(du < static_cast<D>(e.bound));
  }
  run.resize(kept);
  return kept;
}

// The profile's inner phases of a search, marked by the calling thread: one
// per group of buckets, the groups doubling ([0,1), [1,2), [2,4), ...), not
// one per bucket.
struct BucketPhases {
  std::optional<profile::InnerPhase> phase;
  std::size_t group_end = 0;
  void enter(std::size_t bucket) {
    if (bucket < group_end) return;
    phase.emplace("buckets");
    group_end = std::max<std::size_t>(1, 2 * bucket);
  }
};

// Rounds of one search over out-edges in CSR form (the graph's, or the NUMA
// engine's copy on its one node; `wt` unused unless Weighted, a template
// argument so the relaxation loop tests nothing but distances), from round
// `round` on. Every thread of the calling team runs it (t: its number,
// `phases` touched by thread 0 only), or one thread alone (Alone: plain
// stores, no team). D is the distance type: double, or std::uint32_t
// (unreached: kNarrowInfinity) where narrow_distances_fit() holds.
// `scratch` holds the bins and slots, prepared for the team. With
// `wide_entries` > 0, stops before a round whose frontier holds that many
// entries or more (team_round_entries) and returns false, `round` at that
// round; returns true when the search is over, `round` at the number of
// rounds. `static_rounds`: the team splits
// each round's entries statically, else in chunks of 64
// (kernels/static_split.hpp). Never inlined: inlined into the search, the
// one-thread loop ran 1.1x slower on a mesh (docs/kernels/sssp.md,
// "Static rounds").
template <bool Weighted, bool Alone, typename V, typename D>
[[gnu::noinline]] bool run_rounds(const eid_t* off, const V* nbr, const weight_t* wt, double inverse_delta,
                                  D* dist, SearchScratch<QueuedEntry<V, D>>& scratch, int t, int& round,
                                  BucketPhases& phases, bool static_rounds, std::int64_t wide_entries = 0) {
  using Entry = QueuedEntry<V, D>;
  RoundSlots<Entry>& frontier = scratch.frontier;
  auto& mine = scratch.threads[static_cast<std::size_t>(t)];
  BucketBins<Entry>& bins = mine.bins;  // bins[b]: this thread's entries for bucket b
  std::vector<Entry>& fused = mine.fused;  // the bin being relaxed by bin fusion
  std::vector<std::int64_t>& start = mine.start;  // slot offsets of the round's frontier
  std::size_t bucket = 0;  // the round's, the same on every thread
  auto relax = [&](const Entry& queued) {
    const V u = queued.vertex;
    const D du = Alone ? dist[u] : std::atomic_ref<D>(dist[u]).load(std::memory_order_relaxed);
    if (du < static_cast<D>(queued.bound)) return;  // stale: u was queued again, shorter
    if (bucket_of(du, inverse_delta) < bucket) return;  // settled in an earlier bucket
    relax_run<Weighted, Alone>(nbr, wt, off[u], off[u + 1], du, dist, [&](V v, D nd) {
      // Never below the current bucket (rounding of a float weight sum).
      bins[std::max(bucket, bucket_of(nd, inverse_delta))].push_back(queued_entry(v, nd));
    });
  };
  for (;; ++round) {
    bucket = frontier.begin(round, t, bins, start);
    if (bucket == kNoBucket) return true;
    const std::int64_t total = start.back();
    if (wide_entries > 0 && total >= wide_entries) return false;
    if (t == 0) phases.enter(bucket);
    std::size_t k = 0;  // the slot of the last entry, found again only when i leaves it
    auto relax_at = [&](std::int64_t i) {
      if (i < start[k] || i >= start[k + 1]) k = frontier.slot_of(start, i);
      const std::vector<Entry>& slot = frontier.slot(round, k);
      const std::size_t at = static_cast<std::size_t>(i - start[k]);
      prefetch_ahead<Weighted>(slot.data(), at, slot.size(), off, nbr, wt, dist);
      relax(slot[at]);
    };
    if constexpr (Alone) {
      for (std::int64_t i = 0; i < total; ++i) relax_at(i);
    } else {
      // The round's entries are the threads' slots side by side: a static
      // split hands each thread mostly the entries it queued itself
      // (kernels/static_split.hpp).
      if (static_rounds) {
#pragma omp for schedule(static) nowait
        for (std::int64_t i = 0; i < total; ++i) relax_at(i);
      } else {
#pragma omp for schedule(dynamic, 64) nowait
        for (std::int64_t i = 0; i < total; ++i) relax_at(i);
      }
    }
    // Bin fusion: while this thread's own entries for the current bucket
    // are few, relax them at once instead of meeting the other threads at
    // a barrier for each small round (road graphs have thousands of them).
    // The two vectors trade places, so both keep their capacity.
    while (!bins[bucket].empty() && bins[bucket].size() < kFusionLimit) {
      fused.clear();
      fused.swap(bins[bucket]);
      for (std::size_t j = 0; j < fused.size(); ++j) {
        prefetch_ahead<Weighted>(fused.data(), j, fused.size(), off, nbr, wt, dist);
        relax(fused[j]);
      }
    }
    // The next round's slot (the current bucket may have refilled), less its
    // stale entries; a bin of stale entries only gives way to the next one.
    for (;;) {
      std::vector<Entry>& next = frontier.end(round, t, bins, bucket);
      if (next.empty() || drop_stale<Alone>(next, dist) > 0) break;
    }
    if constexpr (!Alone) {
#pragma omp barrier
    }
  }
}

// A search that starts alone calls a team of `threads` at its first round
// of this many entries or more (std::int64_t max: never): at least
// kFusionLimit, the size bin fusion would stop keeping on one thread, and
// enough that the round's arcs, estimated as entries x `mean_degree`, reach
// kTeamRoundArcs / (threads - 1). Below that the team's fork, barriers and
// contended distance lines cost more than its extra threads save: on the
// 2-core VM, 2 threads lost on rounds of up to 40 K arcs and gained from
// 60 K on (docs/kernels/sssp.md, "Small graphs").
inline constexpr double kTeamRoundArcs = 49152;

inline std::int64_t team_round_entries(double mean_degree, int threads) {
  constexpr auto kNever = std::numeric_limits<std::int64_t>::max();
  if (threads < 2 || !(mean_degree > 0)) return kNever;
  const double entries = std::ceil(kTeamRoundArcs / (threads - 1) / mean_degree);
  if (entries >= 0x1p62) return kNever;
  return std::max(static_cast<std::int64_t>(kFusionLimit), static_cast<std::int64_t>(entries));
}

// One search from `source` on `threads` threads (the team when above one;
// alone, without atomics, when one). With team_entries > 0, the search
// begins on the calling thread alone and calls the team at its first round
// of team_entries entries or more (team_round_entries): long-diameter
// graphs (meshes, road graphs) of a few thousand vertices never get there
// and pay no fork or barrier, short-diameter ones get the team for their
// wide rounds (docs/kernels/sssp.md, "Small graphs"). `static_rounds`: see
// run_rounds. `scratch` is emptied here. Returns the number of rounds.
template <bool Weighted, typename V, typename D>
int delta_stepping_search(const eid_t* off, const V* nbr, const weight_t* wt, V source, double delta, D* dist,
                          SearchScratch<QueuedEntry<V, D>>& scratch, int threads, bool static_rounds,
                          std::int64_t team_entries = 0) {
  const double inverse_delta = 1.0 / delta;
  scratch.prepare(threads);
  scratch.frontier.seed(queued_entry(source, D{0}), 0);
  BucketPhases phases;
  int round = 0;
  if (threads == 1 || team_entries > 0) {
    const bool done = run_rounds<Weighted, true>(off, nbr, wt, inverse_delta, dist, scratch, 0, round, phases,
                                                 static_rounds, threads > 1 ? team_entries : 0);
    scratch.team_from_round = done ? -1 : round;
    if (done) return round;
  } else {
    scratch.team_from_round = 0;
  }
  int rounds = round;
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id();
    int mine = round;
    run_rounds<Weighted, false>(off, nbr, wt, inverse_delta, dist, scratch, t, mine, phases, static_rounds);
    if (t == 0) rounds = mine;
  }
  return rounds;
}

// The search above with its bins and slots kept in `w` between searches;
// weighted when `wt` is given, on the calling team (without atomics when it
// is one thread). Both kernels' flat searches call this. `team_entries`:
// see the search above.
template <typename V, typename D>
int delta_stepping_search(const eid_t* off, const V* nbr, const weight_t* wt, V source, double delta, D* dist,
                          SsspWorkspace& w, bool static_rounds, std::int64_t team_entries = 0) {
  auto& scratch = w.scratch<SearchScratch<QueuedEntry<V, D>>>();
  const int threads = parallel::max_threads();
  return wt ? delta_stepping_search<true>(off, nbr, wt, source, delta, dist, scratch, threads, static_rounds,
                                          team_entries)
            : delta_stepping_search<false>(off, nbr, wt, source, delta, dist, scratch, threads, static_rounds,
                                           team_entries);
}

}  // namespace sssp_detail

// Distances from `source` into `dist`, reusing its pages when the size fits
// (the CLI's trials: a fresh array would be faulted in again every time).
// The search runs on 32-bit integer distances where they are exact
// (distances.hpp), then widens them into `dist`. `ws`, when given, keeps the
// narrow test and array between calls on the same graph. With start_alone
// (a graph below SSSP's cut-off, thread_budget.hpp) the search starts on
// this thread and calls the team at its first wide round
// (sssp_detail::team_round_entries, on the graph's mean out-degree).
template <typename V>
void sssp_delta_stepping(const CSRGraph<V>& g, V source, double delta, NumaArray<double>& dist,
                         SsspWorkspace* ws = nullptr, bool start_alone = false) {
  if (!(delta > 0)) throw UsageError("--delta must be positive (got " + std::to_string(delta) + ")");
  const std::int64_t n = g.num_vertices();
  if (dist.size() != static_cast<std::size_t>(n))
    dist = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("dist"));
  SsspWorkspace own;
  SsspWorkspace& w = ws ? *ws : own;
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  const weight_t* const wt = g.weighted() ? g.out().weights.data() : nullptr;
  const bool static_rounds = splits_statically(g);
  const std::int64_t team_entries =
      start_alone ? sssp_detail::team_round_entries(
                        n > 0 ? static_cast<double>(g.num_arcs()) / static_cast<double>(n) : 0, parallel::max_threads())
                  : 0;
  auto search = [&](auto* d) {
    sssp_detail::delta_stepping_search(off, nbr, wt, source, delta, d, w, static_rounds, team_entries);
  };
  // A search that starts alone fills and widens its (small) arrays alone
  // too: a team's fork costs more than the loop.
  const int fill_threads = start_alone ? 1 : parallel::max_threads();
  auto fill = [&](auto&& f) {
    ThreadLimit limit(fill_threads);
    parallel::for_static(std::int64_t{0}, n, f);
  };
  if (!w.use_narrow(g)) {
    fill([&](std::int64_t v) { dist[v] = kUnreachable; });
    dist[source] = 0;
    search(dist.data());
    return;
  }
  NumaArray<std::uint32_t>& nd = w.narrow_dist;
  if (nd.size() != static_cast<std::size_t>(n)) nd = NumaArray<std::uint32_t>(static_cast<std::size_t>(n));
  fill([&](std::int64_t v) { nd[v] = kNarrowInfinity; });
  nd[source] = 0;
  search(nd.data());
  fill([&](std::int64_t v) { dist[v] = nd[v] == kNarrowInfinity ? kUnreachable : static_cast<double>(nd[v]); });
}

template <typename V>
NumaArray<double> sssp_delta_stepping(const CSRGraph<V>& g, V source, double delta) {
  NumaArray<double> dist;
  sssp_delta_stepping(g, source, delta, dist);
  return dist;
}

}  // namespace numagraph::kernels
