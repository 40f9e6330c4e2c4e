// The NUMA engine from Python: which engine a call runs on, and the
// partitioned graph it needs (built once per graph and configuration).
#pragma once

#include <sched.h>

#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::py {

// engine = "numa" runs the partitioned (Polymer-style) variant, "flat" the
// NUMA-oblivious one, "auto" the NUMA one when the configured topology has
// more than one node (as the CLI's --engine auto).
struct EngineTopology {
  int nodes = 1;
  std::vector<int> thread_node;
  std::vector<std::vector<int>> distance;
  int hardware_threads = 1;
};

// Read on the worker thread (its OpenMP thread count is the one in force).
inline EngineTopology engine_topology() {
  EngineTopology t;
  const numa::Runtime& rt = numa::Runtime::get();
  if (rt.configured()) {
    t.nodes = rt.topology().num_nodes();
    t.thread_node = rt.thread_node();
    t.distance = rt.topology().distance;
  } else {
    t.thread_node.assign(static_cast<std::size_t>(parallel::max_threads()), 0);
    t.distance = {{10}};
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  t.hardware_threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  return t;
}

inline void check_engine(const std::string& engine) {
  if (engine != "auto" && engine != "numa" && engine != "flat")
    throw UsageError("engine must be 'auto', 'numa' or 'flat' (got '" + engine + "')");
}

inline bool use_numa(const std::string& engine, const EngineTopology& t) {
  return engine == "numa" || (engine == "auto" && t.nodes > 1);
}

// The partitioned graph, built on first use for these parts and cached on
// the Python graph (one at a time: it is a second copy of the edges) until
// the runtime configuration changes. Worker thread only.
template <typename V>
const engine::PartitionedGraph<V>& partitioned(GraphCache& cache, const CSRGraph<V>& g, const EngineTopology& t,
                                              engine::PartitionOptions parts) {
  const std::string key = std::to_string(config_generation()) + ":" + std::to_string(parts.push) +
                          std::to_string(parts.out);
  if (cache.partitioned_key != key || !cache.partitioned) {
    cache.partitioned.reset();  // free the old copy before building the new one
    cache.numa_bfs_workspace.reset();  // it points into the old copy
    auto layout = engine::Layout::make(t.nodes, t.thread_node, g.num_vertices(), g.in_arrays().offsets.data());
    cache.partitioned = std::make_shared<engine::PartitionedGraph<V>>(g, std::move(layout), parts);
    cache.partitioned_key = key;
  }
  return *static_cast<const engine::PartitionedGraph<V>*>(cache.partitioned.get());
}

}  // namespace numagraph::py
