// Shared helpers of the engine tests (test_engine_infrastructure.cpp and the
// engine-variant tests in each kernel's test_<kernel>.cpp): Kronecker graphs
// with 32-bit ids, node-major layouts, and the synthetic topologies (nodes,
// threads) every engine test runs on.
#pragma once

#include <cstdint>
#include <utility>
#include <variant>

#include "numagraph/engine/layout.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"

namespace numagraph::engine_test {

inline Graph32 kron(int scale, bool directed, bool weighted = false) {
  GeneratorOptions o;
  o.scale = scale;
  o.edge_factor = 8;
  o.weighted = weighted;
  EdgeList e = generate_kronecker(o);
  e.undirected = !directed;
  BuildOptions b;
  b.dedupe = true;
  b.drop_self_loops = true;
  return std::get<Graph32>(build_graph(std::move(e), b));
}

// A root that reaches something (Kronecker graphs have isolated vertices).
inline std::uint32_t first_vertex_with_edges(const Graph32& g) {
  std::uint32_t v = 0;
  while (g.out_degree(v) == 0) ++v;
  return v;
}

inline engine::Layout layout_for(const Graph32& g, int nodes, int threads) {
  return engine::Layout::make(nodes, engine::Layout::node_major(nodes, threads), g.num_vertices(),
                              g.in_arrays().offsets.data());
}

struct Topo {
  int nodes, threads;
};
inline constexpr Topo kTopologies[] = {{1, 1}, {1, 2}, {2, 2}, {4, 4}, {8, 8}, {8, 2}, {4, 3}};

}  // namespace numagraph::engine_test
