// The kernels, wrapped one-to-one: each takes the graph and the kernel's
// parameters, runs on the worker thread (GIL released) and returns NumPy
// arrays that own the C++ result memory (no copies).
#include <cmath>
#include <optional>
#include <variant>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "engine.hpp"
#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/numa_nwq.hpp"
#include "numagraph/kernels/bfs/direction_optimizing.hpp"
#include "numagraph/kernels/bfs/numa_partitioned.hpp"
#include "numagraph/kernels/bp/numa_partitioned.hpp"
#include "numagraph/kernels/bp/per_arc.hpp"
#include "numagraph/kernels/cc/afforest.hpp"
#include "numagraph/kernels/cc/numa_afforest.hpp"
#include "numagraph/kernels/cc/numa_label_propagation.hpp"
#include "numagraph/kernels/cc/shiloach_vishkin.hpp"
#include "numagraph/kernels/diameter/double_sweep.hpp"
#include "numagraph/kernels/pr/numa_partitioned.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/spmv/numa_partitioned.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/numa_delta_stepping.hpp"
#include "numagraph/kernels/tc/ordered_intersection.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::py {
namespace {

// Runs `f(g)` on the worker for whichever id width the graph has; `f`
// returns a value that is moved back to the caller.
template <typename R, typename F>
R on_worker(const PyGraph& pg, F f) {
  auto graph = graph_of(pg);
  auto out = std::make_shared<std::optional<R>>();
  run_job([graph, out, f] { *out = numagraph::visit([&](const auto& g) { return R(f(g)); }, *graph); });
  return std::move(**out);
}

// As on_worker, with the graph's cache: f(g, cache).
template <typename R, typename F>
R on_worker_cached(const PyGraph& pg, F f) {
  auto graph = graph_of(pg);
  auto cache = pg.cache;
  auto out = std::make_shared<std::optional<R>>();
  run_job([graph, cache, out, f] { *out = numagraph::visit([&](const auto& g) { return R(f(g, *cache)); }, *graph); });
  return std::move(**out);
}

// A kernel result on its way to Python: NumaArrays of either id width.
using Array = std::variant<NumaArray<double>, NumaArray<std::int32_t>, NumaArray<std::int64_t>, NumaArray<std::uint32_t>,
                           NumaArray<std::uint64_t>>;
static_assert(std::is_same_v<kernels::BfsResult<std::uint32_t>::Parent, std::int32_t> &&
              std::is_same_v<kernels::BfsResult<std::uint64_t>::Parent, std::int64_t>);

nb::object to_python(Array&& a) {
  return std::visit([](auto&& arr) -> nb::object { return nb::cast(to_numpy(std::move(arr))); }, std::move(a));
}

template <typename G>
auto dense(const G& g, std::uint64_t user_id) {
  return kernels::dense_id(g, user_id);
}

// depth: hop counts (int32, -1 unreached). parents: the BFS tree (-1
// unreached, the source its own parent) in the graph's signed id type, or
// int64 original ids when the graph was relabelled. Asking for parents only
// skips the depth array, as the CLI's timed BFS (Graph500) does.
nb::object bfs(const PyGraph& pg, std::uint64_t source, bool depth, bool parents, double alpha, double beta,
               const std::string& engine) {
  if (!depth && !parents) throw UsageError("ask for depth, parents or both");
  check_engine(engine);
  struct Out {
    Array depth, parent;
  };
  Out r = on_worker_cached<Out>(pg, [=](const auto& g, GraphCache& cache) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    using P = typename kernels::BfsResult<V>::Parent;
    const V root = dense(g, source);
    const EngineTopology topo = engine_topology();
    kernels::BfsResult<V> res;
    if (use_numa(engine, topo)) {
      const auto& part = partitioned(cache, g, topo, {true, false});
      engine::NoAccounting none;
      // Recycled partitioned arrays (fresh ones fault in their pages on every
      // call: engine/flat on kron20 1.21 with them, the flat kernel recycling).
      kernels::NumaBfsResult<V> nr;
      constexpr auto kPartitioned = ResultPool::Want::kPartitionedByCount;
      nr.parent = result_pool().take<P>(static_cast<std::size_t>(g.num_vertices()), kPartitioned);
      if (depth) nr.depth = result_pool().take<std::int32_t>(static_cast<std::size_t>(g.num_vertices()), kPartitioned);
      if (!cache.numa_bfs_workspace) cache.numa_bfs_workspace = std::make_shared<kernels::NumaBfsWorkspace<V>>();
      kernels::bfs_numa(part, root, kernels::NumaBfsOptions{alpha, beta, depth}, engine::EngineMode::kNuma, none, nr,
                        static_cast<kernels::NumaBfsWorkspace<V>*>(cache.numa_bfs_workspace.get()));
      res.parent = std::move(nr.parent);
      if (depth) res.depth = std::move(nr.depth);
    } else {
      kernels::BfsOptions o;
      o.alpha = alpha;
      o.beta = beta;
      o.compute_depth = depth;
      if (!cache.bfs_workspace) cache.bfs_workspace = std::make_shared<kernels::BfsWorkspace<V>>();
      res.parent = result_pool().take<P>(static_cast<std::size_t>(g.num_vertices()));
      if (depth) res.depth = result_pool().take<std::int32_t>(static_cast<std::size_t>(g.num_vertices()));
      kernels::bfs_direction_optimizing(g, root, o, res,
                                        *static_cast<kernels::BfsWorkspace<V>*>(cache.bfs_workspace.get()));
    }
    Out out{std::move(res.depth), NumaArray<std::int32_t>()};
    if (!parents) return out;
    // Unreached vertices hold -(degree + 1) (see BfsResult): make them -1.
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
      p[v] = x < 0 ? -1 : static_cast<std::int64_t>(g.label(static_cast<V>(x)));
    });
    out.parent = std::move(p);
    return out;
  });
  if (!parents) return to_python(std::move(r.depth));
  if (!depth) return to_python(std::move(r.parent));
  return nb::make_tuple(to_python(std::move(r.depth)), to_python(std::move(r.parent)));
}

