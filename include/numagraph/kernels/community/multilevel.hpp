// The multilevel community search shared by Louvain and Leiden: on each level,
// local moving (local_moving.hpp); for Leiden, refinement
// (leiden_refine.hpp); then the graph is aggregated (level_graph.hpp) by the
// communities (Louvain) or the refined sub-communities (Leiden, which then
// starts the next level from the communities). As networkx.louvain_communities,
// a level whose modularity gain is at most `threshold` is the last. Its
// partition is then carried back down level by level and improved by local
// moving on each (multilevel refinement, CommunityOptions::refine). Leiden
// finally splits any community left disconnected into its connected parts
// (each split raises the modularity), so every community it returns is
// connected. Work: O(m) per local-moving pass and per aggregation; levels
// shrink fast. Memory: every level's graph is kept for the way back.
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

#include "numagraph/kernels/community/leiden_refine.hpp"
#include "numagraph/kernels/community/level_graph.hpp"
#include "numagraph/kernels/community/local_moving.hpp"
#include "numagraph/kernels/community/modularity.hpp"
#include "numagraph/kernels/community/options.hpp"

namespace numagraph::kernels {

namespace community {

// Splits each community of `comm` into its connected parts (union-find over
// the arcs inside communities); returns how many parts were added.
template <typename V, typename Adj>
std::int64_t split_disconnected(const Adj& a, std::vector<V>& comm) {
  const std::int64_t n = a.num_vertices();
  std::vector<V> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), V{0});
  auto find = [&](V x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::int64_t v = 0; v < n; ++v)
    for (eid_t e = a.begin(v); e < a.end(v); ++e) {
      const V u = a.target(e);
      if (comm[u] != comm[v]) continue;
      const V ru = find(u), rv = find(static_cast<V>(v));
      if (ru != rv) parent[std::max(ru, rv)] = std::min(ru, rv);
    }
  std::vector<V> before(comm);
  const std::int64_t communities = renumber_dense(before);
  for (std::int64_t v = 0; v < n; ++v) comm[v] = find(static_cast<V>(v));
  std::vector<V> after(comm);
  return renumber_dense(after) - communities;
}

// One level: the search on `a` from `comm`; fills the next level's graph
// and start unless this level is the last. Returns whether it was.
template <typename V, typename Adj>
bool run_level(const Adj& a, const CommunityOptions& o, int level, double& previous_q, std::vector<V>& comm,
               std::vector<V>& to_next, LevelGraph<V>& next, CommunityResult<V>& r) {
  const std::int64_t n = a.num_vertices();
  const std::vector<double> k = weighted_degrees(a);
  double two_m = 0;
  for (const double x : k) two_m += x;
  if (level == 0) previous_q = modularity(a, comm, k, o.resolution);
  const auto order = random_order<V>(n, o.seed + 0x51ED27ull * static_cast<std::uint64_t>(level));
  const MoveStats moved = local_moving(a, k, two_m, o, order, comm);
  ++r.levels;
  r.passes += moved.passes;
  const double q = modularity(a, comm, k, o.resolution);
  std::vector<V> part = o.variant == CommunityVariant::kLeiden ? leiden_refine(a, k, two_m, o, order, comm) : comm;
  const std::int64_t parts = renumber_dense(part);
  const bool last = moved.moves == 0 || q - previous_q <= o.threshold || parts == n ||
                    (o.max_levels > 0 && r.levels >= o.max_levels);
  if (last) {
    r.modularity = q;
    return true;
  }
  previous_q = q;
  next = aggregate(a, part, parts);
  // The next level starts from singletons (Louvain) or from the communities
  // the sub-communities lie in (Leiden).
  std::vector<V> start(static_cast<std::size_t>(parts));
  if (o.variant == CommunityVariant::kLeiden) {
    std::vector<V> dense(comm);
    renumber_dense(dense);
    for (std::int64_t v = 0; v < n; ++v) start[part[v]] = dense[v];
  } else {
    std::iota(start.begin(), start.end(), V{0});
  }
  to_next = std::move(part);
  comm = std::move(start);
  return false;
}

}  // namespace community

namespace community {

// Refinement on the way back down: the last level's partition is
// projected onto each finer level in turn and improved there by local moving
// (Rotta and Noack's multilevel refinement; NetworKit's PLM refine=True).
// Returns the passes run.
template <typename V, typename Adj>
int refine_level(const Adj& a, const CommunityOptions& o, int level, std::vector<V>& comm) {
  const std::vector<double> k = weighted_degrees(a);
  double two_m = 0;
  for (const double x : k) two_m += x;
  const auto order = random_order<V>(a.num_vertices(), o.seed + 0x2EF1A3ull * static_cast<std::uint64_t>(level + 1));
  return local_moving(a, k, two_m, o, order, comm).passes;
}

}  // namespace community

// Communities of an undirected graph (ids in the graph's order); the entry
// point (community.hpp) brings them to the caller's order.
template <typename V>
CommunityResult<V> communities_multilevel(const CSRGraph<V>& g, const CommunityOptions& o) {
  using namespace community;
  const std::int64_t n = g.num_vertices();
  CommunityResult<V> r;
  std::vector<V> comm(static_cast<std::size_t>(n)), to_next;
  std::iota(comm.begin(), comm.end(), V{0});
  std::vector<LevelGraph<V>> levels;  // levels[i]: the graph of level i + 1
  std::vector<std::vector<V>> down;   // down[l][v]: level l's vertex v as a vertex of level l + 1
  LevelGraph<V> next;
  double previous_q = 0;
  const InputAdjacency<V> input(g);
  bool last = run_level(input, o, 0, previous_q, comm, to_next, next, r);
  for (int level = 1; !last; ++level) {
    down.push_back(std::move(to_next));
    levels.push_back(std::move(next));
    next = LevelGraph<V>();
    last = run_level(levels.back(), o, level, previous_q, comm, to_next, next, r);
  }
  const bool refine = o.refine;
  for (auto l = static_cast<std::int64_t>(down.size()) - 1; l >= 0; --l) {
    const std::vector<V>& to = down[l];
    std::vector<V> finer(to.size());
    parallel::for_static(std::size_t{0}, to.size(), [&](std::size_t v) { finer[v] = comm[to[v]]; });
    comm = std::move(finer);
    if (refine) r.passes += l == 0 ? refine_level(input, o, 0, comm) : refine_level(levels[l - 1], o, static_cast<int>(l), comm);
    if (l > 0) levels[l - 1] = LevelGraph<V>();  // done with it
  }
  // Leiden: local moving (the last level's, or the refinement's) may have
  // left a community disconnected; its parts become communities.
  if (o.variant == CommunityVariant::kLeiden) r.split = split_disconnected(input, comm);
  if ((refine && !down.empty()) || r.split > 0)
    r.modularity = modularity(input, comm, weighted_degrees(input), o.resolution);
  r.labels = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { r.labels[v] = comm[v]; });
  return r;
}

}  // namespace numagraph::kernels
