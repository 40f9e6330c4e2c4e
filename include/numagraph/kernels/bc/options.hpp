// Betweenness parameters and result, shared by every BC variant.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::kernels {

struct BcOptions {
  std::int64_t task_size = 16;  // NUMA engine: frontier entries per work-queue task (seed 000's 16)
};

// Raw Brandes sums over the sources (each ordered pair once);
// scale_like_networkx() (brandes.hpp) turns them into NetworkX's numbers.
struct BcResult {
  NumaArray<double> scores;
  std::int64_t stolen_tasks = 0;    // NUMA engine: tasks taken from other threads' queues
  bool steal_across_nodes = false;  // NUMA engine: whether a thread may steal from other nodes
  CallInfo ran;
};

// How the engine's work queues steal: victims in increasing node distance
// (empty: 10 on the diagonal, 20 elsewhere), and whether across nodes at all.
struct StealPolicy {
  std::vector<std::vector<int>> node_distance;
  bool across_nodes = true;
};

}  // namespace numagraph::kernels
