// Distributed direction-optimizing BFS (Beamer, Asanovic, Patterson, SC 2012)
// on a DistCsr: every rank searches its own block of vertices, OpenMP threads
// inside it, and the ranks meet twice per level: to move the frontier, and
// to sum its size.
//
// Top-down levels (small frontiers) keep the frontier as a queue of local
// vertices and scan their out-arcs: an own target is claimed at once (a
// compare-and-swap on its parent); a ghost target is sent to its owner as
// (owner-local index, sender-local parent) in one exchange(), and the owner
// claims what arrives. Each ghost is sent at most once per search: once its
// owner has heard of it, the owner has it visited, so a flag per ghost cuts
// the repeats (Kronecker hubs are reached from thousands of arcs).
// Bottom-up levels (large frontiers) let every unvisited own vertex scan its
// in-arcs (g.in_arcs(), ghosts included) for a parent in the frontier and stop
// at the first. The frontier is a bitmap over local indices: own bits are
// written by the step itself, ghost bits arrive from their owners over the
// mirror lists (see GhostFrontier in bfs.cpp for why that beats an allgather
// of a global bitmap).
// There is no summary bitmap on top (the shared kernel's probe): the bitmap
// covers one rank's vertices and ghosts, a fraction of n bits, and bottom-up
// runs only while the frontier is large, where most summary bits would be
// set (the shared kernel then skips its summary too).
// The switch is the shared-memory kernel's rule (kernels/bfs/
// direction_optimizing.hpp) on global sums: bottom-up when the frontier's
// out-arcs exceed the unexplored arcs / alpha and are at least n / beta; back
// to top-down when the frontier holds fewer than n / beta vertices; only
// top-down levels count arcs as explored. So the step counts equal the flat
// kernel's on the same graph, whatever the ranks.
//
// Depths do not depend on ranks or threads; parents may (any BFS tree is a
// right answer: the parent sits one level up and has an arc to the vertex).
#pragma once

#include <cstdint>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/kernels/bfs/options.hpp"
#include "step_times.hpp"

namespace numagraph::dist {

struct DistBfsResult {
  std::vector<std::int32_t> depth;   // per own vertex; -1: unreached
  std::vector<std::int64_t> parent;  // per own vertex, a global dense id; -1: unreached; the root's is itself
  int top_down_steps = 0;
  int bottom_up_steps = 0;
};

// Collective over g.comm. `root` is a global dense id (< g.n, the same on
// every rank: the caller checks it). Uses o.alpha and o.beta; summary_bits
// and compute_depth do not apply (the depth comes with the search).
DistBfsResult bfs(const DistCsr& g, std::int64_t root, const kernels::BfsOptions& o, StepTimes& t);

}  // namespace numagraph::dist