nb::object sssp(const PyGraph& pg, std::uint64_t source, std::optional<double> delta, const std::string& engine) {
  check_engine(engine);
  return to_python(on_worker_cached<Array>(pg, [=](const auto& g, GraphCache& cache) {
    kernels::refuse_negative_weights(g);
    const double d = delta ? *delta : kernels::default_delta(g);
    const EngineTopology topo = engine_topology();
    if (use_numa(engine, topo)) {
      engine::NoAccounting none;
      // A recycled partitioned array, as the flat kernel recycles its own.
      NumaArray<double> dist =
          result_pool().take<double>(static_cast<std::size_t>(g.num_vertices()), ResultPool::Want::kPartitionedByCount);
      kernels::sssp_numa(partitioned(cache, g, topo, {true, false}), dense(g, source), d, engine::EngineMode::kNuma,
                         none, cache.sssp_workspace.get(), dist);
      return dist;
    }
    NumaArray<double> dist = result_pool().take<double>(static_cast<std::size_t>(g.num_vertices()));
    kernels::sssp_delta_stepping(g, dense(g, source), d, dist, cache.sssp_workspace.get());
    return dist;
  }));
}

// Sources: user ids (`sources`), `k` deterministic random roots, or every
// vertex (exact). Scaled as networkx.betweenness_centrality.
nb::object betweenness(const PyGraph& pg, std::optional<std::vector<std::uint64_t>> sources, std::optional<std::int64_t> k,
                       std::uint64_t seed, bool normalized, const std::string& engine) {
  check_engine(engine);
  return to_python(on_worker_cached<Array>(pg, [=](const auto& g, GraphCache& cache) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    std::vector<V> s;
    bool exact = false;
    if (sources) {
      for (std::uint64_t u : *sources) s.push_back(dense(g, u));
    } else if (k) {
      if (*k < 1) throw UsageError("k must be at least 1 (got " + std::to_string(*k) + ")");
      s = kernels::pick_roots(g, *k, seed);
    } else {
      exact = true;
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) s.push_back(static_cast<V>(v));
    }
    NumaArray<double> scores;
    const EngineTopology topo = engine_topology();
    if (use_numa(engine, topo)) {
      kernels::NumaBcOptions o;
      o.node_distance = topo.distance;
      // Time-sliced threads (a synthetic topology bigger than this machine)
      // would steal other nodes' work by accident of scheduling (as the CLI).
      o.steal_across_nodes = static_cast<int>(topo.thread_node.size()) <= topo.hardware_threads;
      engine::NoAccounting none;
      scores = kernels::betweenness_numa(partitioned(cache, g, topo, {true, false}), s, o,
                                         engine::EngineMode::kNuma, none)
                   .scores;
    } else {
      scores = kernels::betweenness_brandes(g, s);
    }
    kernels::scale_like_networkx(g, scores, s, exact || static_cast<std::int64_t>(s.size()) == g.num_vertices(),
                                 normalized);
    return scores;
  }));
}

