// Betweenness parameters and result, shared by every BC variant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// The flat kernels: brandes (top-down push with atomics, the BC paper's
// baseline; brandes.hpp), direction-optimizing (push or pull per level, no
// atomics backward; brandes_direction_optimizing.hpp), batched (up to 16
// sources share each sweep; brandes_batched.hpp), source-parallel (serial
// searches, one source per thread at a time; brandes_source_parallel.hpp).
// auto: on graphs of average degree 8 or more, batched for 8 or more sources
// when its workspace fits the scratch budget (a quarter of memory, at most
// 8 GiB), else direction-optimizing, the sources one after the other; on sparser graphs
// (road networks, meshes) source-parallel for at least as many sources as
// threads, where a level-synchronous search waits at barriers, when the
// per-thread arrays fit, else brandes (docs/kernels/bc.md).
// work-queues: seed 000's Algorithm 2 (brandes_work_queues.hpp): each
// thread's discoveries are its own queue for the next level, drained in
// tasks, dry threads steal by NUMA distance; on the NUMA engine it names the
// engine's one variant (engine_work_queues.hpp).
enum class BcVariant { kAuto, kBrandes, kDirectionOptimizing, kBatched, kSourceParallel, kWorkQueues };

inline BcVariant parse_bc_variant(std::string_view name) {
  if (name == "auto") return BcVariant::kAuto;
  if (name == "brandes") return BcVariant::kBrandes;
  if (name == "direction-optimizing") return BcVariant::kDirectionOptimizing;
  if (name == "batched") return BcVariant::kBatched;
  if (name == "source-parallel") return BcVariant::kSourceParallel;
  if (name == "work-queues") return BcVariant::kWorkQueues;
  throw UsageError("the BC variant must be 'auto', 'brandes', 'direction-optimizing', 'batched', 'source-parallel' or "
                   "'work-queues' (got '" +
                   std::string(name) + "')");
}

inline const char* to_string(BcVariant v) {
  return v == BcVariant::kAuto                  ? "auto"
         : v == BcVariant::kBrandes             ? "brandes"
         : v == BcVariant::kDirectionOptimizing ? "direction-optimizing"
         : v == BcVariant::kBatched             ? "batched"
         : v == BcVariant::kSourceParallel      ? "source-parallel"
                                                : "work-queues";
}

// How the work-queues variant hands a level's frontier to threads: nwq (seed
// 000's Algorithm 2: own discoveries first, then steal by NUMA distance) or
// dynamic (the paper's baseline: one shared OpenMP dynamic schedule over the
// level, chunks of task_size).
enum class BcSchedule { kNwq, kDynamic };

inline BcSchedule parse_bc_schedule(std::string_view name) {
  if (name == "nwq") return BcSchedule::kNwq;
  if (name == "dynamic") return BcSchedule::kDynamic;
  throw UsageError("the BC schedule must be 'nwq' or 'dynamic' (got '" + std::string(name) + "')");
}

inline const char* to_string(BcSchedule s) { return s == BcSchedule::kNwq ? "nwq" : "dynamic"; }

struct BcOptions {
  BcVariant variant = BcVariant::kAuto;  // flat kernels; work-queues also names the NUMA engine's
  std::int64_t task_size = 16;           // work queues (flat and NUMA engine): frontier entries per task (seed 000's 16)
  BcSchedule schedule = BcSchedule::kNwq;  // flat work-queues variant only
  // Flat work-queues variant only: count the distinct vertices each thread
  // touches per source in the forward sweep (seed 000's Fig. 12). Slows the
  // run: time it apart.
  bool measure_working_set = false;
};

// The default when the caller names no sources (the CLI's bc, Python's
// numagraph.betweenness): exact, every vertex a source, while that costs at
// most kBcExactWork arc visits (vertices x stored arcs; 2^30 is about a second
// on two cores: facebook_combined's 7.1e8 took 1.4 s), else kBcDefaultSamples
// random sources. Python reads both numbers from here (_core.BC_EXACT_WORK).
inline constexpr double kBcExactWork = 1073741824.0;  // 2^30
inline constexpr std::int64_t kBcDefaultSamples = 4;

inline bool bc_exact_by_default(std::int64_t vertices, std::int64_t arcs) {
  return static_cast<double>(vertices) * static_cast<double>(arcs) <= kBcExactWork;
}

// Raw Brandes sums over the sources (each ordered pair once);
// scale_like_networkx() (brandes.hpp) turns them into NetworkX's numbers.
struct BcResult {
  NumaArray<double> scores;
  BcVariant variant = BcVariant::kAuto;  // the flat kernel that ran (kAuto: the NUMA engine's)
  std::int64_t stolen_tasks = 0;    // work queues: tasks taken from other threads' queues
  bool steal_across_nodes = false;  // work queues: whether a thread may steal from other nodes
  // measure_working_set: per thread, distinct vertices touched per source
  // (mean over the sources) in the forward sweep; empty otherwise.
  std::vector<double> working_set;
  CallInfo ran;
};

// Brings the scores of a run on a renumbered graph back to the caller's ids
// (EngineCall::ids()).
template <typename V>
void unpermute(BcResult& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.scores, ids);
}

// How the engine's work queues steal: victims in increasing node distance
// (empty: 10 on the diagonal, 20 elsewhere), and whether across nodes at all.
struct StealPolicy {
  std::vector<std::vector<int>> node_distance;
  bool across_nodes = true;
};

}  // namespace numagraph::kernels
