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
#include "numagraph/parallel/parallel.hpp"

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

// One BFS level through edge_map: cond/update for pulls, update_atomic for
// pushes (vertices claimed concurrently). Without the degree-reporting
// overloads, so edge_map reads the degrees itself.
struct LevelStep {
  std::int32_t* level;
  std::int32_t next;
  bool cond(std::uint32_t v) const { return parallel::load_relaxed(level[v]) < 0; }
  bool update(std::uint32_t, std::uint32_t v) {
    level[v] = next;
    return true;
  }
  bool update_atomic(std::uint32_t, std::uint32_t v) {
    return parallel::compare_and_swap(level[v], std::int32_t{-1}, next);
  }
};

}  // namespace numagraph::engine_test
