// Single-source shortest paths by delta-stepping (Meyer and Sanders, 2003),
// the flat kernel. Vertices wait in buckets of width delta; a round relaxes
// the edges of the current bucket's frontier in parallel (atomic min on the
// distance), and improved vertices go to thread-local bins by bucket. When
// the current bucket stops refilling, all threads move to the smallest
// non-empty bucket. Distances are doubles: exact for integer weights.
// Negative weights are refused; unweighted graphs use weight 1.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

inline constexpr double kUnreachable = std::numeric_limits<double>::infinity();

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

template <typename V>
NumaArray<double> sssp_delta_stepping(const CSRGraph<V>& g, V source, double delta) {
  if (!(delta > 0)) throw UsageError("--delta must be positive (got " + std::to_string(delta) + ")");
  const std::int64_t n = g.num_vertices();
  NumaArray<double> dist(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { dist[v] = kUnreachable; });
  dist[source] = 0;
  const bool weighted = g.weighted();
  std::vector<V> frontier{source};
  std::int64_t fsize = 1;
  std::size_t bucket = 0;
  const int threads = parallel::max_threads();
  const std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> next_bucket(static_cast<std::size_t>(threads), kNone);
  std::vector<std::int64_t> share(static_cast<std::size_t>(threads) + 1);
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::vector<V>> bins;
    const int t = parallel::thread_id();
    while (true) {
#pragma omp for schedule(dynamic, 64) nowait
      for (std::int64_t i = 0; i < fsize; ++i) {
        const V u = frontier[i];
        const double du = dist[u];
        if (du < delta * static_cast<double>(bucket)) continue;  // settled in an earlier bucket
        auto nb = g.out_neighbors(u);
        const weight_t* w = weighted ? g.out_weights(u).data() : nullptr;
        for (std::size_t j = 0; j < nb.size(); ++j) {
          const double nd = du + (weighted ? static_cast<double>(w[j]) : 1.0);
          if (nd < dist[nb[j]] && parallel::write_min(dist[nb[j]], nd)) {
            const std::size_t b = static_cast<std::size_t>(nd / delta);
            if (b >= bins.size()) bins.resize(b + 1);
            bins[b].push_back(nb[j]);
          }
        }
      }
      // Smallest non-empty bin of this thread (the current bucket may have refilled).
      std::size_t mine = kNone;
      for (std::size_t b = bucket; b < bins.size(); ++b)
        if (!bins[b].empty()) {
          mine = b;
          break;
        }
      next_bucket[static_cast<std::size_t>(t)] = mine;
#pragma omp barrier
#pragma omp single
      {
        std::size_t best = kNone;
        for (std::size_t b : next_bucket) best = std::min(best, b);
        bucket = best;
      }
      if (bucket == kNone) break;
      // Gather every thread's entries for the new bucket into the frontier.
      share[static_cast<std::size_t>(t) + 1] =
          bucket < bins.size() ? static_cast<std::int64_t>(bins[bucket].size()) : 0;
#pragma omp barrier
#pragma omp single
      {
        share[0] = 0;
        for (int k = 0; k < parallel::num_threads_in_region(); ++k) share[k + 1] += share[k];
        fsize = share[static_cast<std::size_t>(parallel::num_threads_in_region())];
        frontier.resize(static_cast<std::size_t>(fsize));
      }
      if (bucket < bins.size() && !bins[bucket].empty()) {
        std::copy(bins[bucket].begin(), bins[bucket].end(), frontier.begin() + share[static_cast<std::size_t>(t)]);
        bins[bucket].clear();
      }
#pragma omp barrier
    }
  }
  return dist;
}

}  // namespace numagraph::kernels
