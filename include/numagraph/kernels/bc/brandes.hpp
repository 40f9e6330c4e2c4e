// Betweenness centrality by Brandes' algorithm, the push-only flat kernel:
// a level-synchronous search per source without locks or predecessor lists
// (after Madduri, Ediger, Jiang, Bader, Chavarria-Miranda, IPDPS 2009, the
// baseline of seed 000).
//
// Each vertex keeps its depth and one count in 16 bytes (BrandesVertex), so
// a neighbour's depth test and its count share one cache line.
// Forward, level d: the first thread to reach an unvisited out-neighbour of
// a frontier vertex claims it for level d + 1. On an undirected graph the
// claim is a compare-and-swap on the depth, and each frontier vertex u sums
// its own path count over its neighbours one level up in the same pass
// (only u writes it, no atomic add). On a directed graph the claim sets the
// depth and the count together (one 16-byte compare-and-swap) and later
// predecessors add to the count atomically: no pass over the in-edges.
// Backward, levels deepest first: each vertex w replaces its count sigma[w] by
//   c[w] = (1 + delta[w]) / sigma[w] = 1 / sigma[w] + sum of c over its successors
// (its out-neighbours one level down, found by their depth), so
// delta[w] = sigma[w] * (sum of c): one division per vertex, one read per
// successor, and only w writes c[w].
// Each thread takes a static share of a level and requests its
// neighbours' lines a few frontier vertices ahead. Runs of
// levels of fewer than 64 vertices (a road network's first and last levels)
// run on one thread with plain stores, without a barrier per level. Depths
// count on from a base that each search raises past its levels, so no pass
// resets the vertices a search reached. road-NY: docs/kernels/bc.md.
// Graphs of 8 or more arcs per vertex (kernels/static_split.hpp) run
// brandes_split_state.hpp instead.
// Scores are raw sums over the given sources (each ordered pair once);
// scale_like_networkx() turns them into NetworkX's numbers.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bc/brandes_split_state.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// The push-only search's state of one vertex: its depth and the count
// that its neighbours read beside it.
struct alignas(16) BrandesVertex {
  double count;        // sigma until the backward sweep settles the vertex, then c
  std::int32_t depth;  // the search's base + level; below the base: not reached by it
  std::int32_t unused;
};
static_assert(sizeof(BrandesVertex) == 16);

// Per-vertex scratch of the searches, kept between calls (the CLI's trials):
// fresh arrays would be faulted in again on every call, which costs as much
// as a whole search on a small road graph. The work-queue kernel
// (brandes_work_queues.hpp) keeps sigma, delta and depth, each back at its
// initial value between sources and calls (depth -1, sigma and delta 0:
// each search resets the vertices it visited). The push-only kernel keeps
// `vertices`, whose depths lie below `base` between searches; both use `order`.
template <typename V>
struct BrandesWorkspace {
  NumaArray<double> sigma, delta;
  NumaArray<std::int32_t> depth;
  NumaArray<V> order;               // vertices by level
  NumaArray<std::uint64_t> succ;    // one bit per arc: leads one level down (work queues only)
  bool clean = false;               // false: (re)initialise before use
  NumaArray<BrandesVertex> vertices;  // push-only search
  std::int32_t base = 0;              // push-only search: the next search's level 0

  // The push-only search's arrays for n vertices, and room for a search of
  // up to n levels above `base` (depths are 32-bit).
  void prepare_push_only(std::int64_t n) {
    const auto size = static_cast<std::size_t>(n);
    if (vertices.size() != size || base > INT32_MAX - n - 2) {
      vertices = NumaArray<BrandesVertex>::for_overwrite(size, numa::placement_for("depth"));
      parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { vertices[v] = {0, -1, 0}; });
      base = 0;
    }
    if (order.size() < std::max<std::size_t>(size, 1)) order = NumaArray<V>(std::max<std::size_t>(size, 1));
  }

  // successor_arcs: the graph's arcs when the caller marks successor bits,
  // 0 when it does not.
  void prepare(std::int64_t n, eid_t successor_arcs) {
    const auto size = static_cast<std::size_t>(n);
    if (!clean || sigma.size() != size) {
      sigma = NumaArray<double>(size, numa::placement_for("sigma"));
      delta = NumaArray<double>(size, numa::placement_for("delta"));
      depth = NumaArray<std::int32_t>(size, numa::placement_for("depth"));
      parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { depth[v] = -1; });
      order = NumaArray<V>(std::max<std::size_t>(size, 1));
      clean = true;
    }
    const auto words = static_cast<std::size_t>((successor_arcs + 63) / 64);
    if (words > 0 && succ.size() != words) succ = NumaArray<std::uint64_t>(words);
  }
};

