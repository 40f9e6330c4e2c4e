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
// kShared mode runs the same steps on the shared arrays (no push parts, one
// bitmap), which is what a NUMA-oblivious BFS does; the accounting compares
// the two. Depths are the same in both modes and on every topology; parents
// may differ (any BFS tree is valid) and are checked by the BFS verifier.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "numagraph/engine/edge_map.hpp"
#include "numagraph/kernels/bfs/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

namespace detail {

// One BFS level as an edge_map functor: claim unvisited targets. An
// unvisited vertex's parent holds -(out-degree + 1) (as in the flat kernel),
// so claiming it hands edge_map the degree for the switching heuristic
// without another random read.
template <typename V>
struct BfsStep {
  using P = std::make_signed_t<V>;
  P* parent;
  std::int32_t* depth;
  std::int32_t next_depth;
  bool cond(V v) const { return parallel::load_relaxed(parent[v]) < 0; }  // others claim concurrently
  bool update(V u, V v, eid_t& degree) {  // pull: v belongs to the calling thread
    degree = -static_cast<eid_t>(parent[v]) - 1;
    parent[v] = static_cast<P>(u);
    if (depth) depth[v] = next_depth;
    return true;
  }
  bool update_atomic(V u, V v, eid_t& degree) {
    const P seen = parallel::load_relaxed(parent[v]);
    if (seen >= 0 || !parallel::compare_and_swap(parent[v], seen, static_cast<P>(u))) return false;
    degree = -static_cast<eid_t>(seen) - 1;
    if (depth) depth[v] = next_depth;
    return true;
  }
};

}  // namespace detail

// What searches on one partitioned graph keep between them: the edge_map
// state (frontier bitmaps, per-thread lists, a recycled frontier list), whose
// pages a fresh mapper would fault in again for every root.
template <typename V>
class NumaBfsWorkspace {
 public:
  engine::EdgeMapper<V>& mapper(const engine::PartitionedGraph<V>& pg, engine::EngineMode mode) {
    if (!mapper_ || graph_id_ != pg.id() || mode_ != mode) {
      mapper_.reset();  // refers to the old graph, which may be gone
      mapper_ = std::make_unique<engine::EdgeMapper<V>>(pg, mode);
      graph_id_ = pg.id();
      mode_ = mode;
    }
    return *mapper_;
  }

 private:
  std::unique_ptr<engine::EdgeMapper<V>> mapper_;
  std::uint64_t graph_id_ = 0;  // PartitionedGraph::id() of the mapper's graph
  engine::EngineMode mode_ = engine::EngineMode::kNuma;
};

// The search, reusing r's arrays when their sizes fit and the workspace's
// edge_map state when given (trials from many roots then do not fault in
// fresh pages). A workspace serves one partitioned graph at a time: it makes
// a new mapper when handed another graph (by PartitionedGraph::id, so a graph
// rebuilt at a destroyed one's address is not mistaken for it) or mode.
template <typename V, typename Acc = engine::NoAccounting>
void bfs_numa(const engine::PartitionedGraph<V>& pg, V root, const BfsOptions& o, engine::EngineMode mode,
              Acc& acc, BfsResult<V>& r, NumaBfsWorkspace<V>* ws = nullptr) {
  using P = typename BfsResult<V>::Parent;
  using namespace engine;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  if (static_cast<std::int64_t>(root) >= n) throw UsageError("BFS root " + std::to_string(root) + " is not a vertex");
  r.top_down_steps = r.bottom_up_steps = 0;
  if (r.parent.size() != static_cast<std::size_t>(n))
    r.parent = NumaArray<P>(static_cast<std::size_t>(n),
        numa::placement_for("parents", numa::Placement::partitioned()));
  if (!o.compute_depth) r.depth = NumaArray<std::int32_t>();
  else if (r.depth.size() != static_cast<std::size_t>(n))
    r.depth = NumaArray<std::int32_t>(static_cast<std::size_t>(n),
        numa::placement_for("depth", numa::Placement::partitioned()));
  std::int32_t* depth = o.compute_depth ? r.depth.data() : nullptr;
  vertex_map(layout, [&](int, std::int64_t v) {
    r.parent[v] = static_cast<P>(-(g.out_degree(static_cast<V>(v)) + 1));
    if (depth) depth[v] = -1;
  });
  r.parent[root] = static_cast<P>(root);
  if (depth) depth[root] = 0;

  NumaBfsWorkspace<V> own;
  EdgeMapper<V>& mapper = (ws ? *ws : own).mapper(pg, mode);
  Frontier<V> frontier = mapper.make_frontier({root});
  eid_t explored = 0;
  bool bottom_up = false;
  for (std::int32_t level = 0; !frontier.empty(); ++level) {
    throw_if_cancelled();  // Ctrl-C in Python: once per level, outside parallel regions
    // Beamer's switch: go bottom-up when the frontier's edges outweigh the
    // unexplored edges / alpha (and are at least n / beta: a pull reads every
    // vertex, too much for a thin frontier); come back when the frontier is
    // below n / beta vertices. The same rule as the flat kernel.
    const eid_t frontier_edges = frontier.out_degrees;
    const double fe = static_cast<double>(frontier_edges);
    if (!bottom_up && fe > static_cast<double>(g.num_arcs() - explored) / o.alpha &&
        fe >= static_cast<double>(n) / o.beta)
      bottom_up = true;
    else if (bottom_up && static_cast<double>(frontier.size) < static_cast<double>(n) / o.beta)
      bottom_up = false;
    ++(bottom_up ? r.bottom_up_steps : r.top_down_steps);
    profile::InnerPhase phase(bottom_up ? "level bottom-up" : "level top-down");
    detail::BfsStep<V> step{r.parent.data(), depth, level + 1};
    EdgeMapOptions em;
    em.direction = bottom_up ? Direction::kPull : Direction::kPush;
    Frontier<V> next = mapper.edge_map(frontier, step, em, acc);
    mapper.recycle(std::move(frontier.list));
    frontier = std::move(next);
    if (!bottom_up) explored += frontier_edges;  // as the flat kernel: top-down steps count
  }
}

template <typename V, typename Acc = engine::NoAccounting>
BfsResult<V> bfs_numa(const engine::PartitionedGraph<V>& pg, V root, const BfsOptions& o, engine::EngineMode mode,
                      Acc& acc) {
  BfsResult<V> r;
  bfs_numa(pg, root, o, mode, acc, r);
  return r;
}

}  // namespace numagraph::kernels
