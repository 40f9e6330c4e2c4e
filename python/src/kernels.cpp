// The kernels from Python: each function turns its arguments into the
// problem's options and an Execution, calls the library's entry point on the
// worker thread (GIL released) and hands the result arrays to NumPy without
// copies. Which engine runs, and how, is decided by the entry point.
#include <optional>
#include <variant>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "progress.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/bp/belief_propagation.hpp"
#include "numagraph/kernels/cc/components.hpp"
#include "numagraph/kernels/scc/scc.hpp"
#include "numagraph/kernels/diameter/diameter.hpp"
#include "numagraph/kernels/kcore/kcore.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/spmv/spmv.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "numagraph/kernels/clustering/clustering.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::py {
namespace {

// Runs f(g, x) on the worker for whichever id width the graph has, with an
// Execution on the graph's cache; f's value is moved back to the caller.
template <typename R, typename F>
R on_worker(const PyGraph& pg, const std::string& engine, F f) {
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  Execution x;
  x.engine = parse_engine(engine);
  auto out = std::make_shared<std::optional<R>>();
  run_job([graph, cache, x, out, f]() mutable {
    x.cache = cache.get();
    *out = numagraph::visit([&](const auto& g) { return R(f(g, x)); }, *graph);
  });
  return std::move(**out);
}

// A kernel result on its way to Python: NumaArrays of either id width.
using Array = std::variant<NumaArray<double>, NumaArray<std::int32_t>, NumaArray<std::int64_t>, NumaArray<std::uint32_t>,
                           NumaArray<std::uint64_t>>;
static_assert(std::is_same_v<BfsResult<std::uint32_t>::Parent, std::int32_t> &&
              std::is_same_v<BfsResult<std::uint64_t>::Parent, std::int64_t>);

nb::object to_python(Array&& a) {
  return std::visit([](auto&& arr) -> nb::object { return nb::cast(to_numpy(std::move(arr))); }, std::move(a));
}

// Result arrays from the pool (recycled NumPy arrays), placed as the engine
// that will run wants them: partitioned for the NUMA engine.
ResultPool::Want pool_kind(const Execution& x) {
  return x.numa_engine(MachineView::current()) ? ResultPool::Want::kPartitionedByCount : ResultPool::Want::kAny;
}

// depth: hop counts (int32, -1 unreached). parents: the BFS tree (-1
// unreached, the source its own parent) in the graph's signed id type, or
// int64 original ids when the graph was relabelled. Asking for parents only
// skips the depth array, as the CLI's timed BFS (Graph500) does.
nb::object bfs(const PyGraph& pg, std::uint64_t source, bool depth, bool parents, double alpha, double beta,
               const std::string& engine) {
  if (!depth && !parents) throw UsageError("ask for depth, parents or both");
  struct Out {
    Array depth, parent;
  };
  Out r = on_worker<Out>(pg, engine, [=](const auto& g, const Execution& x) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    using P = typename BfsResult<V>::Parent;
    BfsOptions o;
    o.alpha = alpha;
    o.beta = beta;
    o.compute_depth = depth;
    BfsResult<V> res;
    const std::size_t n = static_cast<std::size_t>(g.num_vertices());
    // A role with a placement of its own (place=) is allocated by the kernel, not taken from the pool.
    if (!numa::role_placements().count("parents")) res.parent = result_pool().take<P>(n, pool_kind(x));
    if (depth && !numa::role_placements().count("depth"))
      res.depth = result_pool().take<std::int32_t>(n, pool_kind(x));
    numagraph::bfs(g, kernels::dense_id(g, source), o, x, res);
    Out out{std::move(res.depth), NumaArray<std::int32_t>()};
    if (!parents) return out;
    // Unreached vertices hold -(degree + 1) (see BfsResult): make them -1.
    // Parents are the caller's ids; relabelled graphs give original labels.
    if (!g.relabelled()) {
      parallel::for_static(std::size_t{0}, res.parent.size(), [&](std::size_t v) {
        if (res.parent[v] < 0) res.parent[v] = -1;
      });
      out.parent = std::move(res.parent);
      return out;
    }
    NumaArray<std::int64_t> p(res.parent.size());
    parallel::for_static(std::size_t{0}, p.size(), [&](std::size_t v) {
      const P x = res.parent[v];
      p[v] = x < 0 ? -1 : static_cast<std::int64_t>(kernels::user_label(g, static_cast<V>(x)));
    });
    out.parent = std::move(p);
    return out;
  });
  if (!parents) return to_python(std::move(r.depth));
  if (!depth) return to_python(std::move(r.parent));
  return nb::make_tuple(to_python(std::move(r.depth)), to_python(std::move(r.parent)));
}

nb::object sssp(const PyGraph& pg, std::uint64_t source, std::optional<double> delta, const std::string& engine) {
  if (delta && !(*delta > 0)) throw UsageError("delta must be positive (got " + std::to_string(*delta) + ")");
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) {
    SsspOptions o;
    o.delta = delta.value_or(0);
    SsspResult r;
    if (!numa::role_placements().count("dist"))  // a placed role is allocated by the kernel
      r.dist = result_pool().take<double>(static_cast<std::size_t>(g.num_vertices()), pool_kind(x));
    numagraph::sssp(g, kernels::dense_id(g, source), o, x, r);
    return std::move(r.dist);
  }));
}

