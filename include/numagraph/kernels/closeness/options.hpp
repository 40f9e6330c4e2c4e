// Closeness and harmonic centrality: parameters, result and the finishing
// formulas shared by every variant.
//
// Both measures use INCOMING distances, as NetworkX does (it reverses a
// directed graph): for a vertex v, d(u, v) for every u that reaches v. With
// r(v) the number of other vertices reaching v and S(v) the sum of their
// distances (NetworkX's closeness_centrality and harmonic_centrality):
//   closeness(v) = (r / S) * (r / (n - 1))   (wf_improved, the default)
//                = r / S                      (wf_improved = false)
//                = 0 when S = 0 or n = 1,
//   harmonic(v)  = sum over u with 0 < d(u, v) < inf of 1 / d(u, v).
// The kernels run searches FORWARD from sources s and credit d(s, v) to v.
// Exact: every vertex is a source. Sampled (Eppstein and Wang 2004): k
// sources drawn uniformly without replacement; v's sums over the k_v sampled
// sources other than v are scaled by (n - 1) / k_v (unbiased for r, S and the
// harmonic sum; closeness is their ratio). Explicit sources (NetworkX's
// harmonic_centrality(sources=...)): sums over those sources, unscaled.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

struct ClosenessOptions {
  bool wf_improved = true;       // scale closeness by the reached share (Wasserman and Faust)
  std::int64_t samples = 0;      // > 0: estimate from this many sampled sources; 0: exact
  std::uint64_t seed = 0;        // the sample's seed
  bool use_weights = true;       // weighted graphs: Dijkstra on the weights; false: count hops
  std::vector<std::uint64_t> sources;  // explicit sources (caller ids), no scaling; empty: all or sampled
};

// Per-vertex sums over the sources, as the variants leave them (kernel ids).
struct ClosenessSums {
  NumaArray<std::int64_t> reached;  // sources other than v that reach v
  NumaArray<double> distance;       // sum of their distances to v
  NumaArray<double> inverse;        // sum of 1 / distance over those at distance > 0
  int batches = 0;                  // batched BFS: source batches; Dijkstra: rounds of searches
};

template <typename V>
struct ClosenessResult {
  NumaArray<double> closeness;  // per vertex, in the caller's ids
  NumaArray<double> harmonic;
  std::vector<V> sources;       // sampled or explicit sources (caller ids); empty when exact
  bool sampled = false;         // scores are the (n - 1) / k_v-scaled estimates
  bool weighted = false;        // distances summed edge weights (Dijkstra), else hops
  int batches = 0;
  CallInfo ran;
};

// A directed graph's incoming distances need its in-edges (the batched BFS
// pulls over them; the verifier searches them backwards).
template <typename V>
void require_closeness_input(const CSRGraph<V>& g, const ClosenessOptions& o) {
  if (!g.has_in_edges())
    throw UsageError("closeness on a directed graph follows in-edges: build the graph with BuildOptions::in_edges = true");
  if (o.samples < 0) throw UsageError("--samples must be positive (got " + std::to_string(o.samples) + ")");
  if (o.samples > 0 && !o.sources.empty()) throw UsageError("give --samples or explicit sources, not both");
}

// `k` distinct caller ids drawn uniformly from [0, n) (Floyd's algorithm on
// a 64-bit Mersenne twister: the same sample for a seed on every platform),
// sorted. k >= n gives every vertex.
template <typename V>
std::vector<V> sample_sources(std::int64_t n, std::int64_t k, std::uint64_t seed) {
  std::vector<V> out;
  if (k >= n) {
    for (std::int64_t v = 0; v < n; ++v) out.push_back(static_cast<V>(v));
    return out;
  }
  std::mt19937_64 rng(seed);
  std::unordered_set<std::int64_t> taken;
  for (std::int64_t j = n - k; j < n; ++j) {
    const auto t = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(j + 1));
    taken.insert(taken.count(t) ? j : t);
  }
  for (const std::int64_t v : taken) out.push_back(static_cast<V>(v));
  std::sort(out.begin(), out.end());
  return out;
}

// Explicit sources (caller ids), checked and deduplicated (NetworkX takes a set).
template <typename V>
std::vector<V> explicit_sources(std::int64_t n, const std::vector<std::uint64_t>& ids) {
  std::vector<V> out;
  for (const std::uint64_t s : ids) {
    if (s >= static_cast<std::uint64_t>(n))
      throw UsageError("source " + std::to_string(s) + " is not a vertex (the graph has " + std::to_string(n) +
                       " vertices)");
    out.push_back(static_cast<V>(s));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Closeness from the sums: r / S, times r / (n - 1) with wf_improved, written
// as NetworkX's arithmetic so that exact scores agree to the last bit.
inline double closeness_of(double reached, double distance, std::int64_t n, bool wf_improved) {
  if (!(distance > 0) || n <= 1) return 0.0;
  double c = reached / distance;
  if (wf_improved) c *= reached / static_cast<double>(n - 1);
  return c;
}

// Scores from the sums, per kernel vertex. `is_source` marks kernel ids of a
// sample (empty when exact or explicit): a sampled vertex v has k - 1 other
// sources, the others k.
template <typename V>
void finish_scores(const ClosenessSums& s, std::int64_t n, const ClosenessOptions& o, bool sampled,
                   std::int64_t k, const std::vector<char>& is_source, ClosenessResult<V>& r) {
  r.closeness = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n));
  r.harmonic = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
    const double reached = static_cast<double>(s.reached[v]);
    if (!sampled) {
      r.closeness[v] = closeness_of(reached, s.distance[v], n, o.wf_improved);
      r.harmonic[v] = s.inverse[v];
      return;
    }
    const std::int64_t others = k - (is_source[v] ? 1 : 0);
    if (others == 0) {
      r.closeness[v] = r.harmonic[v] = 0;
      return;
    }
    // r_est = r (n-1)/k_v and S_est = S (n-1)/k_v: their ratio is r / S, and
    // the wf factor r_est / (n - 1) is r / k_v.
    const double scale = static_cast<double>(n - 1) / static_cast<double>(others);
    r.closeness[v] = closeness_of(reached * scale, s.distance[v] * scale, n, o.wf_improved);
    r.harmonic[v] = s.inverse[v] * scale;
  });
}

}  // namespace numagraph::kernels
