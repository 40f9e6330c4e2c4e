// CLI glue for the NUMA engine: `--engine numa|flat|auto` and `--account`.
// Kernel commands call these so every kernel selects engines and prints the
// access accounting the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/layout.hpp"
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

// Adds "engine" and, when accounting, the "account" object to the record, and
// prints the accounting table on stderr for people (stdout stays the record).
void report_engine(profile::Record& rec, const EngineOptions& opt, bool numa_engine,
                   const engine::AccessCounts* counts, bool json);

}  // namespace numagraph::cli
