// Machine topology from hwloc: NUMA nodes with their CPUs and memory, the
// package/core/PU counts and the node distance matrix. It comes from the real
// machine, an hwloc synthetic description ("pack:4 numa:1 core:2 pu:1") or an
// hwloc XML file, so every NUMA decision can be tested on any machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numagraph::numa {

struct Node {
  int index = 0;              // logical node number (0..nodes-1)
  int os_index = 0;           // the kernel's node id (what mbind uses)
  std::vector<int> cores;     // logical core ids, in order
  std::vector<std::vector<int>> core_pus;  // for each core, its PUs' os indexes
  std::uint64_t memory = 0;   // bytes local to the node
};

struct Topology {
  std::string source = "machine";  // "machine", the synthetic string, or the XML path
  bool synthetic = false;          // not this machine's real topology
  int packages = 0, cores = 0, pus = 0;
  std::vector<Node> nodes;
  std::vector<std::vector<int>> distance;  // node x node, 10 = local

  int num_nodes() const { return static_cast<int>(nodes.size()); }
  // One line: "4 nodes, 8 cores, 8 PUs (synthetic: pack:4 numa:1 core:2 pu:1)".
  std::string summary() const;

  static Topology from_machine();
  static Topology from_synthetic(const std::string& description);
  static Topology from_xml(const std::string& path);
  // `spec` empty: NUMAGRAPH_TOPOLOGY, else the machine. A spec ending in
  // ".xml" is a file; anything else is a synthetic description. Any of them
  // may end in " distances=R0/R1/..." with each row R a comma-separated list
  // of node distances, e.g. "pack:3 numa:1 core:1 distances=10,40,12/40,10,30/12,30,10",
  // to replace the distance matrix (hwloc's synthetic topologies carry none;
  // this is how tests and users model asymmetric machines).
  static Topology select(const std::string& spec);

  // Replaces the distance matrix: num_nodes() rows of num_nodes() positive
  // values (asymmetric allowed). Throws UsageError otherwise.
  void set_distances(std::vector<std::vector<int>> matrix);
};

// NUMA nodes that really exist here (numa_max_node()+1; 1 without libnuma).
int physical_nodes();

}  // namespace numagraph::numa
