// numagraph::pagerank — the PageRank entry point: Jacobi or Gauss-Seidel
// pull sweeps on the flat kernels (pull_jacobi.hpp, pull_gauss_seidel.hpp) or
// Jacobi on the NUMA engine (engine_jacobi.hpp), as the options and the
// Execution choose. With edge weights or a personalization the model is
// NetworkX's weighted one (model.hpp), run by Jacobi only, on either engine
// (pull_jacobi_weighted.hpp, engine_jacobi_weighted.hpp).
#pragma once

#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/pr/engine_jacobi.hpp"
#include "numagraph/kernels/pr/engine_jacobi_weighted.hpp"
#include "numagraph/kernels/pr/model.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/kernels/pr/pull_jacobi_weighted.hpp"

namespace numagraph {

using kernels::PageRankOptions;
using kernels::PageRankResult;
using kernels::PageRankVariant;

// Scores in the caller's ids; the sweeps run on the graph in
// Execution::reorder's order.
template <typename V>
PageRankResult pagerank(const CSRGraph<V>& g, const PageRankOptions& o = {}, const Execution& x = {}) {
  using kernels::PageRankVariant;
  if (!(o.damping >= 0 && o.damping <= 1))
    throw UsageError("the damping factor must be in [0, 1] (got " + std::to_string(o.damping) + ")");
  if (o.max_iterations < 1) throw UsageError("PageRank needs at least 1 iteration");
  if (!(o.tolerance >= 0)) throw UsageError("the tolerance must be zero or positive");
  if (o.variant == PageRankVariant::kGaussSeidel && o.networkx)
    throw UsageError("NetworkX's PageRank is a Jacobi iteration: use the jacobi (or auto) variant with networkx");
  const bool general = kernels::pagerank_general_model(g, o);
  if (general) {
    kernels::check_pagerank_model(g, o);
    if (o.variant == PageRankVariant::kGaussSeidel)
      throw UsageError(std::string("Gauss-Seidel PageRank runs the unweighted, unpersonalized model only: use the "
                                   "jacobi (or auto) variant ") +
                       (kernels::pagerank_weights_used(g, o)
                            ? "on a weighted graph, or ignore the weights (--unweighted, weight=None in Python)"
                            : "with a personalization or dangling distribution"));
  }
  // An explicit Gauss-Seidel decides engine auto (the engine has Jacobi only).
  Execution xe = x;
  if (o.variant == PageRankVariant::kGaussSeidel) {
    kernels::require_flat(x, "Gauss-Seidel PageRank");
    xe.engine = EngineChoice::kFlat;
  }
  kernels::EngineCall<V> call(g, xe, "pagerank", {.push = false, .out = false});
  PageRankResult r;
  if (call.engine()) {
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      if (general)
        return kernels::pagerank_numa_weighted(pg, o, kernels::make_pagerank_model(pg.graph(), o, call.ids()), mode,
                                               acc);
      return kernels::pagerank_numa(pg, o, mode, acc);
    });
  } else {
    const bool jacobi = o.variant == PageRankVariant::kJacobi || o.networkx || general;
    r = call.run_flat([&] {
      const auto& kg = call.graph();
      if (general) return kernels::pagerank_pull_jacobi_weighted(kg, o, kernels::make_pagerank_model(kg, o, call.ids()));
      return jacobi ? kernels::pagerank_pull_jacobi(kg, o) : kernels::pagerank_pull_gauss_seidel(kg, o);
    });
    r.variant = jacobi ? PageRankVariant::kJacobi : PageRankVariant::kGaussSeidel;
  }
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