namespace bc_detail {

// Levels of fewer vertices than this run on one thread.
inline constexpr std::int64_t kSerialLevelBelow = 64;
// The sweeps request the lines of the vertex this many places ahead in the
// level order (its neighbours' states), its list twice as far ahead and its
// offsets four times as far.
inline constexpr std::int64_t kLookahead = 4;

#if defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
inline constexpr bool kClaimsWithCounts = true;

// Claims x for depth `next` with path count `count` while its depth is
// below `base` (not reached by this search): depth and count in one 16-byte
// compare-and-swap, so a thread that sees the depth sees the count. False
// when x was reached already; `seen` is then its depth.
inline bool claim_with_count(BrandesVertex& x, std::int32_t base, std::int32_t next, double count,
                             std::int32_t& seen) {
  BrandesVertex now{parallel::load_relaxed(x.count), parallel::load_relaxed(x.depth), 0};
  const BrandesVertex want{count, next, 0};
  unsigned __int128 expected, desired;
  std::memcpy(&expected, &now, sizeof now);  // two reads: if torn, the swap fails and returns the truth
  std::memcpy(&desired, &want, sizeof want);
  auto* const target = reinterpret_cast<unsigned __int128*>(&x);
  while (now.depth < base) {
    const unsigned __int128 found = __sync_val_compare_and_swap(target, expected, desired);
    if (found == expected) return true;
    expected = found;
    std::memcpy(&now, &found, sizeof now);
  }
  seen = now.depth;
  return false;
}
#else
// Without a 16-byte compare-and-swap a directed graph's levels all run on one thread.
inline constexpr bool kClaimsWithCounts = false;
#endif

}  // namespace bc_detail

