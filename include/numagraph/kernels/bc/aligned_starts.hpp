// Aligned starts for the lanes of a batch (brandes_batched.hpp). Every level
// of a batch sweeps the lists of the vertices on it in any lane, so a vertex
// on three different levels in different lanes has its list swept three
// times forward and three times backward. On a Kronecker graph most sources
// reach the hubs within two hops and cover the graph on level 3, while a
// source of degree 1 may need a hop more: its lane's big levels land one
// level after the others', and the hubs are swept on both. A lane whose
// search reaches a large share of the edges in fewer hops than the slowest
// lane's therefore starts that many levels later, so that the big levels of
// all lanes coincide. Levels are the batch's own: a lane that starts on level
// s has its source on level s, and its depths are the batch's levels minus s.
// kron20, 16 sources, 2 threads: 0.81-0.88x the time on four root sets,
// 0.97-0.98x on two (docs/kernels/bc.md, "Aligned starts").
#pragma once

#include <algorithm>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"

namespace numagraph::kernels {

// A search "spreads" on the first hop whose out-edges, counted with repeats
// (hop 1: the out-degrees of the source's out-neighbours; hop 2: those of
// their out-neighbours), reach this share of the graph's arcs. On kron20 the
// sources whose largest level is level 3 count 0.084-43 times the arcs on
// hop 2, those whose largest is level 4 at most 0.061 times.
inline constexpr double kSpreadShare = 1.0 / 16;

// A probe reads at most arcs / kProbeBudgetShare out-degrees for one lane
// (kProbeMinBudget on small graphs); a probe that runs out of them counts as
// not spreading by hop 2.
inline constexpr std::int64_t kProbeBudgetShare = 256;
inline constexpr std::int64_t kProbeMinBudget = 4096;

// The latest start: lanes start on levels 0, 1 or 2.
inline constexpr int kLatestStart = 2;

namespace bc_detail {

// The hop (1 or 2) on which the search from s spreads, or 3 (later, or the
// probe's budget ran out).
template <typename V>
int spread_hop(const CSRGraph<V>& g, V s) {
  const eid_t arcs = g.num_arcs();
  const double enough = static_cast<double>(arcs) * kSpreadShare;
  std::int64_t budget = std::max<std::int64_t>(arcs / kProbeBudgetShare, kProbeMinBudget);
  double hop1 = 0;
  for (const V u : g.out_neighbors(s)) {
    if (budget-- <= 0) return 3;
    hop1 += static_cast<double>(g.out_degree(u));
  }
  if (hop1 >= enough) return 1;
  double hop2 = 0;
  for (const V u : g.out_neighbors(s))
    for (const V w : g.out_neighbors(u)) {
      if (budget-- <= 0) return 3;
      hop2 += static_cast<double>(g.out_degree(w));
      if (hop2 >= enough) return 2;
    }
  return 3;
}

}  // namespace bc_detail

// start[i]: the level on which lane i of the `active` sources src[0..active)
// starts, 0..kLatestStart. Lanes whose source has no out-edges start on 0 and
// do not count.
template <typename V>
void aligned_start_levels(const CSRGraph<V>& g, const V* src, int active, int* start) {
  int hop[16];
  int latest = 0;
  for (int i = 0; i < active; ++i) {
    hop[i] = g.out_degree(src[i]) > 0 ? bc_detail::spread_hop(g, src[i]) : 0;
    latest = std::max(latest, hop[i]);
  }
  for (int i = 0; i < active; ++i) start[i] = hop[i] == 0 ? 0 : std::min(latest - hop[i], kLatestStart);
}

}  // namespace numagraph::kernels
