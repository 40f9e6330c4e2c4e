// The process-wide NUMA runtime: which topology is in force, how many worker
// threads run, where each is pinned and on which node it counts, and the
// default page size and placement. The CLI and Python configure it once;
// kernels and the engine read it.
//
// Threads are OpenMP threads (so every kernel's `#pragma omp` loops use
// them); configure() sizes the OpenMP pool and pins each pool thread with
// sched_setaffinity. libgomp keeps the same pool threads for later regions of
// the same size, so the pinning holds. Thread ids are node-major: threads of
// node 0 first, then node 1, so NUMA neighbours have adjacent ids.
// OMP_PROC_BIND / OMP_PLACES are left to the user: whatever libgomp binds at
// start-up, configure() sets each pool thread's own affinity afterwards, and
// --bind none gives every thread back the CPUs the process started with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/numa/placement.hpp"
#include "numagraph/numa/topology.hpp"

namespace numagraph::numa {

enum class Bind { kCompact, kScatter, kNone };
std::string to_string(Bind b);
Bind parse_bind(const std::string& s);
PageSize parse_pages(const std::string& s);
PlacementKind parse_placement(const std::string& s);

// The most threads a run may ask for (the CLI's -t range, Python's config).
inline constexpr int kMaxThreads = 4096;

struct RuntimeConfig {
  std::string topology;  // "" = NUMAGRAPH_TOPOLOGY or the machine
  int threads = 0;       // 0 = one per core (per PU with smt); at most kMaxThreads
  Bind bind = Bind::kCompact;
  bool smt = false;
  PageSize pages = PageSize::kTHP;
  PlacementKind placement = PlacementKind::kLocal;
};

class Runtime {
 public:
  static Runtime& get();
  // Loads the topology, plans and pins threads, sets defaults. Prints at
  // most one notice (synthetic nodes that do not exist physically).
  void configure(const RuntimeConfig& config);
  bool configured() const { return configured_; }
  // Bumped by every configure(): state built for one configuration (a
  // partitioned graph placed under its topology) knows when it is stale.
  std::uint64_t generation() const { return generation_; }
  const RuntimeConfig& config() const { return config_; }
  const Topology& topology() const { return topology_; }
  int threads() const { return static_cast<int>(thread_node_.size()); }
  const std::vector<int>& thread_node() const { return thread_node_; }
  // The topology node of thread `tid` (0 when unconfigured or out of range).
  int thread_node(int tid) const;
  // The node of the calling OpenMP thread.
  int current_node() const;
  const std::vector<int>& thread_cpu() const { return thread_cpu_; }  // -1: not pinned
  // Kernel node ids of topology node k, or -1 when the node is synthetic
  // and does not exist here (placement on it is then a no-op).
  int os_node(int node) const;
  // CPUs the process may run on, as it started: read before configure()
  // pins the calling thread to one CPU, after which sched_getaffinity on
  // this thread would report only that one.
  int process_cpu_count() const;

 private:
  bool configured_ = false;
  std::uint64_t generation_ = 0;
  RuntimeConfig config_;
  Topology topology_;
  std::vector<int> thread_node_, thread_cpu_;
  std::vector<int> process_cpus_;  // the CPUs the process may use, read once
};

// Node-major thread plan: for `threads` threads on `topo`, the node of each
// thread and its PU (os index in the topology). Pure function, unit-tested.
struct ThreadPlan {
  std::vector<int> node;
  std::vector<int> pu;
};
ThreadPlan plan_threads(const Topology& topo, int threads, Bind bind, bool smt);

}  // namespace numagraph::numa
