// Community detection (Louvain and Leiden) parameters and result, shared by
// every part of the multilevel driver (community/multilevel.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "numagraph/execution.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// louvain: local moving + aggregation (Blondel et al. 2008), as
// networkx.louvain_communities. leiden: the same local moving, then a
// refinement inside each community before aggregating (Traag, Waltman and
// van Eck 2019), so that every community is connected.
enum class CommunityVariant { kLouvain, kLeiden };

inline const char* to_string(CommunityVariant v) { return v == CommunityVariant::kLeiden ? "leiden" : "louvain"; }

inline CommunityVariant parse_community_variant(const std::string& name) {
  if (name == "louvain") return CommunityVariant::kLouvain;
  if (name == "leiden") return CommunityVariant::kLeiden;
  throw UsageError("unknown community variant '" + name + "': use louvain or leiden");
}

struct CommunityOptions {
  double resolution = 1.0;  // gamma of networkx.community.modularity
  std::uint64_t seed = kDefaultSeed;  // the random vertex order; same seed, same answer (any thread count)
  // A level whose modularity gain is at most this is the last one
  // (networkx.louvain_communities' threshold).
  double threshold = 1e-7;
  int max_levels = 0;  // 0: until the threshold or no vertex moves
  // Local-moving passes over all vertices per level, at most; a level also
  // ends when a pass moves no vertex or gains less than pass_tolerance.
  int max_passes = 32;
  double pass_tolerance = 1e-6;
  CommunityVariant variant = CommunityVariant::kLouvain;
  // Louvain: after the last level, improve the partition on each finer level
  // by local moving on the way back down (multilevel refinement).
  bool refine = true;
};

// labels[v]: v's community, dense 0..communities-1, numbered in the order of
// each community's smallest member (the caller's ids).
template <typename V>
struct CommunityResult {
  NumaArray<V> labels;
  std::int64_t communities = 0;
  double modularity = 0;  // networkx.community.modularity(G, communities, resolution)
  int levels = 0;         // local-moving levels run
  int passes = 0;         // local-moving passes, summed over the levels
  std::int64_t split = 0; // leiden: communities split into their connected parts at the end
  CallInfo ran;
};

// Undirected, non-negative weights, a finite non-negative resolution.
template <typename V>
void require_community_input(const CSRGraph<V>& g, const CommunityOptions& o) {
  if (g.directed())
    throw UsageError("community detection needs an undirected graph (directed modularity is not implemented): "
                     "load it with -s (--symmetrize)");
  if (!std::isfinite(o.resolution) || o.resolution < 0)
    throw UsageError("the resolution must be a finite number >= 0: pass --resolution 1 for plain modularity");
  if (!std::isfinite(o.threshold)) throw UsageError("the threshold must be a finite number: pass --threshold 1e-7");
  if (o.max_passes < 1) throw UsageError("max_passes must be at least 1");
  if (o.max_levels < 0) throw UsageError("max_levels must be >= 0 (0: no limit)");
  if (!g.weighted()) return;
  const auto& w = g.out().weights;
  std::int64_t bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad)
  for (std::int64_t e = 0; e < static_cast<std::int64_t>(w.size()); ++e)
    if (!(w[e] >= 0) || !std::isfinite(w[e])) bad = std::max(bad, e);
  if (bad >= 0)
    throw UsageError("community detection needs finite non-negative edge weights (arc " + std::to_string(bad) +
                     " weighs " + std::to_string(w[bad]) + "): drop or fix them, or load without --weights");
}

}  // namespace numagraph::kernels
