// Closeness sums of an unweighted graph by bit-parallel multi-source BFS
// (the idea of MS-BFS, Then et al., VLDB 2015): a batch of 64 W sources
// searches at once, each vertex holding W 64-bit words, bit i standing for
// the batch's source i. One sweep per level advances every source's
// frontier: `seen[v]` (sources that reached v), `frontier[v]` (those that
// reached it at the last level), `next[v]` (those reaching it now).
//   pull (dense levels): next[v] = OR of frontier[u] over in-neighbours u,
//     minus seen[v]; stops scanning once every missing source is found;
//     only sources still searching (a non-empty frontier: `active`) can be
//     missing, so a vertex that all of them have reached is skipped, and a
//     source alone in its component (or done) stops costing at once;
//   push (sparse levels): every frontier vertex ORs its word into its
//     out-neighbours' next words (atomically), then a pass keeps the new bits.
// A bit new at v on level L is d(s, v) = L for its source s: v adds the
// count of new bits to reached[v], L times it to distance[v] and count / L to
// inverse[v]. Only v's owner writes v's sums, and batches and levels run in
// order, so the sums are the same for any thread count. Work: per batch,
// O(m W) per pulled level and O(out-edges of the frontier W) per pushed one.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/closeness/options.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

namespace closeness_detail {

// Push a level when its frontier's out-edges are below this share of m:
// each pushed edge costs an atomic OR, a pulled one a plain load.
inline constexpr eid_t kPushShare = 16;

template <int W>
struct Lanes {
  std::uint64_t w[W];
  bool any() const {
    std::uint64_t x = 0;
    for (int i = 0; i < W; ++i) x |= w[i];
    return x != 0;
  }
  // ORs `local` (one thread's) into this shared value.
  void merge(const Lanes& local) {
    for (int i = 0; i < W; ++i)
      if (local.w[i]) std::atomic_ref<std::uint64_t>(w[i]).fetch_or(local.w[i], std::memory_order_relaxed);
  }
};

}  // namespace closeness_detail

