// The distributed CSR build from an edge list with dense ids spread over the
// ranks (each rank holds some edges, any vertices): the same graph
// build_graph makes, cut into blocks.
//
//  1. Block cut: the arc ends a kernel walks (ArcWork) are counted at each
//     vertex's provisional owner (an even split of the ids; a sample of the
//     arcs when there are many), and balanced_blocks cuts the ids so that
//     each rank gets about the same of those arcs plus vertices.
//  2. Arc shuffle, in rounds that bound the send buffer: each arc goes to the
//     owner of its source (out-lists); undirected edges go both ways (a
//     self-loop once), as build_graph stores them. For directed graphs the
//     edge list is then freed and every received out-arc is sent on, turned
//     around, to the owner of its target (in-lists).
//  3. local_lists.hpp: ghosts, mirror lists, and 32-bit lists cleaned by the
//     shared-memory builder's own sort_and_clean_lists (sorted by (id,
//     weight), self-loops and parallel arcs dropped unless kept, the lightest
//     of parallel arcs kept).
#pragma once

#include <mpi.h>

#include <vector>

#include "dist_csr.hpp"
#include "local_lists.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::dist {

struct BuildCounts {
  std::int64_t self_loops_removed = 0;  // over all ranks, as BuildReport counts them
  std::int64_t duplicates_removed = 0;
  std::int64_t self_loops_kept = 0;
  double cut_s = 0, shuffle_s = 0, lists_s = 0;  // this rank's time in steps 1, 2 and 3
};

// Consumes e (dense ids below n). Collective.
DistCsr build_dist_csr(EdgeList& e, std::int64_t n, bool undirected, bool drop_self_loops, bool dedupe, ArcWork work,
                       MPI_Comm comm, BuildCounts& counts);

// Sends each of my out-arcs (rows: my vertices, first + row) to the owner of
// its far end as that vertex's in-arc, appending what arrives to `into`.
// Collective; A is Arc or BareArc.
template <typename A>
void turn_around(const std::vector<A>& out, std::int64_t first, const VertexBlocks& blocks, MPI_Comm comm,
                 std::vector<A>& into);

}  // namespace numagraph::dist