std::tuple<std::int64_t, std::uint64_t, std::uint64_t, int> diameter(const PyGraph& pg) {
  return on_worker<std::tuple<std::int64_t, std::uint64_t, std::uint64_t, int>>(pg, [](const auto& g) {
    auto r = kernels::diameter_double_sweep(g);
    return std::make_tuple(r.bound, g.label(r.from), g.label(r.to), r.sweeps);
  });
}

nb::tuple pagerank(const PyGraph& pg, double damping, int max_iterations, double tolerance, bool networkx,
                   const std::string& variant, const std::string& engine, const std::string& cache_block) {
  if (!(damping >= 0 && damping <= 1)) throw UsageError("damping must be in [0, 1]");
  if (max_iterations < 1) throw UsageError("max_iterations must be at least 1");
  if (tolerance < 0) throw UsageError("tolerance must be >= 0");
  check_engine(engine);
  const std::string v = variant == "auto" ? (networkx ? "jacobi" : "gauss-seidel") : variant;
  if (v != "jacobi" && v != "gauss-seidel") throw UsageError("variant must be 'auto', 'jacobi' or 'gauss-seidel'");
  if (v == "gauss-seidel" && networkx) throw UsageError("networkx=True needs variant='jacobi' (NetworkX iterates Jacobi-style)");
  kernels::PageRankOptions o{damping, max_iterations, tolerance, networkx, parse_cache_block(cache_block)};
  auto r = on_worker_cached<kernels::PageRankResult>(pg, [=](const auto& g, GraphCache& cache) {
    const EngineTopology topo = engine_topology();
    if (use_numa(engine, topo)) {  // Jacobi-style on the partitions
      // NetworkX stops at L1 < n * tol; the NUMA kernel compares with its tolerance as given.
      const double tol = networkx ? tolerance * static_cast<double>(g.num_vertices()) : tolerance;
      kernels::NumaPageRankOptions no{damping, max_iterations, tol, networkx, kernels::needs_double_contributions(o),
                                      kernels::pagerank_block_width(g, o)};
      engine::NoAccounting none;
      auto nr = kernels::pagerank_numa(partitioned(cache, g, topo, {false, false}), no,
                                       engine::EngineMode::kNuma, none);
      kernels::PageRankResult res;
      res.scores = std::move(nr.scores);
      res.iterations = nr.iterations;
      res.last_change = nr.last_change;
      return res;
    }
    return v == "jacobi" ? kernels::pagerank_pull_jacobi(g, o) : kernels::pagerank_pull_gauss_seidel(g, o);
  });
  return nb::make_tuple(to_python(std::move(r.scores)), r.iterations, r.last_change);
}

nb::object spmv(const PyGraph& pg, int iterations, const std::string& engine, const std::string& cache_block) {
  if (iterations < 1) throw UsageError("iterations must be at least 1");
  check_engine(engine);
  const std::int64_t block = parse_cache_block(cache_block);
  return to_python(on_worker_cached<Array>(pg, [=](const auto& g, GraphCache& cache) {
    const EngineTopology topo = engine_topology();
    if (use_numa(engine, topo)) {
      engine::NoAccounting none;
      return kernels::spmv_numa(partitioned(cache, g, topo, {false, true}), iterations,
                                engine::EngineMode::kNuma, none, kernels::spmv_block_width(g, iterations, block))
          .y;
    }
    return kernels::spmv_rows(g, iterations, block);
  }));
}

nb::object belief_propagation(const PyGraph& pg, int iterations, double coupling, std::uint64_t seed,
                              const std::string& engine) {
  if (iterations < 1) throw UsageError("iterations must be at least 1");
  if (!(coupling >= 0 && coupling <= 1)) throw UsageError("coupling must be in [0, 1]");
  check_engine(engine);
  kernels::bp::Model model;
  model.iterations = iterations;
  model.coupling = coupling;
  model.seed = seed;
  return to_python(on_worker_cached<Array>(pg, [=](const auto& g, GraphCache& cache) {
    const EngineTopology topo = engine_topology();
    if (use_numa(engine, topo)) {
      engine::NoAccounting none;
      return kernels::belief_propagation_numa(partitioned(cache, g, topo, {false, false}), model,
                                              engine::EngineMode::kNuma, none)
          .belief;
    }
    return kernels::belief_propagation(g, model);
  }));
}

