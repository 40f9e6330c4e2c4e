// Cache-blocked copies of the nodes' edge parts, for the engine's pull
// kernels (PageRank, SpMV) on graphs whose vertex values outgrow the
// last-level cache: node k's lists cut into pieces by source range
// (sweep/segmented_lists.hpp), each copy in node k's own memory, so a
// blocked sweep keeps Polymer's property (edges local, random reads from the
// node's replica) and gains the flat kernel's cache blocking.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/sweep/segmented_lists.hpp"

namespace numagraph::engine {

// `part(k)` is node k's NodeEdges (pg.pull(k) or pg.out(k)). Empty when
// `width` is 0 (no blocking); else one SegmentedLists per node, list i being
// vertex node_bounds[k] + i.
template <typename V, typename PartOf>
std::vector<SegmentedLists<V>> segment_parts(const PartitionedGraph<V>& pg, std::int64_t width, PartOf part) {
  std::vector<SegmentedLists<V>> parts;
  if (width <= 0) return parts;
  const Layout& layout = pg.layout();
  const bool weighted = pg.graph().weighted();
  parts.reserve(static_cast<std::size_t>(layout.nodes));
  for (int k = 0; k < layout.nodes; ++k) {
    const NodeEdges<V>& edges = part(k);
    const std::int64_t lo = layout.node_bounds[k], hi = layout.node_bounds[k + 1];
    parts.emplace_back(hi - lo, pg.num_vertices(), width, weighted, numa::Placement::bind(k), [&](std::int64_t i) {
      const eid_t b = edges.begin(lo + i), e = edges.end(lo + i);
      const weight_t* w = weighted ? edges.weights.data() + b : nullptr;
      return std::pair{std::span<const V>(edges.neighbors.data() + b, static_cast<std::size_t>(e - b)), w};
    });
  }
  return parts;
}

}  // namespace numagraph::engine