// Adds to `sums` (kernel ids, zeroed by the caller) the contributions of
// `sources` (kernel ids, distinct), 64 W per batch.
template <int W, typename V>
void closeness_sums_bit_parallel(const CSRGraph<V>& g, const std::vector<V>& sources, ClosenessSums& sums) {
  using closeness_detail::Lanes;
  const std::int64_t n = g.num_vertices();
  const eid_t* const in_off = g.in_arrays().offsets.data();
  const V* const in_adj = g.in_arrays().neighbors.data();
  const eid_t* const out_off = g.out().offsets.data();
  const V* const out_adj = g.out().neighbors.data();
  const eid_t m = g.num_arcs();
  auto seen = NumaArray<Lanes<W>>::for_overwrite(static_cast<std::size_t>(n));
  auto frontier = NumaArray<Lanes<W>>::for_overwrite(static_cast<std::size_t>(n));
  auto next = NumaArray<Lanes<W>>::for_overwrite(static_cast<std::size_t>(n));
  std::int64_t* const reached = sums.reached.data();
  double* const distance = sums.distance.data();
  double* const inverse = sums.inverse.data();
  constexpr std::size_t kBatch = 64 * W;

  for (std::size_t first = 0; first < sources.size(); first += kBatch) {
    const std::size_t count = std::min(kBatch, sources.size() - first);
    Lanes<W> full{};
    for (std::size_t i = 0; i < count; ++i) full.w[i / 64] |= std::uint64_t{1} << (i % 64);
    Lanes<W>* const s = seen.data();
    Lanes<W>* f = frontier.data();
    Lanes<W>* nx = next.data();
#pragma omp parallel for schedule(static)
    for (std::int64_t v = 0; v < n; ++v) s[v] = f[v] = nx[v] = Lanes<W>{};
    eid_t frontier_edges = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const V src = sources[first + i];
      s[src].w[i / 64] |= std::uint64_t{1} << (i % 64);
      f[src].w[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    for (std::size_t i = 0; i < count; ++i) frontier_edges += out_off[sources[first + i] + 1] - out_off[sources[first + i]];
    Lanes<W> active = full;    // sources whose frontier is not empty
    bool next_is_zero = true;  // `nx` holds no bits (a push ORs into it)
    for (std::int64_t level = 1;; ++level) {
      const double l = static_cast<double>(level);
      std::int64_t grown = 0;
      eid_t out_edges = 0;
      Lanes<W> now_active{};  // sources that reach a vertex on this level
      if (frontier_edges * closeness_detail::kPushShare < m) {
        if (!next_is_zero) {
#pragma omp parallel for schedule(static)
          for (std::int64_t v = 0; v < n; ++v) nx[v] = Lanes<W>{};
        }
#pragma omp parallel for schedule(dynamic, 256)
        for (std::int64_t u = 0; u < n; ++u) {
          const Lanes<W> fu = f[u];
          if (!fu.any()) continue;
          for (eid_t j = out_off[u]; j < out_off[u + 1]; ++j) {
            const V v = out_adj[j];
            for (int i = 0; i < W; ++i) {
              const std::uint64_t bits =
                  fu.w[i] & ~std::atomic_ref<std::uint64_t>(s[v].w[i]).load(std::memory_order_relaxed);
              if (bits) std::atomic_ref<std::uint64_t>(nx[v].w[i]).fetch_or(bits, std::memory_order_relaxed);
            }
          }
        }
        // Keep the new bits; the old frontier is spent and becomes the zeroed next.
#pragma omp parallel reduction(+ : grown, out_edges)
        {
          Lanes<W> mine{};
#pragma omp for schedule(static)
          for (std::int64_t v = 0; v < n; ++v) {
            f[v] = Lanes<W>{};
            Lanes<W> fresh;
            int c = 0;
            for (int i = 0; i < W; ++i) {
              fresh.w[i] = nx[v].w[i] & ~s[v].w[i];
              s[v].w[i] |= fresh.w[i];
              mine.w[i] |= fresh.w[i];
              c += std::popcount(fresh.w[i]);
            }
            nx[v] = fresh;
            if (c) {
              reached[v] += c;
              distance[v] += c * l;
              inverse[v] += c / l;
              grown += c;
              out_edges += out_off[v + 1] - out_off[v];
            }
          }
          now_active.merge(mine);
        }
        next_is_zero = true;  // f, about to become next, was zeroed above
      } else {
#pragma omp parallel reduction(+ : grown, out_edges)
        {
          Lanes<W> mine{};
#pragma omp for schedule(dynamic, 256)
          for (std::int64_t v = 0; v < n; ++v) {
            Lanes<W> sv = s[v];
            Lanes<W> missing;
            bool any_missing = false;
            for (int i = 0; i < W; ++i) {
              missing.w[i] = active.w[i] & ~sv.w[i];
              any_missing |= missing.w[i] != 0;
            }
            Lanes<W> fresh{};
            if (any_missing) {
              for (eid_t j = in_off[v]; j < in_off[v + 1]; ++j) {
                const Lanes<W>& fu = f[in_adj[j]];
                std::uint64_t left = 0;
                for (int i = 0; i < W; ++i) {
                  fresh.w[i] |= fu.w[i] & missing.w[i];
                  left |= missing.w[i] & ~fresh.w[i];
                }
                if (!left) break;  // every missing source found v on this level
              }
            }
            int c = 0;
            for (int i = 0; i < W; ++i) {
              sv.w[i] |= fresh.w[i];
              mine.w[i] |= fresh.w[i];
              c += std::popcount(fresh.w[i]);
            }
            nx[v] = fresh;
            if (c) {
              s[v] = sv;
              reached[v] += c;
              distance[v] += c * l;
              inverse[v] += c / l;
              grown += c;
              out_edges += out_off[v + 1] - out_off[v];
            }
          }
          now_active.merge(mine);
        }
        next_is_zero = false;  // f, about to become next, still holds this level's frontier
      }
      std::swap(f, nx);
      frontier_edges = out_edges;
      active = now_active;
      if (grown == 0) break;
    }
    ++sums.batches;
  }
}

// 64 sources per batch when there are few, else 256 (wider words share each
// sweep of the edges among more sources).
template <typename V>
void closeness_sums_bfs(const CSRGraph<V>& g, const std::vector<V>& sources, ClosenessSums& sums) {
  if (sources.size() <= 64)
    closeness_sums_bit_parallel<1>(g, sources, sums);
  else
    closeness_sums_bit_parallel<4>(g, sources, sums);
}

}  // namespace numagraph::kernels
