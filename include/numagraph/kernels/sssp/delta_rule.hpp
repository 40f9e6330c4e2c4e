// choose_delta: a bucket width for delta-stepping (kernels/sssp/delta_stepping.hpp)
// from the graph's weights and average degree.
//
//   delta = max(lightest positive weight, kScale * mean weight / d^kPower),
//   d = max(1, arcs / vertices)
//
// Low-degree graphs (roads, meshes) have long shortest paths of many hops:
// a wide bucket gives each round enough vertices to share out and few rounds
// (each ends at a barrier). High-degree graphs (Kronecker, uniform) reach
// every vertex in a few hops, along their lightest edges: a narrow bucket
// relaxes few vertices before their distance is final, and a bucket of a few
// light edges already holds more vertices than the threads need. Measured
// best deltas (2 threads) over the mean weight fall as a power of the degree:
// USA-road-d.NY (d 2.8) 6.2, a weighted 1024 x 1024 grid (d 4) 2-4, Kronecker
// scale 20 (d 30) 0.008-0.03, uniform scale 22 (d 32) 0.008-0.016; the fit
// through them is 87 / d^2.6 (docs/kernels/sssp.md has the sweeps). A bucket
// narrower than the lightest edge gains nothing (no edge lands in the bucket
// it leaves), hence the floor.
// Graphs whose arcs all weigh the same w (unweighted graphs are searched
// with w = 1) get kEqualWeightLevels * w, a bucket of 32 levels: it came
// within 3 % of the best width on road, grid, mesh, social and synthetic
// graphs, where a bucket of one level (w, which the fit gives from degree
// 5.6 on) took up to 2.2x as long and a single bucket up to 1.4x
// (docs/kernels/sssp.md, "Equal weights").
// The fit was measured on 2 threads. Where it gives a bucket wider than a
// mean edge (average degree below 5.6: roads, grids), each round is a small
// amount of work ending at a barrier, and more threads want wider buckets:
// the width grows as (threads / 2)^(1/6). Since such graphs split their
// rounds statically, the best widths of USA-road-d.NY and the weighted grid
// on 16 threads were 1.2-1.4 times the 2-thread ones; Kronecker graphs,
// whose buckets hold a fraction of an edge, were 1.1-1.3x slower at twice
// their width and keep it (docs/kernels/sssp.md, "Threads").
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

inline constexpr double kDeltaRuleScale = 87;
inline constexpr double kDeltaRulePower = 2.6;
inline constexpr double kEqualWeightLevels = 32;
inline constexpr int kDeltaRuleThreads = 2;  // the sweeps' thread count
inline constexpr double kDeltaThreadPower = 1.0 / 6;

// The rule on summary figures, for callers that already have them, for a
// search on `threads` threads.
inline double delta_from_summary(double mean_weight, double lightest_positive_weight, double average_degree,
                                 int threads = kDeltaRuleThreads) {
  const double d = std::max(1.0, average_degree);
  const double mean_edges = kDeltaRuleScale / std::pow(d, kDeltaRulePower);  // the width in mean weights
  double width = mean_edges * mean_weight;
  if (mean_edges > 1 && threads > kDeltaRuleThreads)
    width *= std::pow(static_cast<double>(threads) / kDeltaRuleThreads, kDeltaThreadPower);
  const double floor = lightest_positive_weight > 0 ? lightest_positive_weight : 1;
  return std::max(floor, width);
}

// What the rule reads from a graph's weights, found in one parallel pass
// (delta_inputs): the rest of the rule is arithmetic on the thread count.
struct DeltaInputs {
  double fixed = 0;  // > 0: the delta whatever the threads (equal weights, no arcs, all weights 0)
  double mean_weight = 0, lightest_positive_weight = 0, average_degree = 0;

  // kEqualWeightLevels * w when every arc weighs the same w > 0 (unweighted
  // graphs: w = 1), the rule above otherwise, for a search on `threads`
  // threads; 1 for edgeless graphs.
  double delta(int threads) const {
    return fixed > 0 ? fixed : delta_from_summary(mean_weight, lightest_positive_weight, average_degree, threads);
  }
};

template <typename V>
DeltaInputs delta_inputs(const CSRGraph<V>& g) {
  const eid_t arcs = g.num_arcs();
  if (arcs == 0) return {.fixed = 1};
  if (!g.weighted()) return {.fixed = kEqualWeightLevels};
  const weight_t* w = g.out().weights.data();
  double total = 0, lightest = std::numeric_limits<double>::infinity(), heaviest = 0;
  bool zero = false;
#pragma omp parallel for schedule(static) reduction(+ : total) reduction(min : lightest) \
    reduction(max : heaviest) reduction(|| : zero)
  for (eid_t i = 0; i < arcs; ++i) {
    const double x = static_cast<double>(w[i]);
    total += x;
    if (x > 0 && x < lightest) lightest = x;
    heaviest = std::max(heaviest, x);
    zero = zero || x == 0;
  }
  if (!(total > 0)) return {.fixed = 1};  // every weight 0: any width gives the same buckets
  if (!zero && lightest == heaviest) return {.fixed = kEqualWeightLevels * lightest};
  return {.mean_weight = total / static_cast<double>(arcs),
          .lightest_positive_weight = std::isfinite(lightest) ? lightest : 0,
          .average_degree = static_cast<double>(arcs) / static_cast<double>(g.num_vertices())};
}

// The rule for g on `threads` threads (one pass over the weights; callers
// that search one graph repeatedly keep delta_inputs instead, as
// SsspWorkspace::auto_delta does).
template <typename V>
double choose_delta(const CSRGraph<V>& g, int threads) {
  return delta_inputs(g).delta(threads);
}

}  // namespace numagraph::kernels
