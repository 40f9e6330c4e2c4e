// Deterministic parallel graph generators. The same (kind, scale, edge factor,
// seed) gives the same edges whatever the thread count: every edge is drawn
// from a counter-based random stream indexed by the edge number.
#pragma once

#include <cstdint>

#include "numagraph/graph/types.hpp"

namespace numagraph {

inline constexpr std::uint64_t kDefaultSeed = 27491095;

struct GeneratorOptions {
  int scale = 16;            // 2^scale vertices (grid: a 2^(scale/2) x 2^(scale - scale/2) grid)
  int edge_factor = 16;      // edges = edge_factor * 2^scale (kron, uniform)
  std::uint64_t seed = kDefaultSeed;
  bool weighted = false;     // integer weights uniform in [1, 255]
};

// Graph500 Kronecker (A=0.57, B=0.19, C=0.19), vertex ids scrambled by a
// seeded permutation as the Graph500 spec requires; undirected.
EdgeList generate_kronecker(const GeneratorOptions& options);
// Edges [begin, end) of the Kronecker graph `options` describes, written to
// src/dst (and weights when not null): lets MPI ranks generate their share of
// the same graph.
void kronecker_edges(const GeneratorOptions& options, std::int64_t begin, std::int64_t end,
                     std::uint64_t* src, std::uint64_t* dst, weight_t* weights);
// Uniform random endpoints (Erdos-Renyi-like multigraph); undirected.
EdgeList generate_uniform(const GeneratorOptions& options);
// 2-D grid (4-neighbour mesh), road-like and high-diameter; undirected.
// Weights, when asked, are uniform in [1, 255].
EdgeList generate_grid(const GeneratorOptions& options);

}  // namespace numagraph