// Sources: user ids (`sources`), `k` deterministic random roots, or every
// vertex (exact). Scaled as networkx.betweenness_centrality.
nb::object betweenness(const PyGraph& pg, std::optional<std::vector<std::uint64_t>> sources, std::optional<std::int64_t> k,
                       std::uint64_t seed, bool normalized, const std::string& engine, const std::string& variant) {
  if (sources && sources->empty()) throw UsageError("sources is empty: give at least one source vertex");
  if (k && *k < 1) throw UsageError("k must be at least 1 (got " + std::to_string(*k) + ")");
  BcOptions o;
  o.variant = kernels::parse_bc_variant(variant);
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    std::vector<V> s;
    bool exact = false;
    if (sources) {
      for (std::uint64_t u : *sources) s.push_back(kernels::dense_id(g, u));
    } else if (k) {
      s = kernels::pick_roots(g, *k, seed);
    } else {
      exact = true;
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) s.push_back(static_cast<V>(v));
    }
    {  // numagraph.progress() counts sources by their backward phases (kernels::bc_progress_plan)
      const auto plan = kernels::bc_progress_plan(g, s.size(), o, x);
      progress::expect("backward", static_cast<std::int64_t>(s.size()), "sources",
                       static_cast<std::int64_t>(plan.sources_per_phase));
    }
    BcResult r = numagraph::betweenness(g, s, o, x);
    kernels::scale_like_networkx(g, r.scores, s, exact || static_cast<std::int64_t>(s.size()) == g.num_vertices(),
                                 normalized);
    return std::move(r.scores);
  }));
}

std::tuple<std::int64_t, std::uint64_t, std::uint64_t, int> diameter(const PyGraph& pg, const std::string& engine) {
  return on_worker<std::tuple<std::int64_t, std::uint64_t, std::uint64_t, int>>(
      pg, engine, [](const auto& g, const Execution& x) {
        auto r = numagraph::diameter(g, BfsOptions{}, x);
        return std::make_tuple(r.bound, kernels::user_label(g, r.from), kernels::user_label(g, r.to), r.sweeps);
      });
}

using DoubleArray = nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using UserIdArray = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A per-vertex distribution from Python: values in dense order (no ids), or
// values of the listed user ids (the others 0). Copied on the Python thread.
struct Distribution {
  bool given = false;
  std::optional<std::vector<std::uint64_t>> ids;
  std::vector<double> values;
};

Distribution distribution(const std::optional<UserIdArray>& ids, const std::optional<DoubleArray>& values) {
  Distribution d;
  if (!values) return d;
  d.given = true;
  d.values.assign(values->data(), values->data() + values->shape(0));
  if (ids) d.ids.emplace(ids->data(), ids->data() + ids->shape(0));
  return d;
}

// The distribution as one value per caller vertex of g (empty: not given).
template <typename G>
std::vector<double> dense_distribution(const G& g, const Distribution& d) {
  if (!d.given || !d.ids) return d.values;  // dense already; the kernel checks its length
  std::vector<double> dense(static_cast<std::size_t>(g.num_vertices()), 0.0);
  for (std::size_t i = 0; i < d.ids->size(); ++i) dense[kernels::dense_id(g, (*d.ids)[i])] = d.values[i];
  return dense;
}

nb::tuple pagerank(const PyGraph& pg, double damping, int max_iterations, double tolerance, bool networkx,
                   const std::string& variant, const std::string& engine, const std::string& cache_block,
                   bool use_weights, std::optional<UserIdArray> personalization_ids,
                   std::optional<DoubleArray> personalization, std::optional<UserIdArray> dangling_ids,
                   std::optional<DoubleArray> dangling) {
  const Distribution p = distribution(personalization_ids, personalization);
  const Distribution q = distribution(dangling_ids, dangling);
  PageRankOptions o;
  o.use_weights = use_weights;
  o.variant = kernels::parse_pagerank_variant(variant);
  o.damping = damping;
  o.max_iterations = max_iterations;
  o.tolerance = tolerance;
  o.networkx = networkx;
  o.cache_block_bytes = parse_cache_block(cache_block);
  auto r = on_worker<PageRankResult>(pg, engine, [=](const auto& g, const Execution& x) {
    PageRankOptions run = o;
    run.personalization = dense_distribution(g, p);
    run.dangling = dense_distribution(g, q);
    progress::expect("iteration", run.max_iterations, "iterations", 1, run.tolerance > 0);
    return numagraph::pagerank(g, run, x);
  });
  return nb::make_tuple(to_python(std::move(r.scores)), r.iterations, r.last_change);
}

nb::object spmv(const PyGraph& pg, int iterations, const std::string& engine, const std::string& cache_block) {
  SpmvOptions o;
  o.iterations = iterations;
  o.cache_block_bytes = parse_cache_block(cache_block);
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) {
    return std::move(numagraph::spmv(g, o, x).y);
  }));
}

