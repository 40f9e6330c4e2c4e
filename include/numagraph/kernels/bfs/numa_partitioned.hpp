// Direction-optimizing BFS on the NUMA engine (Beamer's top-down/bottom-up
// switching, Polymer's per-node edge partitions).
//
// Each level is one edge_map (engine/edge_map.hpp) in the direction Beamer's
// heuristic picks. Top-down is a push: every node walks the frontier list in
// order and follows only the out-edges whose target it owns, so claiming a
// target (compare-and-swap on parent) is a local random write. Bottom-up is a
// pull: every node checks its own unvisited vertices, scanning their in-edges
// (local) and testing the frontier bitmap in its own replica (local random
// reads); the found parent is a local write.
//
// kFlat mode runs the same steps on the shared arrays (no push parts, one
// bitmap), which is what a NUMA-oblivious BFS does; the accounting compares
// the two. Depths are the same in both modes and on every topology; parents
// may differ (any BFS tree is valid) and are checked by the BFS verifier.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "numagraph/engine/edge_map.hpp"

namespace numagraph::kernels {

struct NumaBfsOptions {
  double alpha = 15;  // top-down -> bottom-up when frontier edges > unexplored edges / alpha
  double beta = 18;   // bottom-up -> top-down when frontier vertices < n / beta
};

struct NumaBfsResult {
  NumaArray<std::int64_t> parent;  // -1: not reached; the root is its own parent
  NumaArray<std::int32_t> depth;   // -1: not reached
  int top_down_steps = 0;
  int bottom_up_steps = 0;
};

namespace detail {

// One BFS level as an edge_map functor: claim unvisited targets.
template <typename V>
struct BfsStep {
  std::int64_t* parent;
  std::int32_t* depth;
  std::int32_t next_depth;
  bool cond(V v) const { return parent[v] < 0; }
  bool update(V u, V v) {  // pull: v belongs to the calling thread
    parent[v] = u;
    depth[v] = next_depth;
    return true;
  }
  bool update_atomic(V u, V v) {
    if (!parallel::compare_and_swap(parent[v], std::int64_t{-1}, static_cast<std::int64_t>(u))) return false;
    depth[v] = next_depth;
    return true;
  }
};

}  // namespace detail

template <typename V, typename Acc = engine::NoAccounting>
NumaBfsResult bfs_numa(const engine::PartitionedGraph<V>& pg, V root, const NumaBfsOptions& o,
                       engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  NumaBfsResult r;
  r.parent = NumaArray<std::int64_t>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  r.depth = NumaArray<std::int32_t>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  vertex_map(layout, [&](int, std::int64_t v) {
    r.parent[v] = -1;
    r.depth[v] = -1;
  });
  r.parent[root] = static_cast<std::int64_t>(root);
  r.depth[root] = 0;

  EdgeMapper<V> mapper(pg, mode);
  SparseFrontier<V> frontier{root};
  eid_t explored = 0;
  bool bottom_up = false;
  for (std::int32_t level = 0; !frontier.empty(); ++level) {
    // Beamer's switch: go bottom-up when the frontier's edges outweigh the
    // unexplored edges / alpha; come back when the frontier is below n / beta.
    const eid_t frontier_edges = mapper.out_degree_sum(frontier, acc);
    if (!bottom_up && static_cast<double>(frontier_edges) > static_cast<double>(g.num_arcs() - explored) / o.alpha)
      bottom_up = true;
    else if (bottom_up && static_cast<double>(frontier.size()) < static_cast<double>(n) / o.beta)
      bottom_up = false;
    ++(bottom_up ? r.bottom_up_steps : r.top_down_steps);
    detail::BfsStep<V> step{r.parent.data(), r.depth.data(), level + 1};
    EdgeMapOptions em;
    em.direction = bottom_up ? Direction::kPull : Direction::kPush;
    frontier = mapper.edge_map(frontier, step, em, acc);
    explored += frontier_edges;
  }
  return r;
}

}  // namespace numagraph::kernels
