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
// A round with many peeled vertices pulls instead (direction optimization,
// as Ligra's edgeMap does for its k-core): the peeled vertices go into a
// bitmap, and each remaining vertex subtracts the number of its neighbours
// set there from its own degree, which only it writes: no atomics, and a
// bitmap read per edge instead of a decrement of a random counter. It pulls
// when the peeled vertices' edges times KcoreOptions::pull_ratio exceed the
// remaining vertices' edges (the round's push work against its pull work;
// a push edge is dearer when the counters miss the caches).
// Both find the same vertices for the next round.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "numagraph/engine/frontier.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/kcore/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/sweep/gather_sum.hpp"

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
KcoreResult<V> core_numbers_peeling(const CSRGraph<V>& g, const KcoreOptions& options = {}) {
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
  // Out-edges of the vertices each thread kept or found (the rule's sums).
  // Read through sum_of, which leaves them 0: a step on one thread writes
  // only its own slot.
  std::vector<parallel::Padded<eid_t>> kept_edges(threads), found_edges(threads);
  auto sum_of = [](std::vector<parallel::Padded<eid_t>>& parts) {
    eid_t total = 0;
    for (auto& p : parts) total += std::exchange(p.value, 0);
    return total;
  };
  NumaArray<std::uint64_t> peeled_bits;  // the round's peeled vertices, when it pulls
  // Raw pointers in the loops: through the NumaArrays and the graph the
  // compiler reloads their data pointers after every atomic (docs/kernels/kcore.md).
  std::int32_t* const live = deg.data();  // degrees left
  std::int32_t* const core = r.core.data();
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  auto degree = [off](V v) { return off[v + 1] - off[v]; };
  const double pull_ratio = options.pull_ratio >= 0 ? options.pull_ratio
                            : prefetch_pays(n, sizeof(std::int32_t)) ? 8.0
                                                                      : 2.0;
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
      eid_t kept_sum = 0, found_sum = 0;
#pragma omp for schedule(static) nowait
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(remaining.size()); ++i) {
        const V v = remaining[static_cast<std::size_t>(i)];
        if (core[v] >= 0) continue;
        if (live[v] <= k) {
          core[v] = k;
          found[tid].push_back(v);
          found_sum += degree(v);
        } else {
          kept[tid].push_back(v);
          kept_sum += degree(v);
          low = std::min(low, live[v]);
        }
      }
      lowest[tid].value = low;
      kept_edges[tid].value = kept_sum;
      found_edges[tid].value = found_sum;
    }
    eid_t remaining_edges = sum_of(kept_edges);
    eid_t frontier_edges = sum_of(found_edges);
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
      const bool pull =
          pull_ratio > 0 && static_cast<double>(frontier_edges) * pull_ratio > static_cast<double>(remaining_edges);
      if (pull) {
        if (peeled_bits.size() == 0) peeled_bits = NumaArray<std::uint64_t>(static_cast<std::size_t>(n) / 64 + 1);
        std::uint64_t* bits = peeled_bits.data();
        const auto fsize = static_cast<std::int64_t>(frontier.size());
        const auto rsize = static_cast<std::int64_t>(remaining.size());
#pragma omp parallel if (rsize >= kcore_detail::kSerialBelow)
        {
          const auto tid = static_cast<std::size_t>(parallel::thread_id());
          auto& next = found[tid];
          eid_t next_sum = 0;
#pragma omp for schedule(static)
          for (std::int64_t i = 0; i < fsize; ++i) {
            const V u = frontier[static_cast<std::size_t>(i)];
            __atomic_fetch_or(&bits[u >> 6], std::uint64_t{1} << (u & 63), __ATOMIC_RELAXED);
          }
#pragma omp for schedule(dynamic, 1024)
          for (std::int64_t i = 0; i < rsize; ++i) {
            const V v = remaining[static_cast<std::size_t>(i)];
            if (core[v] >= 0) continue;  // peeled at this level
            std::int32_t peeled = 0;
            for (eid_t e = off[v], end = off[v + 1]; e < end; ++e)
              peeled += static_cast<std::int32_t>(engine::test_bit(bits, nbr[e]));
            if (peeled == 0) continue;
            live[v] -= peeled;
            if (live[v] <= k) {
              core[v] = k;
              next.push_back(v);
              next_sum += degree(v);
            }
          }
#pragma omp for schedule(static) nowait
          for (std::int64_t i = 0; i < fsize; ++i) {
            const V u = frontier[static_cast<std::size_t>(i)];
            __atomic_store_n(&bits[u >> 6], std::uint64_t{0}, __ATOMIC_RELAXED);
          }
          found_edges[tid].value = next_sum;
        }
      } else {
        // A few dozen peeled hubs are already worth the threads.
        const bool wide_round = frontier.size() >= 64;
        const V* const peeled = frontier.data();
        const auto fsize = static_cast<std::int64_t>(frontier.size());
#pragma omp parallel if (wide_round)
        {
          const auto tid = static_cast<std::size_t>(parallel::thread_id());
          auto& next = found[tid];
          eid_t next_sum = 0;
#pragma omp for schedule(dynamic, 16) nowait
          for (std::int64_t i = 0; i < fsize; ++i) {
            const V w = peeled[i];
            for (eid_t e = off[w], end = off[w + 1]; e < end; ++e) {
              const V u = nbr[e];
              if (__atomic_load_n(&live[u], __ATOMIC_RELAXED) <= k) continue;  // peeled, or peeled at this level
              if (__atomic_fetch_sub(&live[u], 1, __ATOMIC_RELAXED) == k + 1) {
                core[u] = k;
                next.push_back(u);
                next_sum += degree(u);
              }
            }
          }
          found_edges[tid].value = next_sum;
        }
      }
      kcore_detail::gather(found, frontier);
      frontier_edges = sum_of(found_edges);
      remaining_edges -= frontier_edges;
    }
    ++k;
  }
  return r;
}

}  // namespace numagraph::kernels
