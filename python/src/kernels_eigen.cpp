// Eigenvector and Katz centrality from Python: options in, the entry point
// on the worker thread (GIL released), the values as a NumPy array plus the
// iteration count, the last L1 change and whether the run converged (the
// Python functions raise their own error, in Python's words, when not).
#include <memory>
#include <optional>

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "common.hpp"
#include "progress.hpp"
#include "numagraph/kernels/eigen/centrality.hpp"

namespace numagraph::py {
namespace {

template <typename F>
CentralityResult centrality_on_worker(const PyGraph& pg, const std::string& engine, F f) {
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  Execution x;
  x.engine = parse_engine(engine);
  auto out = std::make_shared<std::optional<CentralityResult>>();
  run_job([graph, cache, x, out, f]() mutable {
    x.cache = cache.get();
    *out = numagraph::visit([&](const auto& g) { return f(g, x); }, *graph);
  });
  return std::move(**out);
}

nb::tuple centrality_tuple(CentralityResult&& r) {
  return nb::make_tuple(nb::cast(to_numpy(std::move(r.values))), r.iterations, r.last_change, r.converged);
}

nb::tuple eigenvector_centrality(const PyGraph& pg, int max_iterations, double tolerance, bool use_weights,
                                 const std::string& engine, const std::string& cache_block) {
  EigenvectorOptions o;
  o.max_iterations = max_iterations;
  o.tolerance = tolerance;
  o.use_weights = use_weights;
  o.require_convergence = false;
  o.cache_block_bytes = parse_cache_block(cache_block);
  return centrality_tuple(centrality_on_worker(pg, engine, [=](const auto& g, const Execution& x) {
    progress::expect("iteration", o.max_iterations, "iterations", 1, true);
    return numagraph::eigenvector_centrality(g, o, x);
  }));
}

nb::tuple katz_centrality(const PyGraph& pg, double alpha, double beta, int max_iterations, double tolerance,
                          bool normalized, bool use_weights, const std::string& engine, const std::string& cache_block) {
  KatzOptions o;
  o.alpha = alpha;
  o.beta = beta;
  o.max_iterations = max_iterations;
  o.tolerance = tolerance;
  o.normalized = normalized;
  o.use_weights = use_weights;
  o.require_convergence = false;
  o.cache_block_bytes = parse_cache_block(cache_block);
  return centrality_tuple(centrality_on_worker(pg, engine, [=](const auto& g, const Execution& x) {
    progress::expect("iteration", o.max_iterations, "iterations", 1, true);
    return numagraph::katz_centrality(g, o, x);
  }));
}

}  // namespace

void bind_eigen(nb::module_& m) {
  m.def("eigenvector_centrality", &eigenvector_centrality, nb::arg("graph"), nb::arg("max_iterations"),
        nb::arg("tolerance"), nb::arg("use_weights"), nb::arg("engine"), nb::arg("cache_block"));
  m.def("katz_centrality", &katz_centrality, nb::arg("graph"), nb::arg("alpha"), nb::arg("beta"),
        nb::arg("max_iterations"), nb::arg("tolerance"), nb::arg("normalized"), nb::arg("use_weights"),
        nb::arg("engine"), nb::arg("cache_block"));
}

}  // namespace numagraph::py
