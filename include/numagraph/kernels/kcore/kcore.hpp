// numagraph::core_numbers — the k-core decomposition entry point: the
// coreness of every vertex of an undirected graph, by level-synchronous
// peeling on the flat kernel (peeling.hpp) or the NUMA engine
// (engine_peeling.hpp), as the Execution chooses.
#pragma once

#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/kcore/engine_peeling.hpp"
#include "numagraph/kernels/kcore/options.hpp"
#include "numagraph/kernels/kcore/peeling.hpp"
#include "numagraph/util/error.hpp"

#include <string>

namespace numagraph {

using kernels::KcoreOptions;
using kernels::KcoreResult;

// Core numbers in the caller's ids; runs on the graph in Execution::reorder's order.
template <typename V>
KcoreResult<V> core_numbers(const CSRGraph<V>& g, const KcoreOptions& o = {}, const Execution& x = {}) {
  kernels::require_kcore_input(g);
  if (!(o.pull_ratio >= 0 || o.pull_ratio == -1))
    throw UsageError("KcoreOptions::pull_ratio must be 0 or more, or -1 for the default rule (got " +
                     std::to_string(o.pull_ratio) + ")");
  // Push parts for the sparse rounds (the same partitioned graph as BFS's,
  // so a cache serves both).
  kernels::EngineCall<V> call(g, x, "core_numbers", {.push = true, .out = false});
  KcoreResult<V> r;
  if (call.engine()) {
    if (o.pull_ratio != KcoreOptions{}.pull_ratio)
      throw UsageError("KcoreOptions::pull_ratio applies to the flat peeling; the NUMA engine has its own rule: "
                       "keep the default or run with EngineChoice::kFlat");
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::core_numbers_numa(pg, o, mode, acc);
    });
  } else {
    r = call.run_flat([&] { return kernels::core_numbers_peeling(call.graph(), o); });
  }
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
