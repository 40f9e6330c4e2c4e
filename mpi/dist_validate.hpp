// Distributed validation of a BFS tree with the rules of the shared serial
// verifier (include/numagraph/verify/bfs.hpp, the Graph500 checks):
//  1. the root is its own parent at depth 0, and no other vertex has depth 0;
//  2. a vertex has a parent iff it has a depth;
//  3. every tree edge parent[v] -> v is an edge of the graph and
//     depth[v] = depth[parent[v]] + 1;
//  4. every edge u - v with u reached has v reached and depth[v] <= depth[u] + 1.
// Method: the depth array is allgathered (4 bytes per vertex on every rank,
// fine up to SCALE ~28), then each rank checks its own vertices and their
// adjacency; an undirected edge is stored at both endpoints' owners, so rule 4
// is checked in both directions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "comm.hpp"
#include "dist_graph.hpp"

namespace numagraph::dist {

struct Verdict {
  bool ok = true;
  std::string message;  // the first failure in vertex order (rank 0 only)
};

// Collective. `all_depth` is scratch space, kept between calls.
Verdict validate_bfs(const Layout& layout, const DistGraph& g, std::uint64_t root, const std::int64_t* parent,
                     const std::int32_t* depth, std::vector<std::int32_t>& all_depth);

// Collective: the depth of every vertex, in vertex order, on every rank.
void allgather_depths(const Layout& layout, const DistGraph& g, const std::int32_t* depth,
                      std::vector<std::int32_t>& all_depth);

// Collective: undirected edges with a reached endpoint (the Graph500 TEPS
// numerator, counted on the deduplicated graph like `numagraph bfs`).
std::int64_t traversed_edges(const Layout& layout, const DistGraph& g, const std::int64_t* parent);

}  // namespace numagraph::dist
