// Whether a kernel's parallel loops give each thread an equal share of the
// work (a static split) instead of handing out chunks from a shared counter.
//
// On sparse graphs (road networks, meshes, grids: a few arcs per vertex)
// every vertex costs about the same, so equal shares balance; a level-
// synchronous kernel's frontier is the threads' discoveries side by side, so
// a thread's share is mostly what it found itself, whose lines its cache
// holds; and no counter line moves between the cores at every chunk. On
// skewed, denser graphs a few hubs make equal shares unequal work. The
// push-only BC search (bc/brandes.hpp) splits its levels by this rule too.
// Used by BFS's top-down runs, SSSP's rounds and the unblocked Jacobi
// PageRank sweep. Measured per kernel: docs/kernels/bfs.md, sssp.md, pr.md.
#pragma once

namespace numagraph::kernels {

// Graphs of fewer arcs per vertex than this split statically.
inline constexpr double kStaticSplitBelowDegree = 8;

template <typename G>
bool splits_statically(const G& g) {
  return static_cast<double>(g.num_arcs()) < kStaticSplitBelowDegree * static_cast<double>(g.num_vertices());
}

}  // namespace numagraph::kernels
