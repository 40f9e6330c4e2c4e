// numagraph::belief_propagation — the loopy belief propagation entry point
// (model: model.hpp): per-arc messages on the flat kernel (per_arc.hpp) or
// the NUMA engine (engine_per_arc.hpp), as the Execution chooses.
#pragma once

#include "numagraph/kernels/bp/engine_per_arc.hpp"
#include "numagraph/kernels/bp/model.hpp"
#include "numagraph/kernels/bp/per_arc.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using BpOptions = kernels::bp::Model;
using BpResult = kernels::bp::Result;

// Beliefs in the caller's ids, each vertex with the prior of its caller id;
// runs on the graph in Execution::reorder's order.
template <typename V>
BpResult belief_propagation(const CSRGraph<V>& g, const BpOptions& o = {}, const Execution& x = {}) {
  if (o.iterations < 1) throw UsageError("belief propagation needs at least 1 iteration");
  if (!(o.coupling >= 0 && o.coupling <= 1))
    throw UsageError("the coupling must be in [0, 1] (got " + std::to_string(o.coupling) + ")");
  kernels::EngineCall<V> call(g, x, "belief_propagation", {.push = false, .out = false});
  // Kernel vertex k takes the prior of caller vertex prior_id[k].
  const V* prior_id = call.ids().identity() ? nullptr : call.ids().old_of_new.data();
  BpResult r;
  if (call.engine()) {
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::belief_propagation_numa(pg, o, mode, acc, prior_id);
    });
  } else {
    r.belief = call.run_flat([&] { return kernels::belief_propagation(call.graph(), o, prior_id); });
  }
  kernels::bp::unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
