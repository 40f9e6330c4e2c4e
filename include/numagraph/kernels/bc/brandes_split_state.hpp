// The push-only Brandes search (brandes.hpp) with depths, path counts and
// c in three arrays, for dense, skewed graphs (d >= 8: kron20, urand22),
// where betweenness_brandes hands over: their levels are big and most
// neighbours already reached, so the depth test dominates, and 4-byte depths
// (16 per line) miss the cache less than brandes.hpp's 16-byte states
// (kron20, two sources: 1.3x the time with the states). Levels are taken in
// dynamic chunks of 64 (kernels/static_split.hpp); forward, each frontier
// vertex sums its own count over its in-edges (its neighbours, undirected)
// one level up, or pushes it with atomic adds on a directed graph without
// in-edges; backward as brandes.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bc/successor_sum.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

template <typename V>
struct BrandesWorkspace;

// Raw Brandes sums over `sources` into `scores` (reusing its pages when the
// size fits) with scratch from `ws`: depths, counts and c in arrays of
// their own, reset after each search.
template <typename V>
void betweenness_brandes_split_state(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                         BrandesWorkspace<V>& ws) {
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  ws.prepare(n, 0);
  double* sigma = ws.sigma.data();
  double* c = ws.delta.data();
  std::int32_t* depth = ws.depth.data();
  V* order = ws.order.data();
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  const eid_t* in_off = g.in_arrays().offsets.data();
  const V* in_nbr = g.in_arrays().neighbors.data();
  // Counts summed by their owner from the in-edges; pushed (atomic adds)
  // when a directed graph has none.
  const bool undirected = !g.directed();
  const bool pull_counts = undirected || g.has_in_edges();
  // Static levels on sparse graphs: each thread keeps the vertices it found
  // (the level order is the threads' discoveries side by side), whose data
  // its cache still holds; dense, skewed graphs need the dynamic schedule's
  // balance (docs/kernels/bc.md).
  const bool static_levels = splits_statically(g);
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
      std::vector<V> local;
      auto claim = [&](V v, std::int32_t next) {
        if (__atomic_load_n(&depth[v], __ATOMIC_RELAXED) < 0 &&
            parallel::compare_and_swap(depth[v], std::int32_t{-1}, next))
          local.push_back(v);
      };
      // Frontier vertex u of level d: claims its unvisited out-neighbours,
      // then sums its own path count (or pushes it, without in-edges).
      auto expand = [&](const V u, const std::int32_t d) __attribute__((always_inline)) {
        if (undirected) {
          // One pass: unvisited neighbours are claimed, those one level up
          // are predecessors.
          double count = 0;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            const std::int32_t dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
            if (dv < 0) {
              if (parallel::compare_and_swap(depth[v], std::int32_t{-1}, d + 1)) local.push_back(v);
            } else if (dv == d - 1) {
              count += sigma[v];
            }
          }
          if (d > 0) sigma[u] = count;
        } else if (pull_counts) {
          if (d > 0) {
            double count = 0;
            for (eid_t e = in_off[u]; e < in_off[u + 1]; ++e)  // depths of level d + 1 are being claimed
              if (__atomic_load_n(&depth[in_nbr[e]], __ATOMIC_RELAXED) == d - 1) count += sigma[in_nbr[e]];
            sigma[u] = count;
          }
          for (eid_t e = off[u]; e < off[u + 1]; ++e) claim(nbr[e], d + 1);
        } else {
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            claim(v, d + 1);
            if (__atomic_load_n(&depth[v], __ATOMIC_RELAXED) == d + 1) parallel::fetch_add(sigma[v], sigma[u]);
          }
        }
      };
      // Vertex w of a level whose successors lie on level `below`.
      auto settle = [&](const V w, const std::int32_t below) __attribute__((always_inline)) {
        const double sum = bc_detail::successor_sum(off, nbr, depth, c, w, below);
        c[w] = 1 / sigma[w] + sum;
        if (w != s) scores[w] += sigma[w] * sum;
      };
      std::int64_t lo = 0, hi = 1;
      for (std::int32_t d = 0; lo < hi; ++d) {
        Found& cur = found[d % 3];
        if (leader) found[(d + 1) % 3].count.store(0, std::memory_order_relaxed);
        if (static_levels) {
#pragma omp for schedule(static) nowait
          for (std::int64_t i = lo; i < hi; ++i) expand(order[i], d);
        } else {
#pragma omp for schedule(dynamic, 64) nowait
          for (std::int64_t i = lo; i < hi; ++i) expand(order[i], d);
        }
        const std::int64_t at = hi + cur.count.fetch_add(static_cast<std::int64_t>(local.size()));
        std::copy(local.begin(), local.end(), order + at);
        local.clear();
#pragma omp barrier
        lo = hi;
        hi += cur.count.load(std::memory_order_relaxed);
        if (leader) level_start.push_back(hi);
      }
#pragma omp barrier  // the leader's last push to level_start is visible
      // Backward: levels deepest first; the deepest level has no successors.
      if (leader) phase.emplace("backward");
      for (std::size_t l = level_start.size() - 2; l-- > 0;) {
        const std::int64_t first = level_start[l], last = level_start[l + 1];
        const auto below = static_cast<std::int32_t>(l + 1);
        if (static_levels) {
#pragma omp for schedule(static)
          for (std::int64_t i = first; i < last; ++i) settle(order[i], below);
        } else {
#pragma omp for schedule(dynamic, 64)
          for (std::int64_t i = first; i < last; ++i) settle(order[i], below);
        }
      }
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < hi; ++i) {
        const V v = order[i];
        depth[v] = -1;
        sigma[v] = 0;
        c[v] = 0;
      }
    }
    ws.clean = true;
  }
}

}  // namespace numagraph::kernels
