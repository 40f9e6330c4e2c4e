// Layout: which NUMA node each thread runs on, which vertices each node owns,
// and which vertices each thread processes. Built from a node count and a
// thread->node map (from the topology), balanced by edges with the same
// numa::partition_ranges that NumaArray's partitioned placement uses.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/numa/partition.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::engine {

struct Layout {
  int nodes = 1;
  int threads = 1;
  std::vector<int> thread_node;             // node of each thread (node-major order)
  std::vector<std::int64_t> node_bounds;    // node k owns [node_bounds[k], node_bounds[k+1])
  // Vertex ranges each thread processes: its share of its node's range (a node
  // without threads is handed to thread k % threads, and then counts as remote).
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> thread_ranges;
  std::vector<std::int64_t> vertex_node_cache;  // empty: computed by binary search

  int node_of_vertex(std::int64_t v) const { return numa::owner_of(node_bounds, v); }

  // `thread_node[t]` gives the node of thread t; `prefix` (n+1 entries, may be
  // null) weighs vertices, normally the CSR offsets the kernel scans.
  template <typename W>
  static Layout make(int nodes, std::vector<int> thread_node, std::int64_t n, const W* prefix) {
    if (nodes < 1) throw UsageError("a layout needs at least one NUMA node");
    if (thread_node.empty()) throw UsageError("a layout needs at least one thread");
    Layout l;
    l.nodes = nodes;
    l.threads = static_cast<int>(thread_node.size());
    l.thread_node = std::move(thread_node);
    l.node_bounds = numa::partition_ranges(n, nodes, prefix);
    l.thread_ranges.resize(static_cast<std::size_t>(l.threads));
    for (int k = 0; k < nodes; ++k) {
      std::vector<int> mine;
      for (int t = 0; t < l.threads; ++t)
        if (l.thread_node[t] == k) mine.push_back(t);
      const std::int64_t lo = l.node_bounds[k], hi = l.node_bounds[k + 1];
      if (mine.empty()) {
        l.thread_ranges[static_cast<std::size_t>(k % l.threads)].emplace_back(lo, hi);
        continue;
      }
      // Split the node's range among its threads, balanced by the same weights.
      std::vector<std::int64_t> sub =
          numa::partition_ranges(hi - lo, static_cast<int>(mine.size()), prefix ? prefix + lo : prefix);
      for (std::size_t j = 0; j < mine.size(); ++j)
        l.thread_ranges[static_cast<std::size_t>(mine[j])].emplace_back(lo + sub[j], lo + sub[j + 1]);
    }
    return l;
  }

  // Threads spread node-major over `nodes` nodes as evenly as possible: the
  // numbering the NUMA layer gives pinned threads.
  static std::vector<int> node_major(int nodes, int threads) {
    std::vector<int> tn(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t)
      tn[static_cast<std::size_t>(t)] = static_cast<int>(static_cast<std::int64_t>(t) * nodes / threads);
    return tn;
  }
};

// Nodes each thread serves: its own, plus the nodes that have no thread at
// all (node k then goes to thread k % threads, as in Layout::make).
inline std::vector<std::vector<int>> served_parts(const Layout& l) {
  std::vector<std::vector<int>> served(static_cast<std::size_t>(l.threads));
  std::vector<int> members(static_cast<std::size_t>(l.nodes), 0);
  for (int t = 0; t < l.threads; ++t) ++members[static_cast<std::size_t>(l.thread_node[t])];
  for (int t = 0; t < l.threads; ++t) served[t].push_back(l.thread_node[t]);
  for (int k = 0; k < l.nodes; ++k)
    if (members[k] == 0) served[static_cast<std::size_t>(k % l.threads)].push_back(k);
  return served;
}

}  // namespace numagraph::engine
