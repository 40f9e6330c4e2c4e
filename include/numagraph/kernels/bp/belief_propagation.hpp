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

template <typename V>
BpResult belief_propagation(const CSRGraph<V>& g, const BpOptions& o = {}, const Execution& x = {}) {
  if (o.iterations < 1) throw UsageError("belief propagation needs at least 1 iteration");
  if (!(o.coupling >= 0 && o.coupling <= 1))
    throw UsageError("the coupling must be in [0, 1] (got " + std::to_string(o.coupling) + ")");
  kernels::EngineCall<V> call(g, x, "belief_propagation", {.push = false, .out = false});
  BpResult r;
  if (call.engine()) {
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::belief_propagation_numa(pg, o, mode, acc);
    });
  } else {
    r.belief = call.run_flat([&] { return kernels::belief_propagation(g, o); });
  }
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
