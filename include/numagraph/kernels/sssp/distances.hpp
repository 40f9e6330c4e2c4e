// Distances of the delta-stepping kernels: doubles in every result, and
// 32-bit integers inside a search where those are exact.
//
// Both SSSP kernels keep distances as doubles in their results, but search on
// 32-bit integers when every weight is a whole number and no path can reach
// 2^32 - 1 (every generated graph, the DIMACS road graphs, the SNAP graphs
// with unit weights): the distance array, the most randomly read one, takes
// half the bytes, and the engine's queue entries shrink from 16 to 8 bytes
// (measured in docs/kernels/sssp.md). The answer is the same either way:
// double sums of whole numbers below 2^53 are exact.
#pragma once

#include <algorithm>
#include <any>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

// The distance of an unreachable vertex in a result.
inline constexpr double kUnreachable = std::numeric_limits<double>::infinity();

// The unreached distance of a 32-bit search.
inline constexpr std::uint32_t kNarrowInfinity = std::numeric_limits<std::uint32_t>::max();

// True when every weight is a whole number and no simple path is as long as
// kNarrowInfinity, so shortest distances fit 32 bits exactly. Every distance
// a search stores is the length of a simple path (a walk back to a vertex is
// never shorter than what the vertex already holds, weights being >= 0), and
// a simple path leaves each vertex at most once: it is no longer than the sum
// over vertices of their heaviest out-edge. One pass over the weights.
template <typename V>
bool narrow_distances_fit(const CSRGraph<V>& g) {
  if (!g.weighted()) return g.num_vertices() < static_cast<std::int64_t>(kNarrowInfinity);
  const eid_t* const off = g.out().offsets.data();
  const weight_t* const wt = g.out().weights.data();
  constexpr double kNever = std::numeric_limits<double>::infinity();
  const double bound = parallel::sum<double>(std::int64_t{0}, g.num_vertices(), [&](std::int64_t u) {
    double heaviest = 0;
    for (eid_t j = off[u]; j < off[u + 1]; ++j) {
      const double w = static_cast<double>(wt[j]);
      heaviest = std::max(heaviest, w == std::trunc(w) ? w : kNever);  // a fraction (or NaN) rules it out
    }
    return heaviest;
  });
  return bound < static_cast<double>(kNarrowInfinity);
}

// What repeated searches on one graph can keep between calls (the CLI's
// trials and roots): the narrow test's answer, the 32-bit distance array,
// whose pages would otherwise be faulted in again every time, and the flat
// kernel's bins (its scratch of type S, which keeps the bins' capacity: at
// most the entries one search queued). Use one workspace per graph.
struct SsspWorkspace {
  bool checked_weights = false;  // refuse_negative_weights has passed on this graph
  std::optional<DeltaInputs> delta_rule;  // the weights' figures for the automatic delta
  std::optional<bool> narrow;
  NumaArray<std::uint32_t> narrow_dist;
  std::any search_scratch;

  template <typename V>
  bool use_narrow(const CSRGraph<V>& g) {
    if (!narrow) narrow = narrow_distances_fit(g);
    return *narrow;
  }

  // choose_delta(g, threads), its pass over the weights done once per graph:
  // on 16 threads it took 0.16 ms, 4 % of a road-NY search.
  template <typename V>
  double auto_delta(const CSRGraph<V>& g, int threads) {
    if (!delta_rule) delta_rule = delta_inputs(g);
    return delta_rule->delta(threads);
  }

  template <typename S>
  S& scratch() {
    if (auto* s = std::any_cast<S>(&search_scratch)) return *s;
    return search_scratch.emplace<S>();
  }
};

}  // namespace numagraph::kernels