// Component ids: the id of a member vertex (the user's id when relabelled).
nb::object connected_components(const PyGraph& pg, const std::string& variant, const std::string& engine) {
  if (variant != "afforest" && variant != "sv" && variant != "lp")
    throw UsageError("variant must be 'afforest', 'sv' or 'lp' (got '" + variant + "')");
  check_engine(engine);
  // As the CLI: an explicit sv or lp decides engine='auto'.
  const std::string eng = engine != "auto" || variant == "afforest" ? engine : variant == "sv" ? "flat" : "numa";
  return to_python(on_worker_cached<Array>(pg, [=](const auto& g, GraphCache& cache) -> Array {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    NumaArray<V> comp;  // labels in the id type (Afforest on either engine, SV), relabelled below
    const EngineTopology topo = engine_topology();
    if (use_numa(eng, topo)) {
      if (variant == "sv")
        throw UsageError("variant 'sv' has no NUMA-engine version: use 'afforest' or 'lp', or engine='flat'");
      engine::NoAccounting none;
      const auto& parts = partitioned(cache, g, topo, {false, true});
      if (variant == "lp") {  // 64-bit labels, relabelled in place
        auto labels = kernels::connected_components_numa(parts, engine::EngineMode::kNuma, none).labels;
        if (g.relabelled())
          parallel::for_static(std::size_t{0}, labels.size(),
                               [&](std::size_t v) { labels[v] = g.label(static_cast<V>(labels[v])); });
        return labels;
      }
      comp = kernels::components_afforest_numa(parts, engine::EngineMode::kNuma, none).labels;
    } else {
      if (variant == "lp")
        throw UsageError("variant 'lp' runs on the NUMA engine only: use engine='numa', or 'afforest' or 'sv'");
      comp = variant == "sv" ? kernels::components_shiloach_vishkin(g) : kernels::components_afforest(g);
    }
    if (!g.relabelled()) return comp;
    NumaArray<std::uint64_t> ids(comp.size());
    parallel::for_static(std::size_t{0}, comp.size(), [&](std::size_t v) { ids[v] = g.label(comp[v]); });
    return ids;
  }));
}

nb::object triangles(const PyGraph& pg, bool per_vertex) {
  if (per_vertex)
    return to_python(on_worker<Array>(pg, [](const auto& g) { return kernels::triangles_per_vertex(g); }));
  return nb::int_(on_worker<std::int64_t>(pg, [](const auto& g) { return kernels::triangles_ordered(g); }));
}

}  // namespace

void bind_kernels(nb::module_& m) {
  m.def("bfs", &bfs, nb::arg("graph"), nb::arg("source"), nb::arg("depth"), nb::arg("parents"), nb::arg("alpha"),
        nb::arg("beta"), nb::arg("engine"));
  m.def("sssp", &sssp, nb::arg("graph"), nb::arg("source"), nb::arg("delta").none(), nb::arg("engine"));
  m.def("betweenness", &betweenness, nb::arg("graph"), nb::arg("sources").none(), nb::arg("k").none(), nb::arg("seed"),
        nb::arg("normalized"), nb::arg("engine"));
  m.def("diameter", &diameter, nb::arg("graph"));
  m.def("pagerank", &pagerank, nb::arg("graph"), nb::arg("damping"), nb::arg("max_iterations"), nb::arg("tolerance"),
        nb::arg("networkx"), nb::arg("variant"), nb::arg("engine"), nb::arg("cache_block"));
  m.def("spmv", &spmv, nb::arg("graph"), nb::arg("iterations"), nb::arg("engine"), nb::arg("cache_block"));
  m.def("belief_propagation", &belief_propagation, nb::arg("graph"), nb::arg("iterations"), nb::arg("coupling"),
        nb::arg("seed"), nb::arg("engine"));
  m.def("connected_components", &connected_components, nb::arg("graph"), nb::arg("variant"), nb::arg("engine"));
  m.def("triangles", &triangles, nb::arg("graph"), nb::arg("per_vertex"));
}

}  // namespace numagraph::py
