// Builder: edge array -> CSRGraph, in parallel, without a global sort.
//
// Method: count degrees with atomic increments, prefix-sum them into offsets,
// scatter each edge into its source's slot range, then sort each neighbour
// list on its own (short lists, cache resident) and compact away self-loops
// and duplicates when asked. Peak memory is the input EdgeList plus at most
// two CSRs (the scattered one and the compacted one); docs/building.md has the
// measured figures.
#pragma once

#include <cstdint>
#include <string>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph {

enum class Relabel {
  kOff,   // ids are used as given; |V| = max id + 1 (or the declared count)
  kOn,    // compact the distinct ids to 0..k-1, keep the originals as labels
  kAuto,  // kOn when ids are sparse, or when a file's integer ids start above 0, with a notice
};

struct BuildOptions {
  bool symmetrize = false;       // add the reverse of every edge: an undirected graph
  bool drop_self_loops = false;  // remove u->u
  bool dedupe = false;           // keep one of parallel edges (the smallest weight)
  bool in_edges = true;          // directed graphs: also build the in-edge CSR
  Relabel relabel = Relabel::kAuto;
  bool force_64bit_ids = false;  // use 64-bit ids even for small graphs (tests)
};

// What the builder did, for `numagraph info`, logs and Python.
struct BuildReport {
  std::int64_t input_edges = 0;
  std::int64_t self_loops_removed = 0;
  std::int64_t duplicates_removed = 0;  // arcs removed (undirected: both directions count)
  bool relabelled = false;
  bool relabel_was_automatic = false;
  std::uint64_t max_input_id = 0;
  int id_bits = 32;
  std::string notice;  // human-readable note (automatic relabel...), empty if none
  // The reader's decisions (EdgeList::decisions) plus the builder's: "directed"
  // (settled by symmetrize) and "relabel" (its note is also in `notice`).
  InputDecisions decisions;
};

// Builds the graph; `edges` is consumed (its ids may be rewritten in place).
// Throws InputError when an id is >= a declared vertex count.
AnyGraph build_graph(EdgeList&& edges, const BuildOptions& options, BuildReport* report = nullptr);

// Counts duplicate arcs (same source and target) in a built graph: the input
// to `numagraph info`. Neighbour lists are sorted, so this is one pass.
template <typename V>
std::int64_t count_duplicate_arcs(const CSRGraph<V>& g);

}  // namespace numagraph
