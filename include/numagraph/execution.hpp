// How a problem's entry point runs, besides the graph and the problem's own
// options: which engine, the state kept between calls, access accounting and
// who listens to the call's phases. Every entry point (numagraph::bfs,
// numagraph::pagerank, ...) takes one Execution, so an option that cuts across
// every kernel is added here once, not in every kernel and every face.
//
// Threads, binding, topology, page size and default placement are process
// state (one OpenMP pool, pinned once) configured through numa::Runtime; a
// call reads them once, as a MachineView, when it starts.
// docs/architecture.md says how the reordering and profiling options plug in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/reorder/order.hpp"

namespace numagraph {

class KernelCache;

// Which implementation runs a problem: the flat kernel (NUMA-oblivious, over
// the CSR graph), the NUMA engine (per-node partitions, Polymer-style), or
// auto: the engine when the topology has more than one node.
enum class EngineChoice { kAuto, kFlat, kNuma };
EngineChoice parse_engine(std::string_view name);  // "auto" | "flat" | "numa"; UsageError otherwise
const char* to_string(EngineChoice e);

// The NUMA picture of one call, read once from numa::Runtime.
struct MachineView {
  int nodes = 1;
  std::vector<int> thread_node;            // node of each worker thread, node-major
  std::vector<std::vector<int>> distance;  // node distance matrix
  int process_cpus = 1;                    // CPUs the process may run on (read before any pinning)
  std::uint64_t generation = 0;            // numa::Runtime::generation(): which configuration

  static MachineView current();
  int threads() const { return static_cast<int>(thread_node.size()); }
  // Every worker thread has a CPU of its own. When not (a synthetic topology
  // bigger than the machine), time-sliced threads would steal other nodes'
  // work by accident of scheduling, so cross-node stealing stays off.
  bool threads_fit() const { return threads() <= process_cpus; }
};

// Receives the phases of a call as they start and end (on the calling
// thread, outside parallel regions): "setup" while the engine's partitioned
// graph is built, then the problem's name around the kernel.
class PhaseListener {
 public:
  virtual ~PhaseListener() = default;
  virtual void begin(std::string_view phase) = 0;
  virtual void end(std::string_view phase) = 0;
};

struct Execution {
  EngineChoice engine = EngineChoice::kAuto;
  // State kept between calls on one graph (partitioned copy, workspaces).
  // Null: the call builds what it needs and drops it on return.
  KernelCache* cache = nullptr;
  // Set: run the engine's kernel instrumented (in NUMA mode when the engine
  // is chosen, else in shared mode: the accesses a NUMA-oblivious run makes)
  // and add its access counts here. Problems without an engine variant
  // refuse it.
  engine::AccessCounts* account = nullptr;
  PhaseListener* listener = nullptr;
  // The vertex order the kernel runs in (reorder/order.hpp). Ids going in
  // (roots, sources, vectors) and results coming out stay the caller's; the
  // renumbered graph is kept in the cache like the partitioned one.
  reorder::Spec reorder{};

  // Whether a call with this machine picture runs the NUMA engine.
  bool numa_engine(const MachineView& m) const {
    return engine == EngineChoice::kNuma || (engine == EngineChoice::kAuto && m.nodes > 1);
  }
};

// What a call did, carried by every result: whether the NUMA engine ran, the
// seconds spent building its partitioned graph (0 when it came from the
// cache) and those spent renumbering it. Front ends time a call and subtract
// setup_s and reorder_s (reported apart), as they do not time loading the graph.
struct CallInfo {
  bool numa = false;
  double setup_s = 0;
  // Seconds spent computing the order and renumbering the graph (0 when none
  // was asked or it came from the cache), and that time in BFS runs.
  double reorder_s = 0;
  double reorder_bfs_equiv = 0;
  // Threads the kernel ran on (0: not recorded). Flat calls on graphs below
  // their problem's serial cut-off run on one (kernels/thread_budget.hpp).
  int threads = 0;
};

}  // namespace numagraph