// Raw Brandes sums over `sources` into `scores` (reusing its pages when the
// size fits) with scratch from `ws`.
template <typename V>
void betweenness_brandes(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                         BrandesWorkspace<V>& ws) {
  // Dense, skewed graphs: the dynamic schedule's balance and 4-byte depths
  // (brandes_split_state.hpp).
  if (!splits_statically(g)) return betweenness_brandes_split_state(g, sources, scores, ws);
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  double* const score = scores.data();
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  // An undirected graph's vertices sum their own counts; a directed graph's
  // are pushed them by their predecessors, so no in-edges are read.
  const bool undirected = !g.directed();
  const std::int64_t serial_below =
      undirected || bc_detail::kClaimsWithCounts ? bc_detail::kSerialLevelBelow : INT64_MAX;

  for (const V s : sources) {
    throw_if_cancelled();  // Ctrl-C in Python: once per source (the workspace is consistent here)
    ws.prepare_push_only(n);
    BrandesVertex* const vx = ws.vertices.data();
    V* const order = ws.order.data();
    const std::int32_t base = ws.base;
    std::vector<std::int64_t> level_start{0, 1};
    order[0] = s;
    vx[s].depth = base;
    vx[s].count = 1;
    // Vertices found per team level, in three rotating slots: team level t
    // resets the slot of team level t+1, last used by team level t-2, whose
    // readers have all passed the barrier that ended team level t-1 (one
    // barrier per level). Runs of small levels leave the slots alone.
    struct alignas(64) Found {
      std::atomic<std::int64_t> count{0};
    };
    Found found[3];
    // Where a run of small levels on the calling thread left the sweep.
    std::int64_t run_lo = 0, run_hi = 1;
    std::int32_t run_d = 0;
    // One parallel region per source: high-diameter graphs have hundreds of
    // levels, and a region per level would fork and join the team each time.
#pragma omp parallel
    {
      const bool leader = parallel::thread_id() == 0;
      const bool alone = parallel::num_threads_in_region() == 1;
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread
      if (leader) phase.emplace("forward");
      std::vector<V> local;
      // Requests the lines the vertex at order[i + kLookahead] will read,
      // and the list and offsets of those further on, below `end`.
      auto request_ahead = [&](std::int64_t i, std::int64_t end, bool backward) __attribute__((always_inline)) {
        constexpr std::int64_t k = bc_detail::kLookahead;
        if (i + 4 * k < end) __builtin_prefetch(&off[order[i + 4 * k]]);
        if (i + 2 * k < end) __builtin_prefetch(&nbr[off[order[i + 2 * k]]]);
        if (i + k < end) {
          const V w = order[i + k];
          for (eid_t e = off[w]; e < off[w + 1]; ++e) __builtin_prefetch(&vx[nbr[e]]);
          __builtin_prefetch(&vx[w]);
          if (backward) __builtin_prefetch(&score[w]);
        }
      };
      // Frontier vertex order[i] of level d on the calling thread alone:
      // plain stores, its discoveries appended at order[end].
      auto expand_alone = [&](std::int64_t i, std::int32_t d, std::int64_t& end) __attribute__((always_inline)) {
        const V u = order[i];
        const std::int32_t up = base + d - 1, next = base + d + 1;
        if (undirected) {
          double count = 0;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            BrandesVertex& x = vx[nbr[e]];
            if (x.depth < base) {
              x.depth = next;
              order[end++] = nbr[e];
            } else if (x.depth == up) {
              count += x.count;
            }
          }
          if (d > 0) vx[u].count = count;
        } else {
          const double count = vx[u].count;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            BrandesVertex& x = vx[nbr[e]];
            if (x.depth < base) {
              x.depth = next;
              x.count = count;
              order[end++] = nbr[e];
            } else if (x.depth == next) {
              x.count += count;
            }
          }
        }
      };
      // Frontier vertex u of level d with the team: claims its unreached
      // out-neighbours; sums its own count (undirected) or pushes it.
      auto expand_shared = [&](const V u, const std::int32_t d) __attribute__((always_inline)) {
        const std::int32_t up = base + d - 1, next = base + d + 1;
        if (undirected) {
          double count = 0;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            const std::int32_t seen = parallel::load_relaxed(vx[v].depth);
            if (seen < base) {
              if (parallel::compare_and_swap(vx[v].depth, seen, next)) local.push_back(v);
            } else if (seen == up) {
              count += vx[v].count;
            }
          }
          if (d > 0) vx[u].count = count;
        } else if constexpr (bc_detail::kClaimsWithCounts) {
          const double count = vx[u].count;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            std::int32_t seen = parallel::load_relaxed(vx[v].depth);
            if (seen < base && bc_detail::claim_with_count(vx[v], base, next, count, seen)) local.push_back(v);
            else if (seen == next) parallel::fetch_add(vx[v].count, count);
          }
        }
      };
      std::int64_t lo = 0, hi = 1, team_levels = 0;
      std::int32_t d = 0;
      while (lo < hi) {
        if (alone || hi - lo < serial_below) {
          // A run of small levels on the calling thread, no barrier per level.
          if (leader) {
            std::int64_t end = hi;
            do {
              for (std::int64_t i = lo; i < hi; ++i) {
                request_ahead(i, end, false);
                expand_alone(i, d, end);
              }
              lo = hi;
              hi = end;
              ++d;
              level_start.push_back(hi);
            } while (lo < hi && (alone || hi - lo < serial_below));
            run_lo = lo;
            run_hi = hi;
            run_d = d;
          }
          if (!alone) {
#pragma omp barrier
          }
          lo = run_lo;
          hi = run_hi;
          d = run_d;
          continue;
        }
        Found& cur = found[team_levels % 3];
        if (leader) found[(team_levels + 1) % 3].count.store(0, std::memory_order_relaxed);
        ++team_levels;
        // Each thread takes a static share: mostly the vertices it found,
        // whose lines its cache still holds.
#pragma omp for schedule(static) nowait
        for (std::int64_t i = lo; i < hi; ++i) {
          request_ahead(i, hi, false);
          expand_shared(order[i], d);
        }
        const std::int64_t at = hi + cur.count.fetch_add(static_cast<std::int64_t>(local.size()));
        std::copy(local.begin(), local.end(), order + at);
        local.clear();
#pragma omp barrier
        lo = hi;
        hi += cur.count.load(std::memory_order_relaxed);
        ++d;
        if (leader) level_start.push_back(hi);
      }
