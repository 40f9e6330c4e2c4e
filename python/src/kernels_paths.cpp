// Shortest-path predecessors from Python: SSSP (or BFS hop counts) on the
// worker thread, then the predecessor post-pass (kernels/sssp/predecessors.hpp)
// or the BFS predecessor lists (kernels/bfs/all_predecessors.hpp). Ids in the
// arrays are the caller's dense ids (int64): Python maps them to node
// objects or labels.
#include <memory>
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "common.hpp"
#include "numagraph/kernels/bfs/all_predecessors.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/sssp/predecessors.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"

namespace numagraph::py {
namespace {

// Runs f(g, x) on the worker for whichever id width the graph has.
template <typename F>
void on_worker_paths(const PyGraph& pg, const std::string& engine, F f) {
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  Execution x;
  x.engine = parse_engine(engine);
  run_job([graph, cache, x, f]() mutable {
    x.cache = cache.get();
    numagraph::visit([&](const auto& g) { f(g, x); }, *graph);
  });
}

// (distances float64, predecessors int64): delta-stepping with the weights
// (1 on an unweighted graph) and the smallest tight predecessor of each vertex.
nb::tuple sssp_paths(const PyGraph& pg, std::uint64_t source, std::optional<double> delta, const std::string& engine) {
  if (delta && !(*delta > 0)) throw UsageError("delta must be positive (got " + std::to_string(*delta) + ")");
  auto out = std::make_shared<SsspResult>();
  on_worker_paths(pg, engine, [=](const auto& g, const Execution& x) {
    SsspOptions o;
    o.delta = delta.value_or(0);
    o.predecessors = true;
    numagraph::sssp(g, kernels::dense_id(g, source), o, x, *out);
  });
  return nb::make_tuple(nb::cast(to_numpy(std::move(out->dist))), nb::cast(to_numpy(std::move(out->predecessor))));
}

struct HopOut {
  NumaArray<std::int32_t> depth;
  NumaArray<std::int64_t> pred;
  NumaArray<eid_t> offsets;
};

// (depth int32, predecessors int64) from a BFS, ignoring weights; with
// `lists`, (depth, offsets int64, sources int64): every predecessor.
nb::tuple hop_paths(const PyGraph& pg, std::uint64_t source, bool lists, const std::string& engine) {
  auto out = std::make_shared<HopOut>();
  on_worker_paths(pg, engine, [=](const auto& g, const Execution& x) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    const V s = kernels::dense_id(g, source);
    auto r = numagraph::bfs(g, s, BfsOptions{}, x);
    if (lists) {
      auto l = kernels::bfs_all_predecessors(g, r.depth.data());
      out->offsets = std::move(l.offsets);
      out->pred = std::move(l.sources);
    } else {
      out->pred = kernels::hop_predecessors(g, s, r.depth.data());
    }
    out->depth = std::move(r.depth);
  });
  if (lists)
    return nb::make_tuple(nb::cast(to_numpy(std::move(out->depth))), nb::cast(to_numpy(std::move(out->offsets))),
                          nb::cast(to_numpy(std::move(out->pred))));
  return nb::make_tuple(nb::cast(to_numpy(std::move(out->depth))), nb::cast(to_numpy(std::move(out->pred))));
}

}  // namespace

void bind_paths(nb::module_& m) {
  m.def("sssp_paths", &sssp_paths, nb::arg("graph"), nb::arg("source"), nb::arg("delta").none(), nb::arg("engine"));
  m.def("hop_paths", &hop_paths, nb::arg("graph"), nb::arg("source"), nb::arg("lists"), nb::arg("engine"));
}

}  // namespace numagraph::py
