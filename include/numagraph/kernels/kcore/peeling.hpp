// k-core decomposition, flat: level-synchronous parallel peeling, the
// scheme of ParK (Dasari, Desh and Zubair, IEEE BigData 2014) with the level
// skipping of Julienne's bucketing (Dhulipala, Blelloch and Shun, SPAA 2017).
//
// deg[v] starts as v's degree. At level k, every vertex still in the graph
// with deg <= k has coreness k. A scan of the remaining vertices finds them;
// then rounds peel them: each peeled vertex decrements, atomically, the
// degree of its neighbours still above k, and the one decrement that takes a
// neighbour from k + 1 to k puts it in the next round (and gives it coreness
// k). When a level's rounds end every remaining vertex has deg > k, so the
// next level is k + 1, or the smallest remaining degree when no vertex has
// k + 1 left. The scan also drops the peeled vertices from the remaining list,
// so the higher levels, which few vertices reach, scan only those few.
// Work O(n + m) plus one scan of the remaining vertices per level.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "numagraph/engine/frontier.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/kcore/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

namespace kcore_detail {

// Below this many items a scan or a round runs on the calling thread: the
// high levels of a skewed graph hold a few hundred vertices each, and opening
// a parallel region for them costs more than the work (kron20 has ~600 levels).
inline constexpr std::int64_t kSerialBelow = 4096;

// Moves the per-thread lists into `out`.
template <typename V>
void gather(std::vector<std::vector<V>>& parts, std::vector<V>& out) {
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size();
  if (static_cast<std::int64_t>(total) >= kSerialBelow) return engine::concatenate(parts, out);
  out.clear();
  for (auto& p : parts) {
    out.insert(out.end(), p.begin(), p.end());
    p.clear();
  }
}

}  // namespace kcore_detail

template <typename V>
KcoreResult<V> core_numbers_peeling(const CSRGraph<V>& g, const KcoreOptions& = {}) {
  const std::int64_t n = g.num_vertices();
  const auto threads = static_cast<std::size_t>(parallel::max_threads());
  KcoreResult<V> r;
  r.core = NumaArray<std::int32_t>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("core"));
  auto deg = NumaArray<std::int32_t>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("core"));
  std::vector<V> remaining(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
    deg[v] = static_cast<std::int32_t>(g.out_degree(static_cast<V>(v)));
    r.core[v] = -1;
    remaining[static_cast<std::size_t>(v)] = static_cast<V>(v);
  });
  std::vector<std::vector<V>> kept(threads), found(threads);
  std::vector<parallel::Padded<std::int32_t>> lowest(threads);
  engine::SparseFrontier<V> frontier;
  std::int32_t k = 0;
  while (!remaining.empty()) {
    // Split the remaining vertices: deg <= k (coreness k) and the rest,
    // dropping the ones the last level's rounds peeled.
    for (auto& l : lowest) l.value = std::numeric_limits<std::int32_t>::max();
    const bool wide = static_cast<std::int64_t>(remaining.size()) >= kcore_detail::kSerialBelow;
#pragma omp parallel if (wide)
    {
      const auto tid = static_cast<std::size_t>(parallel::thread_id());
      std::int32_t low = std::numeric_limits<std::int32_t>::max();
#pragma omp for schedule(static) nowait
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(remaining.size()); ++i) {
        const V v = remaining[static_cast<std::size_t>(i)];
        if (r.core[v] >= 0) continue;
        if (deg[v] <= k) {
          r.core[v] = k;
          found[tid].push_back(v);
        } else {
          kept[tid].push_back(v);
          low = std::min(low, deg[v]);
        }
      }
      lowest[tid].value = low;
    }
    kcore_detail::gather(kept, remaining);
    kcore_detail::gather(found, frontier);
    if (frontier.empty()) {
      if (remaining.empty()) break;
      // Nobody has k left: jump to the smallest remaining degree.
      k = std::min_element(lowest.begin(), lowest.end(), [](const auto& a, const auto& b) {
            return a.value < b.value;
          })->value;
      continue;
    }
    r.max_core = k;
    while (!frontier.empty()) {
      ++r.rounds;
      // A few dozen peeled hubs are already worth the threads.
      const bool wide_round = frontier.size() >= 64;
#pragma omp parallel if (wide_round)
      {
        auto& next = found[static_cast<std::size_t>(parallel::thread_id())];
#pragma omp for schedule(dynamic, 16) nowait
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(frontier.size()); ++i) {
          for (const V u : g.out_neighbors(frontier[static_cast<std::size_t>(i)])) {
            if (__atomic_load_n(&deg[u], __ATOMIC_RELAXED) <= k) continue;  // peeled, or peeled at this level
            if (__atomic_fetch_sub(&deg[u], 1, __ATOMIC_RELAXED) == k + 1) {
              r.core[u] = k;
              next.push_back(u);
            }
          }
        }
      }
      kcore_detail::gather(found, frontier);
    }
    ++k;
  }
  return r;
}

}  // namespace numagraph::kernels
