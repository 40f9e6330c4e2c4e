// Betweenness centrality by Brandes' algorithm with lock-free path counting
// (Madduri, Ediger, Jiang, Bader, Chavarria-Miranda, IPDPS 2009), the flat
// kernel and the baseline of seed 000.
//
// Per source: a level-synchronous BFS where the first thread to reach v sets
// its depth with a compare-and-swap, and every predecessor adds its path
// count with an atomic add (sigma[v] += sigma[u] for depth[v] = depth[u]+1),
// so no locks and no predecessor lists. The forward sweep also marks, one bit
// per arc, the arcs that lead one level down (a successor bitmap, as gapbs
// does), so the backward sweep reads only successors' data instead of every
// neighbour's depth. It walks the levels deepest first; each vertex pulls
//   delta[w] = sum over successors v of sigma[w]/sigma[v] (1 + delta[v])
// and owns its own write, so it needs no atomics either.
// Scores are raw sums over the given sources (each ordered pair once);
// scale_like_networkx() turns them into NetworkX's numbers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// Per-vertex scratch of the search, kept between calls (the CLI's trials):
// fresh arrays would be faulted in again on every call, which costs as much
// as a whole search on a small road graph. Between sources, and between
// calls, every entry is back at its initial value: depth -1, sigma and
// delta 0 (each search resets the vertices it visited).
template <typename V>
struct BrandesWorkspace {
  NumaArray<double> sigma, delta;
  NumaArray<std::int32_t> depth;
  NumaArray<V> order;               // vertices by level
  NumaArray<std::uint64_t> succ;    // one bit per arc: leads one level down
  bool clean = false;               // false: (re)initialise before use

  void prepare(std::int64_t n, eid_t arcs) {
    const auto size = static_cast<std::size_t>(n);
    if (clean && sigma.size() == size && succ.size() == static_cast<std::size_t>((arcs + 63) / 64)) return;
    sigma = NumaArray<double>(size, numa::placement_for("sigma"));
    delta = NumaArray<double>(size, numa::placement_for("delta"));
    depth = NumaArray<std::int32_t>(size, numa::placement_for("depth"));
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { depth[v] = -1; });
    order = NumaArray<V>(std::max<std::size_t>(size, 1));
    succ = NumaArray<std::uint64_t>(static_cast<std::size_t>((arcs + 63) / 64));
    clean = true;
  }
};

// Raw Brandes sums over `sources` into `scores` (reusing its pages when the
// size fits) with scratch from `ws`.
template <typename V>
void betweenness_brandes(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                         BrandesWorkspace<V>& ws) {
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  ws.prepare(n, g.num_arcs());
  auto& sigma = ws.sigma;
  auto& delta = ws.delta;
  auto& depth = ws.depth;
  auto& order = ws.order;
  auto& succ = ws.succ;
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  for (const V s : sources) {
    throw_if_cancelled();  // Ctrl-C in Python: once per source (the workspace is clean here)
    ws.clean = false;
    std::vector<std::int64_t> level_start{0, 1};
    order[0] = s;
    depth[s] = 0;
    sigma[s] = 1;
    // Vertices found per level, in three rotating slots: level d resets the
    // slot of level d+1, last used by level d-2, whose readers have all
    // passed the barrier that ended level d-1 (one barrier per level).
    struct alignas(64) Found {
      std::atomic<std::int64_t> count{0};
    };
    Found found[3];
    // One parallel region per source: high-diameter graphs have hundreds of
    // levels, and a region per level would fork and join the team each time.
#pragma omp parallel
    {
      const bool leader = parallel::thread_id() == 0;
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread
      if (leader) phase.emplace("forward");
#pragma omp for schedule(static)
      for (std::size_t w = 0; w < succ.size(); ++w) succ[w] = 0;
      std::vector<V> local;
      std::int64_t lo = 0, hi = 1;
      for (std::int32_t d = 0; lo < hi; ++d) {
        Found& cur = found[d % 3];
        if (leader) found[(d + 1) % 3].count.store(0, std::memory_order_relaxed);
#pragma omp for schedule(dynamic, 64) nowait
        for (std::int64_t i = lo; i < hi; ++i) {
          const V u = order[i];
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            std::int32_t dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
            if (dv < 0 && parallel::compare_and_swap(depth[v], std::int32_t{-1}, d + 1)) {
              local.push_back(v);
              dv = d + 1;
            } else if (dv < 0) {
              dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
            }
            if (dv == d + 1) {
              parallel::fetch_add(sigma[v], sigma[u]);
              // Neighbouring vertices' arcs may share a word: atomic or.
              __atomic_fetch_or(&succ[static_cast<std::size_t>(e >> 6)], std::uint64_t{1} << (e & 63), __ATOMIC_RELAXED);
            }
          }
        }
        const std::int64_t at = hi + cur.count.fetch_add(static_cast<std::int64_t>(local.size()));
        std::copy(local.begin(), local.end(), order.begin() + at);
        local.clear();
#pragma omp barrier
        lo = hi;
        hi += cur.count.load(std::memory_order_relaxed);
        if (leader) level_start.push_back(hi);
      }
#pragma omp barrier  // the leader's last push to level_start is visible
      // Backward: levels deepest first; the deepest level has delta 0.
      if (leader) phase.emplace("backward");
      for (std::size_t l = level_start.size() - 2; l-- > 0;) {
        const std::int64_t first = level_start[l], last = level_start[l + 1];
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t i = first; i < last; ++i) {
          const V w = order[i];
          double sum = 0;
          for (eid_t e = off[w]; e < off[w + 1]; ++e)
            if ((succ[static_cast<std::size_t>(e >> 6)] >> (e & 63)) & 1) sum += (1.0 + delta[nbr[e]]) / sigma[nbr[e]];
          delta[w] = sigma[w] * sum;
          if (w != s) scores[w] += delta[w];
        }
      }
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < hi; ++i) {
        const V v = order[i];
        depth[v] = -1;
        sigma[v] = 0;
        delta[v] = 0;
      }
    }
    ws.clean = true;
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
