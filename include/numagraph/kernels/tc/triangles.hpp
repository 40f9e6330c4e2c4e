// numagraph::triangles — the triangle-counting entry point: ordered
// intersection (ordered_intersection.hpp), flat only. Needs a simple
// undirected graph.
#pragma once

#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/tc/ordered_intersection.hpp"

namespace numagraph {

struct TcOptions {
  bool per_vertex = false;  // also count the triangles through each vertex (networkx.triangles)
};

namespace kernels {
// What a graph's cache keeps for triangle counting: whether its input check
// (undirected, no parallel edges: one pass over the arcs) has passed.
struct TcWorkspace {
  bool checked_input = false;
};
}  // namespace kernels

struct TcResult {
  std::int64_t triangles = 0;
  bool relabelled = false;             // the count ran on vertices renumbered by degree
  NumaArray<std::int64_t> per_vertex;  // with per_vertex: triangles through each vertex
  CallInfo ran;
};

// Brings the per-vertex counts of a run on a renumbered graph back to the
// caller's ids (EngineCall::ids()); the total is the same in any order.
template <typename V>
void unpermute(TcResult& r, const reorder::Permutation<V>& ids) {
  kernels::to_caller_order(r.per_vertex, ids);
}

// Counts in the caller's ids; runs on the graph in Execution::reorder's
// order (the count's own renumbering by degree, `relabelled`, comes on top).
template <typename V>
TcResult triangles(const CSRGraph<V>& g, const TcOptions& o = {}, const Execution& x = {}) {
  kernels::require_flat(x, "triangle counting");
  kernels::EngineCall<V> call(g, x, "triangles", {});
  auto& ws = call.template workspace<kernels::TcWorkspace>();
  if (!ws.checked_input) {  // once per graph and cache, timed apart as the call's setup
    call.setup([&] { kernels::tc_detail::require_simple_undirected(call.graph()); });
    ws.checked_input = true;
  }
  TcResult r;
  call.run_flat([&] {
    if (o.per_vertex) {
      r.per_vertex = kernels::triangles_per_vertex(call.graph(), false);
      std::int64_t corners = 0;
      for (const std::int64_t t : r.per_vertex) corners += t;
      r.triangles = corners / 3;
    } else {
      r.triangles = kernels::triangles_ordered(call.graph(), &r.relabelled, false);
    }
  });
  unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