nb::object belief_propagation(const PyGraph& pg, int iterations, double coupling, std::uint64_t seed,
                              const std::string& engine) {
  BpOptions model;
  model.iterations = iterations;
  model.coupling = coupling;
  model.seed = seed;
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) {
    return std::move(numagraph::belief_propagation(g, model, x).belief);
  }));
}

// Component ids: the id of a member vertex (the user's id when relabelled).
nb::object connected_components(const PyGraph& pg, const std::string& variant, const std::string& engine) {
  const CcOptions o{kernels::parse_cc_variant(variant)};
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) -> Array {
    auto comp = std::move(numagraph::connected_components(g, o, x).labels);
    if (!g.relabelled()) return comp;
    NumaArray<std::uint64_t> ids(comp.size());
    parallel::for_static(std::size_t{0}, comp.size(), [&](std::size_t v) { ids[v] = kernels::user_label(g, comp[v]); });
    return ids;
  }));
}

// Strongly connected component ids: each component's smallest member (the
// user's id when relabelled).
nb::object strongly_connected_components(const PyGraph& pg, const std::string& engine) {
  return to_python(on_worker<Array>(pg, engine, [=](const auto& g, const Execution& x) -> Array {
    auto comp = std::move(numagraph::strongly_connected_components(g, SccOptions{}, x).labels);
    if (!g.relabelled()) return comp;
    NumaArray<std::uint64_t> ids(comp.size());
    parallel::for_static(std::size_t{0}, comp.size(), [&](std::size_t v) { ids[v] = kernels::user_label(g, comp[v]); });
    return ids;
  }));
}

nb::object triangles(const PyGraph& pg, bool per_vertex) {
  auto r = on_worker<TcResult>(pg, "flat", [=](const auto& g, const Execution& x) {
    return numagraph::triangles(g, TcOptions{.per_vertex = per_vertex}, x);
  });
  if (per_vertex) return to_python(std::move(r.per_vertex));
  return nb::int_(r.triangles);
}

// Clustering: (coefficients float64, average over all vertices, average over
// vertices with a nonzero coefficient, transitivity).
nb::object clustering(const PyGraph& pg) {
  auto r = on_worker<ClusteringResult>(pg, "flat", [](const auto& g, const Execution& x) {
    return numagraph::clustering(g, ClusteringOptions{}, x);
  });
  const double all = r.average(true), nonzero = r.average(false), t = r.transitivity();
  return nb::make_tuple(to_python(std::move(r.coefficient)), all, nonzero, t);
}

// Coreness per vertex (int32).
nb::object core_number(const PyGraph& pg, const std::string& engine) {
  return to_python(on_worker<Array>(pg, engine, [](const auto& g, const Execution& x) -> Array {
    return std::move(numagraph::core_numbers(g, KcoreOptions{}, x).core);
  }));
}

}  // namespace

void bind_kernels(nb::module_& m) {
  m.def("bfs", &bfs, nb::arg("graph"), nb::arg("source"), nb::arg("depth"), nb::arg("parents"), nb::arg("alpha"),
        nb::arg("beta"), nb::arg("engine"));
  m.def("sssp", &sssp, nb::arg("graph"), nb::arg("source"), nb::arg("delta").none(), nb::arg("engine"));
  m.def("betweenness", &betweenness, nb::arg("graph"), nb::arg("sources").none(), nb::arg("k").none(), nb::arg("seed"),
        nb::arg("normalized"), nb::arg("engine"), nb::arg("variant"));
  m.attr("BC_EXACT_WORK") = kernels::kBcExactWork;  // betweenness's default rule (kernels/bc/options.hpp)
  m.attr("BC_DEFAULT_SAMPLES") = kernels::kBcDefaultSamples;
  m.def("diameter", &diameter, nb::arg("graph"), nb::arg("engine"));
  m.def("pagerank", &pagerank, nb::arg("graph"), nb::arg("damping"), nb::arg("max_iterations"), nb::arg("tolerance"),
        nb::arg("networkx"), nb::arg("variant"), nb::arg("engine"), nb::arg("cache_block"), nb::arg("use_weights"),
        nb::arg("personalization_ids").none(), nb::arg("personalization").none(), nb::arg("dangling_ids").none(),
        nb::arg("dangling").none());
  m.def("spmv", &spmv, nb::arg("graph"), nb::arg("iterations"), nb::arg("engine"), nb::arg("cache_block"));
  m.def("belief_propagation", &belief_propagation, nb::arg("graph"), nb::arg("iterations"), nb::arg("coupling"),
        nb::arg("seed"), nb::arg("engine"));
  m.def("connected_components", &connected_components, nb::arg("graph"), nb::arg("variant"), nb::arg("engine"));
  m.def("strongly_connected_components", &strongly_connected_components, nb::arg("graph"), nb::arg("engine"));
  m.def("triangles", &triangles, nb::arg("graph"), nb::arg("per_vertex"));
  m.def("clustering", &clustering, nb::arg("graph"));
  m.def("core_number", &core_number, nb::arg("graph"), nb::arg("engine"));
}

}  // namespace numagraph::py
