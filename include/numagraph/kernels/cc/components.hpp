// numagraph::connected_components — the connected-components entry point:
// Afforest (afforest.hpp, engine_afforest.hpp), Shiloach-Vishkin
// (shiloach_vishkin.hpp, flat only) or label propagation
// (engine_label_propagation.hpp, engine only), as the options and the
// Execution choose. An explicit sv or lp decides engine auto.
#pragma once

#include "numagraph/kernels/cc/afforest.hpp"
#include "numagraph/kernels/cc/engine_afforest.hpp"
#include "numagraph/kernels/cc/engine_label_propagation.hpp"
#include "numagraph/kernels/cc/options.hpp"
#include "numagraph/kernels/cc/shiloach_vishkin.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using kernels::CcOptions;
using kernels::CcResult;
using kernels::CcVariant;

// Labels in the caller's ids; runs on the graph in Execution::reorder's order.
template <typename V>
CcResult<V> connected_components(const CSRGraph<V>& g, const CcOptions& o = {}, const Execution& x = {}) {
  Execution xe = x;
  if (o.variant == CcVariant::kShiloachVishkin) {
    kernels::require_flat(x, "connected components' variant sv");
    xe.engine = EngineChoice::kFlat;
  } else if (o.variant == CcVariant::kLabelPropagation) {
    if (x.engine == EngineChoice::kFlat)
      throw UsageError("the CC variant lp runs on the NUMA engine only: use --engine numa or auto, "
                       "or the variant afforest or sv");
    xe.engine = EngineChoice::kNuma;
  }
  kernels::EngineCall<V> call(g, xe, "connected_components", {.push = false, .out = true});
  CcResult<V> r;
  if (call.engine()) {
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return o.variant == CcVariant::kLabelPropagation ? kernels::connected_components_numa(pg, mode, acc)
                                                       : kernels::components_afforest_numa(pg, mode, acc);
    });
  } else {
    r.labels = call.run_flat([&] {
      return o.variant == CcVariant::kShiloachVishkin ? kernels::components_shiloach_vishkin(call.graph())
                                                      : kernels::components_afforest(call.graph());
    });
  }
  kernels::unpermute(r, call.ids());
  r.variant = o.variant;
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
