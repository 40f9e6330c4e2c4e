// Where the pages of a big array go. Every large array in numagraph is a
// NumaArray with one of these placements, so placement is always explicit.
#pragma once

#include <cstdint>
#include <string>

namespace numagraph::numa {

enum class PlacementKind {
  kLocal,        // first touch by the threads that will use each block
  kInterleave,   // pages round-robin over the chosen nodes
  kBind,         // every page on one node
  kPartitioned,  // one contiguous block per node (see partition.hpp)
  kReplicated,   // one read-only copy per node
};

enum class PageSize { k4K, kTHP, k2M, k1G };

struct Placement {
  PlacementKind kind = PlacementKind::kLocal;
  int node = 0;  // for kBind
  static Placement local() { return {}; }
  static Placement interleave() { return {PlacementKind::kInterleave, 0}; }
  static Placement bind(int node) { return {PlacementKind::kBind, node}; }
  static Placement partitioned() { return {PlacementKind::kPartitioned, 0}; }
  static Placement replicated() { return {PlacementKind::kReplicated, 0}; }
};

std::string to_string(PlacementKind kind);
std::string to_string(PageSize size);

}  // namespace numagraph::numa
