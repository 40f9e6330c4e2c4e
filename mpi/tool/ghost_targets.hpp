// A rank's in-arc matrix read by column, for the pull kernels' tiled copy
// (PageRank; sweep/tiled_arcs.hpp's from_columns): rows my vertices,
// columns my vertices and ghosts. A shared CSR has its in-lists by column
// for free, as its out-lists; a rank has them for its own columns (the runs
// of my vertices in my out-lists) but not for its ghosts, whose out-lists
// live with their owners. add_ghost_targets() builds those at load, one
// counting sort of my in-arcs from ghosts; the tiled copy then needs no
// sort per call (kron20.el at 2 ranks: 0.056 s a call sorted from the
// rows, 0.037 s read from the columns, rank 0).
#pragma once

#include <cstdint>

#include "dist_csr.hpp"

namespace numagraph::dist {

// Fills g.ghost_targets from g.in_arcs(): one pass to count, one to place,
// over my in-arcs, by row ranges on the threads.
void add_ghost_targets(DistCsr& g);

// Column c of my in-arc matrix (needs g.ghost_targets): visit(row, weight)
// for its rows in ascending order. An own column's rows are the run of my
// vertices in its out-list (a list is sorted by global id: ghosts below my
// block, my vertices, ghosts above it).
struct BlockColumns {
  const DistCsr& g;
  bool weighted;

  template <typename Visit>
  void operator()(std::int64_t c, Visit&& visit) const {
    const auto own = static_cast<std::uint32_t>(g.local_n);
    if (c < g.local_n) {
      const eid_t* off = g.out.offsets.data();
      const std::uint32_t* nb = g.out.neighbors.data();
      eid_t j = off[c];
      const eid_t end = off[c + 1];
      while (j < end && nb[j] >= own) ++j;  // ghosts below my block
      for (; j < end && nb[j] < own; ++j) visit(nb[j], weighted ? g.out.weights[j] : weight_t{1});
      return;
    }
    const auto h = static_cast<std::size_t>(c - g.local_n);
    const eid_t* off = g.ghost_targets.offsets.data();
    const std::uint32_t* rows = g.ghost_targets.neighbors.data();
    for (eid_t j = off[h]; j < off[h + 1]; ++j) visit(rows[j], weighted ? g.ghost_targets.weights[j] : weight_t{1});
  }
};

}  // namespace numagraph::dist
