// Louvain's local moving, parallel and deterministic: vertices are taken in
// a seeded random order, in batches whose size depends on the vertex counts
// alone. In a batch every vertex finds, in parallel, its best community
// against the assignment frozen at the batch's start; the moves are then
// applied one by one in the batch's order. The next pass looks only at the
// vertices with a neighbour that moved after they were looked at. A pass ends after
// the last batch; a level ends when a pass moves nothing, gains less than
// pass_tolerance, or max_passes is reached. Nothing depends on which thread
// did what, so the result is the same on every run and every thread count.
//
// The gain of moving v from its community C to D (NetworkX's and Blondel et
// al.'s): dQ = (k_v,D - k_v,C\v) / m - gamma k_v (K_D - K_C\v) / 2m^2. Two
// singletons may not swap into each other in one batch: a singleton joins
// another singleton only when that one's id is smaller. Work per pass:
// O(n + arcs of the vertices looked at).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include <omp.h>

#include "numagraph/kernels/community/level_graph.hpp"
#include "numagraph/kernels/community/options.hpp"

namespace numagraph::kernels::community {

// A random permutation of 0..n-1 (Fisher-Yates with splitmix64).
template <typename V>
std::vector<V> random_order(std::int64_t n, std::uint64_t seed) {
  std::vector<V> order(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) order[i] = static_cast<V>(i);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (std::int64_t i = n - 1; i > 0; --i) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const auto j = static_cast<std::int64_t>((static_cast<unsigned __int128>(z) * static_cast<std::uint64_t>(i + 1)) >> 64);
    std::swap(order[i], order[j]);
  }
  return order;
}

// Vertices decided against one frozen assignment, out of `count` to look at
// in this pass: a function of the counts only, so that the answer does not
// depend on the thread count. A 32nd of the pass: two neighbours rarely share
// a batch (when they do, both decide on stale data and may swap back and
// forth), and small passes run one vertex at a time.
inline std::int64_t batch_size(std::int64_t count) { return std::clamp<std::int64_t>(count / 32, 1, 8192); }

struct MoveStats {
  int passes = 0;
  std::int64_t moves = 0;
};

// Moves vertices of `a` between the communities `comm` (ids in [0, n));
// `tot` (K_c) and `size` follow.
template <typename V, typename Adj>
MoveStats local_moving(const Adj& a, const std::vector<double>& k, double two_m, const CommunityOptions& o,
                       const std::vector<V>& order, std::vector<V>& comm) {
  const std::int64_t n = a.num_vertices();
  MoveStats stats;
  if (n == 0 || two_m <= 0) return stats;
  std::vector<double> tot(static_cast<std::size_t>(n), 0.0);
  std::vector<std::int64_t> size(static_cast<std::size_t>(n), 0);
  for (std::int64_t v = 0; v < n; ++v) {
    tot[comm[v]] += k[v];
    ++size[comm[v]];
  }
  const std::int64_t batch = batch_size(n);  // the largest batch: the first pass looks at every vertex
  std::vector<V> target(static_cast<std::size_t>(batch));
  std::vector<double> gain(static_cast<std::size_t>(batch));
  // A vertex is looked at again only when a neighbour moved after it was
  // last looked at (batch numbers, counted over the whole level).
  std::vector<std::int32_t> looked(static_cast<std::size_t>(n), -1), moved_in(static_cast<std::size_t>(n), -1);
  std::vector<std::uint8_t> active(static_cast<std::size_t>(n), 1);
  std::vector<V> todo, moved;
  todo.reserve(static_cast<std::size_t>(n));
  const double gamma = o.resolution;
  std::int32_t batches = 0;
  std::vector<WeightMap> maps(static_cast<std::size_t>(parallel::max_threads()));
  while (true) {
    todo.clear();
    for (std::int64_t i = 0; i < n; ++i)
      if (active[order[i]]) todo.push_back(order[i]);
    moved.clear();
    double pass_gain = 0;
    const auto count = static_cast<std::int64_t>(todo.size());
    for (std::int64_t b0 = 0; b0 < count; b0 += batch_size(count)) {
      const std::int64_t b1 = std::min(count, b0 + batch_size(count));
      eid_t arcs = 0;
      for (std::int64_t i = b0; i < b1; ++i) arcs += a.end(todo[i]) - a.begin(todo[i]);
#pragma omp parallel for schedule(dynamic, 16) if (arcs >= parallel_arcs())
      for (std::int64_t i = b0; i < b1; ++i) {
        WeightMap& map = maps[static_cast<std::size_t>(omp_get_thread_num())];
        const std::int64_t v = todo[i];
        const V own = comm[v];
        active[v] = 0;
        looked[v] = batches;
        map.prepare(a.end(v) - a.begin(v));
        for (eid_t e = a.begin(v); e < a.end(v); ++e) {
          const auto u = static_cast<std::int64_t>(a.target(e));
          if (u != v) map.add(comm[u], a.weight(e));
        }
        const double kv = k[v];
        const double stay = map.get(own) - gamma * kv * (tot[own] - kv) / two_m;
        V best = own;
        double best_score = stay;
        for (std::size_t j = 0; j < map.size(); ++j) {
          const auto c = static_cast<V>(map.key(j));
          if (c == own) continue;
          const double score = map.value(j) - gamma * kv * tot[c] / two_m;
          if (score > best_score) {
            best = c;
            best_score = score;
          }
        }
        map.clear();
        if (best != own && size[own] == 1 && size[best] == 1 && best > own) best = own;
        target[i - b0] = best;
        gain[i - b0] = 2 * (best_score - stay) / two_m;
      }
      for (std::int64_t i = b0; i < b1; ++i) {
        const std::int64_t v = todo[i];
        const V to = target[i - b0], from = comm[v];
        if (to == from) continue;
        tot[from] -= k[v];
        tot[to] += k[v];
        --size[from];
        ++size[to];
        comm[v] = to;
        moved_in[v] = batches;
        pass_gain += gain[i - b0];
        moved.push_back(static_cast<V>(v));
      }
      ++batches;
    }
    // Wake the neighbours of the moved vertices that were looked at before the
    // move; when the moved vertices hold most arcs, simply wake everyone.
    eid_t moved_arcs = 0;
    for (const V v : moved) moved_arcs += a.end(v) - a.begin(v);
    if (2 * moved_arcs > a.end(n - 1)) std::fill(active.begin(), active.end(), std::uint8_t{1});
#pragma omp parallel for schedule(dynamic, 4) if (moved_arcs >= parallel_arcs())
    for (std::size_t j = 0; j < (2 * moved_arcs > a.end(n - 1) ? 0 : moved.size()); ++j) {
      const std::int64_t v = moved[j];
      for (eid_t e = a.begin(v); e < a.end(v); ++e) {
        const auto u = a.target(e);
        if (moved_in[v] >= looked[u]) std::atomic_ref<std::uint8_t>(active[u]).store(1, std::memory_order_relaxed);
      }
    }
    ++stats.passes;
    stats.moves += static_cast<std::int64_t>(moved.size());
    if (moved.empty() || pass_gain < o.pass_tolerance || stats.passes >= o.max_passes) break;
  }
  return stats;
}

}  // namespace numagraph::kernels::community
