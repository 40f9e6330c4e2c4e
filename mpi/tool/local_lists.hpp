// A rank's part of the distributed CSR from the arcs it received: the
// neighbour lists of its own vertices in 32-bit local indices, its ghosts
// (far ends it does not own) and the mirror lists agreed with their owners.
//
// The far end of every arc is turned into an *order id* first: ghosts below
// my block, then my vertices, then ghosts above it, each run in global order.
// Order ids sort as the global ids do, so the shared builder's
// sort_and_clean_lists cleans the 32-bit lists exactly as it would the global
// ones, and then a constant shift per run turns them into local indices
// (dist_csr.hpp: my vertices first, then all ghosts). No 64-bit copy of the
// lists is ever made.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::dist {

// One arc on its way to, or at, the owner of the vertex whose list holds it
// (the row as an index into the owner's block): 16 bytes with its weight,
// 12 without. The arcs a rank receives are most of its peak memory.
struct Arc {
  std::uint64_t col;  // the other end (global dense id)
  std::uint32_t row;  // the vertex whose list holds the arc, minus its owner's first id
  weight_t w;
  weight_t weight() const { return w; }
};
static_assert(sizeof(Arc) == 16);

struct [[gnu::packed]] BareArc {
  std::uint64_t col;
  std::uint32_t row;
  weight_t weight() const { return 1; }
};
static_assert(sizeof(BareArc) == 12);

template <typename A>
A make_arc(std::uint64_t col, std::uint32_t row, weight_t w) {
  if constexpr (std::is_same_v<A, Arc>)
    return Arc{col, row, w};
  else
    return BareArc{col, row};
}

struct LocalListCounts {
  std::int64_t self_loops_removed = 0;  // this rank's out-lists only, as BuildReport counts them
  std::int64_t duplicates_removed = 0;
  std::int64_t self_loops_kept = 0;
};

// Finishes a DistCsr whose comm, rank, ranks, n, directed, weighted, blocks,
// first and local_n are set, from the arcs of my vertices: `out` (out-lists)
// and, when g.directed, `in` (in-lists; ignored otherwise). Both are
// consumed, each freed as soon as its lists are built. Lists are sorted by
// (global id, weight) and cleaned as build_graph cleans them. Collective.
// A is Arc, or BareArc for an unweighted graph.
template <typename A>
LocalListCounts finish_local_csr(DistCsr& g, std::vector<A>&& out, std::vector<A>&& in, bool drop_self_loops,
                                 bool dedupe);

// Lists already sorted by global id, as a .ngr holds them: list i (my
// vertex first + i) is ids[offsets[i] .. offsets[i + 1]) (positions in the
// whole file's arrays), 32- or 64-bit ids, weights when the graph has them.
struct SortedLists {
  const eid_t* offsets = nullptr;  // local_n + 1 entries; nullptr: no lists
  const void* ids = nullptr;
  int id_bits = 32;
  const weight_t* weights = nullptr;
  std::uint64_t id(eid_t k) const {
    return id_bits == 32 ? static_cast<const std::uint32_t*>(ids)[k] : static_cast<const std::uint64_t*>(ids)[k];
  }
};

// As above, from sorted lists read in place (no arcs): the far ends become
// local indices directly, and the lists are cleaned in one linear pass.
LocalListCounts finish_local_csr(DistCsr& g, const SortedLists& out, const SortedLists& in, bool drop_self_loops,
                                 bool dedupe);

}  // namespace numagraph::dist
