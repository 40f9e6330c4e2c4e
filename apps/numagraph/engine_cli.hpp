// CLI glue for the NUMA engine: `--engine numa|flat|auto` and `--account`.
// Kernel commands call these so every kernel selects engines and prints the
// access accounting the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/mode.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/profile/record.hpp"

namespace numagraph::cli {

struct EngineOptions {
  std::string engine = "auto";  // numa | flat | auto (numa when the topology has > 1 node)
  bool account = false;
};

void add_engine_options(CLI::App& app, EngineOptions& opt);

// The NUMA picture the engine runs on: the active topology's node count, the
// node of each worker thread (node-major) and the node distance matrix.
struct EngineTopology {
  int nodes = 1;
  std::vector<int> thread_node;
  std::vector<std::vector<int>> distance;
  int hardware_threads = 1;  // cores this process may run on
};
EngineTopology engine_topology();

// True when the kernel should run on the NUMA engine.
bool use_numa_engine(const EngineOptions& opt, const EngineTopology& topo);

// Layout over n vertices balanced by `prefix` (CSR offsets, n+1 entries).
template <typename W>
engine::Layout make_layout(const EngineTopology& topo, std::int64_t n, const W* prefix) {
  return engine::Layout::make(topo.nodes, topo.thread_node, n, prefix);
}

// What a kernel command needs to run on the engine: whether to use it, and
// the partitioned graph (built, untimed, when the engine runs or accounts).
template <typename V>
struct EngineRun {
  bool numa = false;
  std::unique_ptr<engine::PartitionedGraph<V>> pg;
  engine::EngineMode mode() const { return numa ? engine::EngineMode::kNuma : engine::EngineMode::kFlat; }
};

template <typename V>
EngineRun<V> prepare_engine(const CSRGraph<V>& g, const EngineOptions& opt, engine::PartitionOptions parts) {
  EngineRun<V> run;
  const EngineTopology topo = engine_topology();
  run.numa = use_numa_engine(opt, topo);
  if (run.numa || opt.account)
    run.pg = std::make_unique<engine::PartitionedGraph<V>>(
        g, make_layout(topo, g.num_vertices(), g.in_arrays().offsets.data()), parts);
  return run;
}

// With --account, runs kernel(mode, accounting) once more, instrumented, and
// returns the counts (zeros without --account).
template <typename V, typename Kernel>
engine::AccessCounts account_if_asked(const EngineOptions& opt, const EngineRun<V>& eng, Kernel&& kernel) {
  if (!opt.account) return {};
  engine::Accounting acc(eng.pg->layout());
  kernel(eng.mode(), acc);
  return acc.total();
}

// Adds "engine" and, when accounting, the "account" object to the record, and
// prints the accounting table on stderr for people (stdout stays the record).
void report_engine(profile::Record& rec, const EngineOptions& opt, bool numa_engine,
                   const engine::AccessCounts& counts, bool json);

}  // namespace numagraph::cli
