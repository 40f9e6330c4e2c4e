// PartitionedGraph: the Polymer-style per-node copy of a CSRGraph.
//
// Vertices are split into contiguous ranges, one per NUMA node, balanced by
// in-edges (engine::Layout). Node k stores in its own memory:
//  - pull part: the in-edges of its own vertices (sources anywhere), so a
//    pull step writes only local vertex data and scans local edges;
//  - push part (optional): for every vertex u of the graph, the out-edges of
//    u whose target is in node k's range, so a push step from any frontier
//    vertex writes only local targets ("each node handles the partial edges of
//    all vertices": the remote side is read in frontier order);
//  - out part (optional, directed graphs): the out-edges of its own vertices,
//    for kernels that need both directions (weakly connected components).
// Offsets are 64-bit; neighbour ids keep the graph's id type.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::engine {

template <typename V>
struct NodeEdges {
  NumaArray<eid_t> offsets;  // rebased: entry i is for vertex (first + i)
  NumaArray<V> neighbors;
  NumaArray<weight_t> weights;  // empty when unweighted
  std::int64_t first = 0;       // first vertex covered by offsets

  eid_t begin(std::int64_t v) const { return offsets[static_cast<std::size_t>(v - first)]; }
  eid_t end(std::int64_t v) const { return offsets[static_cast<std::size_t>(v - first + 1)]; }
  std::size_t bytes() const { return offsets.bytes() + neighbors.bytes() + weights.bytes(); }
};

struct PartitionOptions {
  bool push = false;     // build push parts (BFS top-down, SSSP, BC forward)
  bool out = false;      // build out parts for directed graphs (CC, SpMV)
};

template <typename V>
class PartitionedGraph {
 public:
  PartitionedGraph(const CSRGraph<V>& g, Layout layout, PartitionOptions opt = {})
      : graph_(&g), layout_(std::move(layout)), id_(next_id()) {
    const int nodes = layout_.nodes;
    const std::int64_t n = g.num_vertices();
    pull_.resize(static_cast<std::size_t>(nodes));
    if (opt.push) push_.resize(static_cast<std::size_t>(nodes));
    if (opt.out && g.directed()) out_.resize(static_cast<std::size_t>(nodes));
    for (int k = 0; k < nodes; ++k) {
      const std::int64_t lo = layout_.node_bounds[k], hi = layout_.node_bounds[k + 1];
      pull_[k] = slice(g.in_arrays(), lo, hi, k);
      if (opt.out && g.directed()) out_[k] = slice(g.out(), lo, hi, k);
      if (opt.push) push_[k] = targets_in_range(g.out(), n, lo, hi, k);
    }
  }

  // Not copied or moved: edge maps and workspaces refer to a graph by its
  // address, and know it by its id.
  PartitionedGraph(const PartitionedGraph&) = delete;
  PartitionedGraph& operator=(const PartitionedGraph&) = delete;

  const CSRGraph<V>& graph() const { return *graph_; }
  // Distinct for every PartitionedGraph made in this process, even one built
  // where a destroyed one was: what workspaces tied to a graph compare.
  std::uint64_t id() const { return id_; }
  const Layout& layout() const { return layout_; }
  std::int64_t num_vertices() const { return graph_->num_vertices(); }
  const NodeEdges<V>& pull(int node) const { return pull_[static_cast<std::size_t>(node)]; }
  const NodeEdges<V>& push(int node) const { return push_[static_cast<std::size_t>(node)]; }
  // Out-edges of the node's vertices (the pull part itself when undirected).
  const NodeEdges<V>& out(int node) const {
    return out_.empty() ? pull(node) : out_[static_cast<std::size_t>(node)];
  }
  bool has_push() const { return !push_.empty(); }
  bool has_out() const { return !out_.empty(); }

  std::size_t bytes() const {
    std::size_t b = 0;
    for (const auto& p : pull_) b += p.bytes();
    for (const auto& p : push_) b += p.bytes();
    for (const auto& p : out_) b += p.bytes();
    return b;
  }

