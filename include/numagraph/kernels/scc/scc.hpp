// numagraph::strongly_connected_components — the SCC entry point: forward-
// backward search with trimming and colouring (forward_backward.hpp) on a
// directed graph, or Tarjan's search (tarjan.hpp) when the call runs on one
// thread (a graph below the serial cut-off, kernels/thread_budget.hpp, or a
// pool of one). On an undirected graph every edge goes both ways, so the
// SCCs are the connected components: it runs connected components' Afforest
// (cc/afforest.hpp) and labels them the same way. Flat kernel only.
#pragma once

#include "numagraph/kernels/cc/afforest.hpp"
#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/scc/forward_backward.hpp"
#include "numagraph/kernels/scc/options.hpp"
#include "numagraph/kernels/scc/tarjan.hpp"

namespace numagraph {

using kernels::SccOptions;
using kernels::SccResult;

// Labels in the caller's ids (each SCC's smallest id); runs on the graph in
// Execution::reorder's order.
template <typename V>
SccResult<V> strongly_connected_components(const CSRGraph<V>& g, const SccOptions& o = {}, const Execution& x = {}) {
  kernels::require_flat(x, "strongly connected components");
  kernels::require_scc_input(g);
  kernels::EngineCall<V> call(g, x, "strongly_connected_components", {});
  SccResult<V> r;
  call.run_flat([&] {
    if (call.graph().directed()) {
      r = parallel::max_threads() == 1 ? kernels::scc_tarjan(call.graph(), o)
                                       : kernels::scc_forward_backward(call.graph(), o);
    } else {
      r.labels = kernels::components_afforest(call.graph());
      kernels::label_by_smallest_member(r.labels);
    }
  });
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
