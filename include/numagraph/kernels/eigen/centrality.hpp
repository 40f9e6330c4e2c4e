// numagraph::eigenvector_centrality and numagraph::katz_centrality: the
// power iteration of options.hpp on the flat CSR (power_iteration.hpp) or
// the NUMA engine (engine_power_iteration.hpp), as the Execution chooses.
// Both read in-edges: the engine's pull parts.
#pragma once

#include <string>

#include "numagraph/kernels/eigen/engine_power_iteration.hpp"
#include "numagraph/kernels/eigen/options.hpp"
#include "numagraph/kernels/eigen/power_iteration.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using kernels::CentralityResult;
using kernels::EigenvectorOptions;
using kernels::KatzOptions;

namespace kernels {

template <typename V>
CentralityResult power_centrality(const CSRGraph<V>& g, const PowerIteration& p, const Execution& x,
                                  const char* problem, const char* what, bool require_convergence) {
  check_power_iteration(p);
  if (!g.has_in_edges())
    throw UsageError(std::string(what) + " sums over in-edges: build the graph with BuildOptions::in_edges = true");
  EngineCall<V> call(g, x, problem, {.push = false, .out = false});
  CentralityResult r;
  if (call.engine()) {
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return power_iteration_numa(pg, p, mode, acc);
    });
  } else {
    r = call.run_flat([&] { return power_iteration_pull(call.graph(), p); });
  }
  unpermute(r, call.ids());
  r.ran = call.info();
  if (require_convergence && !r.converged) throw not_converged(what, r, p, g.num_vertices());
  return r;
}

}  // namespace kernels

// Eigenvector centrality as networkx.eigenvector_centrality, in the caller's ids.
template <typename V>
CentralityResult eigenvector_centrality(const CSRGraph<V>& g, const EigenvectorOptions& o = {},
                                        const Execution& x = {}) {
  return kernels::power_centrality(g, kernels::power_iteration_of(g, o), x, "eigenvector_centrality", "eigenvector centrality",
                                   o.require_convergence);
}

// Katz centrality as networkx.katz_centrality (one beta for every vertex), in the caller's ids.
template <typename V>
CentralityResult katz_centrality(const CSRGraph<V>& g, const KatzOptions& o = {}, const Execution& x = {}) {
  return kernels::power_centrality(g, kernels::power_iteration_of(g, o), x, "katz_centrality", "Katz centrality",
                                   o.require_convergence);
}

}  // namespace numagraph
