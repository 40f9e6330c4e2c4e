// Where the pages of a big array go. Every large array in numagraph is a
// NumaArray with one of these placements, so placement is always explicit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace numagraph::numa {

enum class PlacementKind {
  kLocal,        // first touch by the threads that will use each block
  kInterleave,   // pages round-robin over the chosen nodes
  kBind,         // every page on one node
  kPartitioned,  // one contiguous block per node (see partition.hpp)
  kReplicated,   // one read-only copy per node
};

enum class PageSize { k4K, kTHP, k2M, k1G };

// Nodes are topology nodes (0..nodes-1 of numa::Runtime's topology).
struct Placement {
  PlacementKind kind = PlacementKind::kLocal;
  int node = 0;  // for kBind
  // kPartitioned: element i lives on node k for bounds[k] <= i < bounds[k+1]
  // (from numa::partition_ranges); null = split by element count.
  std::shared_ptr<const std::vector<std::int64_t>> bounds;
  // kInterleave: the nodes to spread over; empty = every node of the topology.
  std::vector<int> nodes;
  // The role of the array (numa/roles.hpp), set by placement_for: the
  // placement report records arrays that have one. by_role: the placement
  // came from the role's own policy (--place), not from the site's default.
  const char* role = nullptr;
  bool by_role = false;
  static Placement local() { return {}; }
  static Placement interleave() { return of(PlacementKind::kInterleave); }
  static Placement interleave(std::vector<int> over) {
    Placement p = of(PlacementKind::kInterleave);
    p.nodes = std::move(over);
    return p;
  }
  static Placement bind(int node) { return of(PlacementKind::kBind, node); }
  static Placement partitioned(std::shared_ptr<const std::vector<std::int64_t>> b = nullptr) {
    Placement p = of(PlacementKind::kPartitioned);
    p.bounds = std::move(b);
    return p;
  }
  // The copy for `node` of a replicated array (engine::Replicas holds one per
  // node); placed like bind(node), reported as a replica.
  static Placement replicated(int node) { return of(PlacementKind::kReplicated, node); }
  static Placement of(PlacementKind kind, int node = 0) {
    Placement p;
    p.kind = kind;
    p.node = node;
    return p;
  }

  // Partitioned and split by element count (no explicit bounds): under one
  // topology every such array of a given size has the same node ranges, so
  // one can stand in for another (the engine recycles its results this way).
  bool partitioned_by_count() const { return kind == PlacementKind::kPartitioned && !bounds; }
};

// The placement NumaArray uses when a caller names none: --placement (local
// by default). Set by numa::Runtime::configure.
Placement default_placement();
void set_default_placement(PlacementKind kind);

std::string to_string(PlacementKind kind);
std::string to_string(PageSize size);

}  // namespace numagraph::numa
