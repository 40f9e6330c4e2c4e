// Closeness and harmonic centrality from Python: options in, the entry point
// on the worker thread (GIL released), both score arrays back as NumPy
// arrays plus whether they are sampled estimates and the sources used.
#include <memory>
#include <optional>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "numagraph/kernels/closeness/closeness.hpp"
#include "numagraph/kernels/roots.hpp"

namespace numagraph::py {
namespace {

struct ClosenessOut {
  NumaArray<double> closeness, harmonic;
  bool sampled = false;
  bool weighted = false;
  std::int64_t sources = 0;
};

// (closeness float64, harmonic float64, sampled, weighted, number of sources).
// `sources`: user ids (NetworkX's harmonic_centrality sources=), summed unscaled.
nb::tuple closeness(const PyGraph& pg, bool wf_improved, std::optional<std::int64_t> samples, std::uint64_t seed,
                    bool use_weights, std::optional<std::vector<std::uint64_t>> sources) {
  if (samples && *samples < 1) throw UsageError("samples must be at least 1 (got " + std::to_string(*samples) + ")");
  ClosenessOptions o;
  o.wf_improved = wf_improved;
  o.samples = samples.value_or(0);
  o.seed = seed;
  o.use_weights = use_weights;
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  auto out = std::make_shared<std::optional<ClosenessOut>>();
  run_job([graph, cache, o, sources, out]() mutable {
    Execution x;
    x.engine = EngineChoice::kFlat;
    x.cache = cache.get();
    numagraph::visit(
        [&](const auto& g) {
          if (sources)
            for (const std::uint64_t u : *sources) o.sources.push_back(kernels::dense_id(g, u));
          auto r = numagraph::closeness(g, o, x);
          const auto k = r.sources.empty() ? g.num_vertices() : static_cast<std::int64_t>(r.sources.size());
          *out = ClosenessOut{std::move(r.closeness), std::move(r.harmonic), r.sampled, r.weighted, k};
        },
        *graph);
  });
  ClosenessOut r = std::move(**out);
  return nb::make_tuple(nb::cast(to_numpy(std::move(r.closeness))), nb::cast(to_numpy(std::move(r.harmonic))),
                        r.sampled, r.weighted, r.sources);
}

}  // namespace

void bind_closeness(nb::module_& m) {
  m.def("closeness", &closeness, nb::arg("graph"), nb::arg("wf_improved"), nb::arg("samples").none(),
        nb::arg("seed"), nb::arg("use_weights"), nb::arg("sources").none());
}

}  // namespace numagraph::py