#pragma omp barrier  // the leader's last push to level_start is visible
      // Backward: levels deepest first; the deepest level has no successors.
      if (leader) phase.emplace("backward");
      auto settle = [&](std::int64_t i, std::int32_t below) __attribute__((always_inline)) {
        const V w = order[i];
        double sum = 0;
        for (eid_t e = off[w]; e < off[w + 1]; ++e) {
          const BrandesVertex& x = vx[nbr[e]];
          if (x.depth == below) sum += x.count;
        }
        const double sigma = vx[w].count;
        vx[w].count = 1 / sigma + sum;
        if (w != s) score[w] += sigma * sum;
      };
      auto small = [&](std::int64_t l) { return alone || level_start[l + 1] - level_start[l] < serial_below; };
      // level_start ends with the empty level after the deepest one.
      std::int64_t l = static_cast<std::int64_t>(level_start.size()) - 3;
      while (l >= 0) {
        if (small(l)) {
          if (leader) {
            std::int64_t k = l;
            for (; k >= 0 && small(k); --k) {
              const auto below = static_cast<std::int32_t>(base + k + 1);
              for (std::int64_t i = level_start[k]; i < level_start[k + 1]; ++i) {
                request_ahead(i, level_start[k + 1], true);
                settle(i, below);
              }
            }
            run_lo = k;
          }
          if (!alone) {
#pragma omp barrier
          }
          l = run_lo;
          continue;
        }
        const std::int64_t first = level_start[l], last = level_start[l + 1];
        const auto below = static_cast<std::int32_t>(base + l + 1);
#pragma omp for schedule(static)
        for (std::int64_t i = first; i < last; ++i) {
          request_ahead(i, last, true);
          settle(i, below);
        }
        --l;
      }
    }
    // The next search counts its depths on from here: every depth this one
    // set lies below.
    ws.base = base + static_cast<std::int32_t>(level_start.size());
  }
}

template <typename V>
NumaArray<double> betweenness_brandes(const CSRGraph<V>& g, const std::vector<V>& sources) {
  NumaArray<double> scores;
  BrandesWorkspace<V> ws;
  betweenness_brandes(g, sources, scores, ws);
  return scores;
}

// Scales raw Brandes sums to NetworkX's betweenness_centrality(G, k,
// normalized) with endpoints=False (NetworkX 3.x rules): exact (all sources):
// normalized divides by (n-1)(n-2), otherwise undirected graphs halve; with k
// sampled sources the sources and the other vertices get NetworkX's separate
// sampling factors.
template <typename V>
void scale_like_networkx(const CSRGraph<V>& g, NumaArray<double>& scores, const std::vector<V>& sources,
                         bool all_sources, bool normalized) {
  const double N = static_cast<double>(g.num_vertices()) - 1;
  if (N < 2) return;
  const double correction = g.directed() ? 1 : 2;
  if (all_sources) {
    const double scale = normalized ? 1 / (N * (N - 1)) : 1 / correction;
    for (auto& x : scores) x *= scale;
    return;
  }
  const double k = static_cast<double>(sources.size());
  const double source_scale = normalized ? (k > 1 ? 1 / ((k - 1) * (N - 1)) : NAN)
                                         : (k > 1 ? N / ((k - 1) * correction) : NAN);
  const double other_scale = normalized ? 1 / (k * (N - 1)) : N / (k * correction);
  std::unordered_set<V> is_source(sources.begin(), sources.end());
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    scores[v] *= is_source.count(static_cast<V>(v)) ? source_scale : other_scale;
}

}  // namespace numagraph::kernels
