// Communities (Louvain, Leiden) and modularity from Python: options in, the
// entry point on the worker thread (GIL released), the labels as an int64
// NumPy array with the summary numbers.
#include <memory>
#include <optional>

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "common.hpp"
#include "numagraph/kernels/community/community.hpp"
#include "numagraph/verify/community.hpp"

namespace numagraph::py {
namespace {

struct Communities {
  NumaArray<std::int64_t> labels;
  std::int64_t communities = 0;
  double modularity = 0;
  int levels = 0;
};

template <typename R, typename F>
R community_on_worker(const PyGraph& pg, F f) {
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  auto out = std::make_shared<std::optional<R>>();
  run_job([graph, cache, out, f]() mutable {
    Execution x;
    x.engine = EngineChoice::kFlat;
    x.cache = cache.get();
    *out = numagraph::visit([&](const auto& g) { return f(g, x); }, *graph);
  });
  return std::move(**out);
}

// (labels int64: dense ids by smallest member, communities, modularity, levels)
nb::tuple communities(const PyGraph& pg, double resolution, double threshold, std::uint64_t seed,
                      const std::string& variant, int max_levels) {
  CommunityOptions o;
  o.resolution = resolution;
  o.threshold = threshold;
  o.seed = seed;
  o.variant = kernels::parse_community_variant(variant);
  o.max_levels = max_levels;
  Communities r = community_on_worker<Communities>(pg, [=](const auto& g, const Execution& x) {
    auto c = numagraph::communities(g, o, x);
    Communities out;
    out.labels = NumaArray<std::int64_t>::for_overwrite(c.labels.size());
    parallel::for_static(std::size_t{0}, c.labels.size(), [&](std::size_t v) { out.labels[v] = c.labels[v]; });
    out.communities = c.communities;
    out.modularity = c.modularity;
    out.levels = c.levels;
    return out;
  });
  return nb::make_tuple(nb::cast(to_numpy(std::move(r.labels))), r.communities, r.modularity, r.levels);
}

using LabelArray = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// Modularity of dense labels (0..communities-1, one per vertex) of an
// undirected graph, as networkx.community.modularity.
double modularity(const PyGraph& pg, LabelArray labels, std::int64_t communities, double resolution) {
  auto graph = graph_of(pg);
  return numagraph::visit(
      [&](const auto& g) {
        if (g.directed())
          throw UsageError("modularity needs an undirected graph (directed modularity is not implemented): "
                           "load it with -s (--symmetrize)");
        if (static_cast<std::int64_t>(labels.shape(0)) != g.num_vertices())
          throw UsageError("modularity needs one label per vertex");
        return verify::modularity(g, labels.data(), communities, resolution);
      },
      *graph);
}

}  // namespace

void bind_community(nb::module_& m) {
  m.def("communities", &communities, nb::arg("graph"), nb::arg("resolution"), nb::arg("threshold"), nb::arg("seed"),
        nb::arg("variant"), nb::arg("max_levels"));
  m.def("modularity", &modularity, nb::arg("graph"), nb::arg("labels"), nb::arg("communities"), nb::arg("resolution"));
}

}  // namespace numagraph::py