 private:
  // Copy of rows [lo, hi) of a CSR into memory bound to `node`.
  static NodeEdges<V> slice(const CSRArrays<V>& a, std::int64_t lo, std::int64_t hi, int node) {
    NodeEdges<V> e;
    e.first = lo;
    const auto place = numa::Placement::bind(node);
    e.offsets = NumaArray<eid_t>(static_cast<std::size_t>(hi - lo + 1), place);
    const eid_t base = a.offsets[static_cast<std::size_t>(lo)];
    const eid_t count = a.offsets[static_cast<std::size_t>(hi)] - base;
    e.neighbors = NumaArray<V>(static_cast<std::size_t>(count), place);
    if (!a.weights.empty()) e.weights = NumaArray<weight_t>(static_cast<std::size_t>(count), place);
    parallel::for_static(std::int64_t{0}, hi - lo + 1, [&](std::int64_t i) {
      e.offsets[static_cast<std::size_t>(i)] = a.offsets[static_cast<std::size_t>(lo + i)] - base;
    });
    parallel::for_static(eid_t{0}, count, [&](eid_t i) {
      e.neighbors[static_cast<std::size_t>(i)] = a.neighbors[static_cast<std::size_t>(base + i)];
      if (!a.weights.empty())
        e.weights[static_cast<std::size_t>(i)] = a.weights[static_cast<std::size_t>(base + i)];
    });
    return e;
  }

  // Out-edges of every vertex whose target lies in [lo, hi). Neighbour lists
  // are sorted, so each vertex's share is one contiguous run found by binary
  // search: no scan of the whole edge array per node.
  static NodeEdges<V> targets_in_range(const CSRArrays<V>& a, std::int64_t n, std::int64_t lo,
                                       std::int64_t hi, int node) {
    const bool weighted = !a.weights.empty();
    const auto place = numa::Placement::bind(node);
    NodeEdges<V> e;
    e.first = 0;
    NumaArray<eid_t> run_begin(static_cast<std::size_t>(n) + 1);
    NumaArray<eid_t> run_length(static_cast<std::size_t>(n) + 1);
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t u) {
      const V* b = a.neighbors.data() + a.offsets[static_cast<std::size_t>(u)];
      const V* f = a.neighbors.data() + a.offsets[static_cast<std::size_t>(u + 1)];
      const V* first = std::lower_bound(b, f, static_cast<V>(lo));
      const V* last = hi >= n ? f : std::lower_bound(first, f, static_cast<V>(hi));
      run_begin[static_cast<std::size_t>(u)] = first - a.neighbors.data();
      run_length[static_cast<std::size_t>(u)] = last - first;
    });
    e.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, place);
    parallel::exclusive_prefix_sum(run_length.data(), e.offsets.data(), n);
    const eid_t count = e.offsets[static_cast<std::size_t>(n)];
    e.neighbors = NumaArray<V>(static_cast<std::size_t>(count), place);
    if (weighted) e.weights = NumaArray<weight_t>(static_cast<std::size_t>(count), place);
    parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t u) {
      const eid_t src = run_begin[static_cast<std::size_t>(u)];
      const eid_t dst = e.offsets[static_cast<std::size_t>(u)];
      for (eid_t j = 0; j < run_length[static_cast<std::size_t>(u)]; ++j) {
        e.neighbors[static_cast<std::size_t>(dst + j)] = a.neighbors[static_cast<std::size_t>(src + j)];
        if (weighted)
          e.weights[static_cast<std::size_t>(dst + j)] = a.weights[static_cast<std::size_t>(src + j)];
      }
    }, std::int64_t{1024});
    return e;
  }

  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
  }

  const CSRGraph<V>* graph_;
  Layout layout_;
  std::uint64_t id_;
  std::vector<NodeEdges<V>> pull_, push_, out_;
};

}  // namespace numagraph::engine
