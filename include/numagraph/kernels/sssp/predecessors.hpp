// Shortest-path predecessors from finished distances: for every reached
// vertex v other than the source, one in-neighbour u whose arc is tight,
// dist[u] + len(u, v) == dist[v]. A post-pass, so the search itself pays
// nothing when no one asks for paths.
//
// The choice is deterministic, so every engine, topology, thread count and
// vertex order gives the same array: v takes the smallest caller id u among
// its tight in-neighbours with dist[u] < dist[v] (one parallel pass over the
// in-arcs, stopping at the first tight one when ids are in the caller's
// order; or over the out-arcs with an atomic min when there are no in-arcs). Distances are compared exactly, as the
// searches computed them: dist[v] is the double sum dist[u] + w of the arc
// that set it (buckets.hpp relax_run), and whole-number searches are exact.
//
// Tight arcs between equal distances (zero weights, or a weight lost to
// rounding) cannot be taken greedily: two vertices could pick each other.
// Vertices left without a predecessor by the first pass are settled in
// rounds from the settled ones: in round k, each takes the smallest tight
// in-neighbour settled before round k, so every predecessor was settled
// earlier and following them never cycles. O(n + m) in all.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// A distance that was reached: finite doubles, non-negative hop counts.
template <typename D>
bool reached_distance(D d) {
  if constexpr (std::is_floating_point_v<D>) return d < std::numeric_limits<D>::infinity();
  else return d >= 0;
}

// The predecessor of every vertex, in the caller's ids and order: -1 when v
// is unreached, the source its own. `g` may be renumbered (its permutation
// maps its vertices to the caller's); `dist` is in the caller's order (as
// every entry point returns it), `source` a caller id; `len(wt, j)` is the
// length of arc j of an arc array whose weights are `wt` (null when
// unweighted), of the distances' type (1 for hop counts).
//
// With in-edges (every undirected graph) each vertex scans its in-neighbours
// without atomics; in the caller's order they are sorted, so the first tight
// one is the smallest and the scan stops there. Without them, each vertex
// pushes along its out-arcs with an atomic min.
template <typename V, typename D, typename Length>
NumaArray<std::int64_t> tight_predecessors(const CSRGraph<V>& g, V source, const D* dist, Length&& len) {
  const std::int64_t n = g.num_vertices();
  const auto& ids = g.permutation();
  const eid_t* const off = g.out().offsets.data();
  const V* const nbr = g.out().neighbors.data();
  const weight_t* const wt = g.out().weights.empty() ? nullptr : g.out().weights.data();
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  auto pred = NumaArray<std::int64_t>::for_overwrite(static_cast<std::size_t>(n));
  if (g.has_in_edges()) {
    const auto& in = g.in_arrays();
    const eid_t* const ioff = in.offsets.data();
    const V* const inbr = in.neighbors.data();
    const weight_t* const iwt = in.weights.empty() ? nullptr : in.weights.data();
    const bool sorted = ids.identity();  // in-neighbours in increasing caller id
    parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t k) {
      const auto cv = static_cast<std::int64_t>(ids.to_old(static_cast<V>(k)));
      const D dv = dist[cv];
      if (!reached_distance(dv) || cv == static_cast<std::int64_t>(source)) {
        pred[cv] = reached_distance(dv) ? cv : -1;
        return;
      }
      std::int64_t best = kNone;
      for (eid_t j = ioff[k]; j < ioff[k + 1]; ++j) {
        const auto cu = static_cast<std::int64_t>(ids.to_old(inbr[j]));
        const D du = dist[cu];
        if (cu < best && reached_distance(du) && du < dv && static_cast<D>(du + len(iwt, j)) == dv) {
          best = cu;
          if (sorted) break;
        }
      }
      pred[cv] = best;
    }, std::int64_t{256});
  } else {
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t c) { pred[c] = reached_distance(dist[c]) ? kNone : -1; });
    pred[source] = static_cast<std::int64_t>(source);
    parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t k) {
      const auto cu = static_cast<std::int64_t>(ids.to_old(static_cast<V>(k)));
      const D du = dist[cu];
      if (!reached_distance(du)) return;
      for (eid_t j = off[k]; j < off[k + 1]; ++j) {
        const auto cv = static_cast<std::int64_t>(ids.to_old(nbr[j]));
        const D dv = dist[cv];
        if (du < dv && static_cast<D>(du + len(wt, j)) == dv) parallel::write_min(pred[cv], cu);
      }
    }, std::int64_t{256});
  }
  const auto unsettled = parallel::sum<std::int64_t>(std::int64_t{0}, n, [&](std::int64_t c) { return pred[c] == kNone; });
  if (unsettled == 0) return pred;

  // Rounds over the equal-distance tight arcs, from every vertex settled so
  // far (serial: only zero weights or rounding lead here).
  std::vector<std::int64_t> frontier;  // kernel ids settled in the last round
  for (std::int64_t k = 0; k < n; ++k)
    if (const std::int64_t p = pred[ids.to_old(static_cast<V>(k))]; p >= 0 && p != kNone) frontier.push_back(k);
  std::vector<std::int64_t> candidate(static_cast<std::size_t>(n), kNone), next;
  while (!frontier.empty()) {
    next.clear();
    for (const std::int64_t k : frontier) {
      const auto cu = static_cast<std::int64_t>(ids.to_old(static_cast<V>(k)));
      for (eid_t j = off[k]; j < off[k + 1]; ++j) {
        const V kv = nbr[j];
        const auto cv = static_cast<std::int64_t>(ids.to_old(kv));
        if (pred[cv] != kNone || static_cast<D>(dist[cu] + len(wt, j)) != dist[cv]) continue;
        if (candidate[cv] == kNone) next.push_back(static_cast<std::int64_t>(kv));
        candidate[cv] = std::min(candidate[cv], cu);
      }
    }
    for (const std::int64_t k : next) {
      const auto cv = static_cast<std::int64_t>(ids.to_old(static_cast<V>(k)));
      pred[cv] = candidate[cv];
    }
    frontier.swap(next);
  }
  for (std::int64_t c = 0; c < n; ++c)
    if (pred[c] == kNone)
      throw Error("internal error: vertex " + std::to_string(g.label(ids.to_new(static_cast<V>(c)))) +
                  " has a distance but no tight arc leads to it from the source; please report this graph");
  return pred;
}

// tight_predecessors of hop counts (BFS depths, -1 unreached).
template <typename V>
NumaArray<std::int64_t> hop_predecessors(const CSRGraph<V>& g, V source, const std::int32_t* depth) {
  return tight_predecessors(g, source, depth, [](const weight_t*, eid_t) { return std::int32_t{1}; });
}

// tight_predecessors of an SSSP result: arc lengths are the weights, or 1.
template <typename V>
NumaArray<std::int64_t> sssp_predecessors(const CSRGraph<V>& g, V source, const double* dist) {
  return tight_predecessors(g, source, dist,
                            [](const weight_t* wt, eid_t j) { return wt ? static_cast<double>(wt[j]) : 1.0; });
}

// The vertices of the path from the source to `target` (caller ids, source
// first) along `pred` (tight_predecessors); empty when `target` is unreached.
inline std::vector<std::int64_t> path_to(const std::int64_t* pred, std::int64_t target) {
  std::vector<std::int64_t> path;
  if (pred[target] < 0) return path;
  for (std::int64_t v = target;; v = pred[v]) {
    path.push_back(v);
    if (pred[v] == v) break;
  }
  return {path.rbegin(), path.rend()};
}

}  // namespace numagraph::kernels
