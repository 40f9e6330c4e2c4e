// Betweenness parameters and result, shared by every BC variant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// The flat kernels: brandes (top-down push with atomics, the BC paper's
// baseline; brandes.hpp), direction-optimizing (push or pull per level, no
// atomics backward; brandes_direction_optimizing.hpp), batched (up to 16
// sources share each sweep; brandes_batched.hpp). auto: batched for 4 or
// more sources on graphs of average degree 8 or more, where sharing the
// edge sweeps pays (docs/kernels/bc.md), else direction-optimizing. The NUMA
// engine has one variant (engine_work_queues.hpp).
enum class BcVariant { kAuto, kBrandes, kDirectionOptimizing, kBatched };

inline BcVariant parse_bc_variant(std::string_view name) {
  if (name == "auto") return BcVariant::kAuto;
  if (name == "brandes") return BcVariant::kBrandes;
  if (name == "direction-optimizing") return BcVariant::kDirectionOptimizing;
  if (name == "batched") return BcVariant::kBatched;
  throw UsageError("the BC variant must be 'auto', 'brandes', 'direction-optimizing' or 'batched' (got '" +
                   std::string(name) + "')");
}

inline const char* to_string(BcVariant v) {
  return v == BcVariant::kAuto                  ? "auto"
         : v == BcVariant::kBrandes             ? "brandes"
         : v == BcVariant::kDirectionOptimizing ? "direction-optimizing"
                                                : "batched";
}

struct BcOptions {
  BcVariant variant = BcVariant::kAuto;  // flat engine only
  std::int64_t task_size = 16;           // NUMA engine: frontier entries per work-queue task (seed 000's 16)
};

// Raw Brandes sums over the sources (each ordered pair once);
// scale_like_networkx() (brandes.hpp) turns them into NetworkX's numbers.
struct BcResult {
  NumaArray<double> scores;
  BcVariant variant = BcVariant::kAuto;  // the flat kernel that ran (kAuto: the NUMA engine's)
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
