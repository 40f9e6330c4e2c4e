// A user's graph spread over the ranks: a 1-D partition of the dense vertex
// ids into contiguous blocks (rank r owns [blocks.begin[r], blocks.begin[r+1]),
// cut so that every rank holds about the same number of arcs), each rank
// holding the arcs of its own vertices with the far ends it does not own kept
// as ghost (mirror) vertices.
//
// Local index space of a rank: 0 .. local_n - 1 are its own vertices (dense
// id first + i); local_n .. local_n + ghosts() - 1 are its ghosts, in
// ascending global id, so the ghosts of one owner are one contiguous run.
// Neighbour lists hold local indices (32-bit: a rank's own vertices plus its
// ghosts stay below 2^32), sorted by global id, cleaned as the shared-memory
// builder cleans them (self-loops and parallel arcs dropped unless asked to
// keep them; the lightest of parallel arcs kept).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/graph/types.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

struct VertexBlocks {
  std::vector<std::int64_t> begin;  // size ranks + 1; begin[0] = 0, begin[ranks] = n
  int owner(std::uint64_t v) const {
    return static_cast<int>(std::upper_bound(begin.begin() + 1, begin.end(), static_cast<std::int64_t>(v)) -
                            begin.begin() - 1);
  }
};

struct DistCsr {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, ranks = 1;
  std::int64_t n = 0;            // vertices of the whole graph
  std::int64_t global_arcs = 0;  // out-arcs of the whole graph (2 per undirected edge)
  bool directed = true;          // false: every arc has its reverse, and in == out
  bool weighted = false;
  VertexBlocks blocks;
  std::int64_t first = 0;    // my vertices are dense ids [first, first + local_n)
  std::int64_t local_n = 0;

  // Ghosts: their global ids (ascending) and, per owner rank r, the run
  // [ghost_from[r], ghost_from[r + 1]) of ghost numbers (local index local_n + g).
  std::vector<std::uint64_t> ghost_global;
  std::vector<std::int64_t> ghost_from;
  // Mirrors: for every rank r, my vertices that r keeps as ghosts, in r's
  // ghost order: mirror_local[mirror_from[r] .. mirror_from[r + 1]).
  std::vector<std::uint32_t> mirror_local;
  std::vector<std::int64_t> mirror_from;

  CSRArrays<std::uint32_t> out;  // out-arcs of my vertices (local indices)
  CSRArrays<std::uint32_t> in;   // in-arcs of my vertices; empty when !directed (use in_arcs())
  // For the pull kernels: per ghost (ghost order), my vertices it has arcs
  // into, ascending, weights alongside (ghost_targets.hpp). Empty unless a
  // kernel asked for them.
  CSRArrays<std::uint32_t> ghost_targets;

  std::int64_t ghosts() const { return static_cast<std::int64_t>(ghost_global.size()); }
  std::int64_t local_total() const { return local_n + ghosts(); }
  const CSRArrays<std::uint32_t>& in_arcs() const { return directed ? in : out; }
  std::int64_t out_degree(std::int64_t v) const { return static_cast<std::int64_t>(out.offsets[v + 1] - out.offsets[v]); }
  std::int64_t in_degree(std::int64_t v) const {
    const auto& a = in_arcs();
    return static_cast<std::int64_t>(a.offsets[v + 1] - a.offsets[v]);
  }
  // Global dense id of a local index (own vertex or ghost).
  std::uint64_t global_of(std::uint32_t local) const {
    return local < local_n ? static_cast<std::uint64_t>(first + local) : ghost_global[local - local_n];
  }
  // Owner rank and owner-local index of a ghost number g.
  int ghost_owner(std::int64_t g) const { return blocks.owner(ghost_global[static_cast<std::size_t>(g)]); }
  bool owns(std::uint64_t v) const {
    return static_cast<std::int64_t>(v) >= first && static_cast<std::int64_t>(v) < first + local_n;
  }
};

}  // namespace numagraph::dist

namespace numagraph::dist {

// The arcs a kernel walks, which the block cut balances (with one unit per
// vertex): PageRank pulls along in-arcs, SSSP relaxes out-arcs, BFS (both
// directions) and CC walk both. In an undirected graph both are the same
// arcs, and every vertex weighs its degree.
enum class ArcWork { kOut, kIn, kBoth };

inline const char* arc_work_name(ArcWork w) {
  return w == ArcWork::kOut ? "out-arcs" : w == ArcWork::kIn ? "in-arcs" : "out-arcs and in-arcs";
}

// The block weight of a vertex of the given degrees.
inline std::int64_t vertex_work(std::int64_t out_degree, std::int64_t in_degree, bool directed, ArcWork w) {
  if (!directed) return out_degree + 1;
  return (w != ArcWork::kIn ? out_degree : 0) + (w != ArcWork::kOut ? in_degree : 0) + 1;
}

// The rank r with n*r/p <= v < n*(r+1)/p: the even split of ids that the
// block cut weighs its vertices on (and a .ngr's permutation is checked on).
inline int even_owner(std::uint64_t v, std::int64_t n, int p) {
  int r = static_cast<int>(
      std::min<unsigned __int128>(p - 1, static_cast<unsigned __int128>(v) * p / std::max<std::int64_t>(n, 1)));
  while (r > 0 && static_cast<std::int64_t>(v) < n * r / p) --r;
  while (r + 1 < p && static_cast<std::int64_t>(v) >= n * (r + 1) / p) ++r;
  return r;
}

// Refuses (ResourceError) blocks a rank could not address with 32-bit local
// indices. Every rank checks every block, so all give the same answer.
inline void require_addressable_blocks(const VertexBlocks& blocks) {
  for (std::size_t r = 0; r + 1 < blocks.begin.size(); ++r)
    if (blocks.begin[r + 1] - blocks.begin[r] >= (std::int64_t{1} << 32) - 1)
      throw ResourceError("a rank would own " + std::to_string(blocks.begin[r + 1] - blocks.begin[r]) +
                          " vertices, more than 32-bit local indices address: run with more ranks");
}

// Cuts [0, n) into comm's ranks so that each block's weight (the sum of
// weight[v] over its vertices) is about total / ranks. Collective. Each rank
// passes the weights of one contiguous run [lo, lo + weight.size()) of
// vertices; the runs of all ranks, in rank order, tile [0, n).
VertexBlocks balanced_blocks(std::int64_t n, std::int64_t lo, const std::vector<std::int64_t>& weight, MPI_Comm comm);

}  // namespace numagraph::dist
