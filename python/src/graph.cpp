// numagraph._core.Graph and its constructors: NumPy edge arrays, files,
// generators. Zero-copy read-only views of the CSR arrays.
#include <cmath>
#include <optional>
#include <tuple>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::py {
namespace {

Relabel parse_relabel(const std::string& s) {
  if (s == "on") return Relabel::kOn;
  if (s == "off") return Relabel::kOff;
  if (s == "auto") return Relabel::kAuto;
  throw UsageError("relabel must be 'on', 'off' or 'auto' (got '" + s + "')");
}

BuildOptions build_options(bool directed, bool drop_self_loops, bool dedupe, const std::string& relabel) {
  BuildOptions b;
  b.symmetrize = !directed;
  b.drop_self_loops = drop_self_loops;
  b.dedupe = dedupe;
  b.relabel = parse_relabel(relabel);
  return b;
}

// Moves a finished build into a PyGraph.
PyGraph make_graph(AnyGraph&& g, std::string name, BuildReport report) {
  PyGraph p;
  p.graph = std::make_shared<const AnyGraph>(std::move(g));
  p.name = std::move(name);
  p.report = std::move(report);
  return p;
}

template <typename T>
using In1D = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A NumPy id array resolved on the Python thread (nanobind casts need the
// GIL), copied later on the worker into 64-bit ids. The Python layer has
// already checked it holds no negative values.
struct IdArray {
  const void* data = nullptr;
  int kind = 0;  // 0 int64, 1 int32, 2 uint64, 3 uint32
};

IdArray resolve_ids(nb::handle a) {
  if (nb::isinstance<In1D<std::int64_t>>(a)) return {nb::cast<In1D<std::int64_t>>(a).data(), 0};
  if (nb::isinstance<In1D<std::int32_t>>(a)) return {nb::cast<In1D<std::int32_t>>(a).data(), 1};
  if (nb::isinstance<In1D<std::uint64_t>>(a)) return {nb::cast<In1D<std::uint64_t>>(a).data(), 2};
  if (nb::isinstance<In1D<std::uint32_t>>(a)) return {nb::cast<In1D<std::uint32_t>>(a).data(), 3};
  throw UsageError("vertex id arrays must be contiguous 1-D int32, int64, uint32 or uint64");
}

template <typename T>
void copy_ids(const void* data, NumaArray<std::uint64_t>& out) {
  const T* p = static_cast<const T*>(data);
  parallel::for_static(std::size_t{0}, out.size(), [&](std::size_t i) { out[i] = static_cast<std::uint64_t>(p[i]); });
}

void copy_any_ids(const IdArray& a, NumaArray<std::uint64_t>& out) {
  switch (a.kind) {
    case 0: return copy_ids<std::int64_t>(a.data, out);
    case 1: return copy_ids<std::int32_t>(a.data, out);
    case 2: return copy_ids<std::uint64_t>(a.data, out);
    default: return copy_ids<std::uint32_t>(a.data, out);
  }
}

PyGraph from_edges(nb::handle src, nb::handle dst, std::optional<In1D<float>> weights, bool integer_weights,
                   std::optional<std::uint64_t> num_vertices, bool directed, bool drop_self_loops, bool dedupe,
                   const std::string& relabel, const std::string& name,
                   std::optional<std::vector<std::string>> names, bool table_ids) {
  const std::size_t m = nb::len(src);
  if (nb::len(dst) != m) throw UsageError("src and dst must have the same length");
  if (weights && weights->shape(0) != m) throw UsageError("weights must have one value per edge");
  const BuildOptions build = build_options(directed, drop_self_loops, dedupe, relabel);
  // The id arrays are Python memory: copy them before the job, which may
  // then be abandoned on Ctrl-C without touching freed buffers.
  auto edges = std::make_shared<EdgeList>();
  edges->src = NumaArray<std::uint64_t>(m);
  edges->dst = NumaArray<std::uint64_t>(m);
  if (weights) {
    edges->weights = NumaArray<weight_t>(m);
    edges->weight_kind = integer_weights ? WeightKind::kInteger : WeightKind::kReal;
  }
  const IdArray src_ids = resolve_ids(src), dst_ids = resolve_ids(dst);
  const float* w = weights ? weights->data() : nullptr;
  run_job(
      [&] {
        copy_any_ids(src_ids, edges->src);
        copy_any_ids(dst_ids, edges->dst);
        if (w) {
          parallel::for_static(std::size_t{0}, m, [&](std::size_t i) { edges->weights[i] = w[i]; });
        }
      },
      false);
  edges->num_vertices = num_vertices;
  edges->source_name = name;
  if (names) {  // vertex names (string ids of an edge table), kept by the graph as a CSV's are
    if (!num_vertices || *num_vertices != names->size())
      throw UsageError("names need num_vertices equal to their count");
    edges->names = std::make_shared<const std::vector<std::string>>(std::move(*names));
  } else if (table_ids) {
    // A user's table of integer ids: the builder's rules for a file's ids
    // apply (ids that start above 0 are relabelled, as for a 1-based file).
    set_decision(edges->decisions, "ids", "integers");
  }
  auto result = std::make_shared<PyGraph>();
  run_job([edges, build, result, name] {
    BuildReport report;
    AnyGraph g = build_graph(std::move(*edges), build, &report);
    *result = make_graph(std::move(g), name, std::move(report));
  });
  return std::move(*result);
}

PyGraph read(const std::string& path, const std::string& format, std::optional<bool> directed, bool drop_self_loops,
             bool dedupe, const std::string& relabel, std::optional<bool> header, const std::string& weight_column) {
  ReadOptions ro;
  if (!format.empty()) ro.format = parse_format(format);
  if (header) ro.header = *header ? Header::kYes : Header::kNo;
  ro.weight_column = weight_column;
  BuildOptions build = build_options(directed.value_or(true), drop_self_loops, dedupe, relabel);
  auto result = std::make_shared<PyGraph>();
  run_job([path, ro, build, result, directed] {
    BuildReport report;
    AnyGraph g = load_graph(path, ro, build, &report);
    if (directed && find_decision(report.decisions, "directed"))  // asked for: nothing to say
      set_decision(report.decisions, "directed", *directed ? "true" : "false");
    *result = make_graph(std::move(g), path, std::move(report));
  });
  return std::move(*result);
}

PyGraph generate(const std::string& kind, int scale, int edge_factor, std::uint64_t seed, bool weighted,
                 bool drop_self_loops, bool dedupe) {
  if (scale < 1 || scale > 40) throw UsageError("scale must be in 1..40 (2^scale vertices)");
  if (edge_factor < 1) throw UsageError("edge_factor must be positive");
  GeneratorOptions go;
  go.scale = scale;
  go.edge_factor = edge_factor;
  go.seed = seed;
  go.weighted = weighted;
  BuildOptions build;
  build.drop_self_loops = drop_self_loops;
  build.dedupe = dedupe;
  std::string name;
  if (kind == "kron") name = "kron";
  else if (kind == "uniform") name = "urand";
  else if (kind == "grid") name = "grid";
  else throw UsageError("generator must be 'kron', 'uniform' or 'grid' (got '" + kind + "')");
  name += std::to_string(scale);
  auto result = std::make_shared<PyGraph>();
  run_job([kind, go, build, result, name] {
    EdgeList e = kind == "kron" ? generate_kronecker(go) : kind == "uniform" ? generate_uniform(go) : generate_grid(go);
    BuildReport report;
    AnyGraph g = build_graph(std::move(e), build, &report);
    *result = make_graph(std::move(g), name, std::move(report));
  });
  return std::move(*result);
}

// The graph renumbered in `order` (a new Graph: this one is unchanged). It
// remembers the ids of the graph the user loaded (composed through repeated
// reorders), so kernels on it answer in those. `root`: the user's id where
// rcm and adl start their first search; none: the highest-degree vertex.
PyGraph reorder_graph(const PyGraph& pg, const std::string& order, std::optional<std::uint64_t> root) {
  reorder::Spec spec{reorder::parse_order(order), -1};
  auto graph = graph_of(pg);
  auto result = std::make_shared<PyGraph>();
  auto stats = std::make_shared<reorder::OrderStats>();
  const std::string name = pg.name;
  run_job([graph, spec, root, result, stats, name]() mutable {
    AnyGraph r = numagraph::visit(
        [&](const auto& g) -> AnyGraph {
          if (root) spec.root = static_cast<std::int64_t>(g.permutation().to_new(kernels::dense_id(g, *root)));
          const auto p = reorder::compute_order(g, spec, stats.get());
          return reorder::apply_permutation(g, p);
        },
        *graph);
    *result = make_graph(std::move(r), name, BuildReport{});
  });
  result->reorder_s = stats->seconds;
  result->reorder_bfs_equiv = stats->bfs_equivalents;
  return std::move(*result);
}

void save(const PyGraph& g, const std::string& path, const std::string& format) {
  const Format f = format.empty() ? Format::kAuto : parse_format(format);
  auto graph = graph_of(g);
  run_job([graph, path, f] { write_graph(*graph, path, f); });
}

// Views: the owner is the Python Graph object holding `self`.
template <typename F>
nb::object view_of(const PyGraph& self, F&& pick) {
  nb::handle owner = nb::find(&self);
  return numagraph::visit(
      [&](const auto& g) -> nb::object {
        const auto& arr = pick(g);
        if (arr.empty()) return nb::none();
        return nb::cast(view_numpy(arr, owner));
      },
      *graph_of(self));
}

// The name of each vertex in the caller's ids (the graph the user loaded,
// for a reordered one), or None when the graph has no names.
nb::object vertex_names(const PyGraph& self) {
  return numagraph::visit(
      [](const auto& g) -> nb::object {
        if (!g.named()) return nb::none();
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto& names = *g.names();
        nb::list out;
        for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
          const std::string& name = names[kernels::user_label(g, static_cast<V>(v))];
          out.append(nb::str(name.data(), name.size()));
        }
        return out;
      },
      *graph_of(self));
}

template <typename F>
auto with_graph(const PyGraph& self, F&& f) {
  return numagraph::visit([&](const auto& g) { return f(g); }, *graph_of(self));
}

}  // namespace

void bind_graph(nb::module_& m) {
  nb::class_<PyGraph>(m, "Graph", "A CSR graph held in C++ (use numagraph.Graph, the Python wrapper).")
      .def_prop_ro("num_vertices", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.num_vertices(); }); })
      .def_prop_ro("num_edges", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.num_edges(); }); })
      .def_prop_ro("num_arcs", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.num_arcs(); }); })
      .def_prop_ro("num_self_loops", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.num_self_loops(); }); })
      .def_prop_ro("directed", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.directed(); }); })
      .def_prop_ro("weighted", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.weighted(); }); })
      .def_prop_ro("weight_kind", [](const PyGraph& s) {
        return with_graph(s, [](const auto& g) { return std::string(to_string(g.weight_kind())); });
      })
      .def_prop_ro("relabelled", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.relabelled(); }); })
      .def_prop_ro("id_bits", [](const PyGraph& s) {
        return with_graph(s, [](const auto& g) { return static_cast<int>(8 * sizeof(typename std::decay_t<decltype(g)>::vertex_type)); });
      })
      .def_prop_ro("nbytes", [](const PyGraph& s) { return with_graph(s, [](const auto& g) { return g.bytes(); }); })
      .def_ro("name", &PyGraph::name)
      .def_prop_ro("notice", [](const PyGraph& s) { return python_voice(s.report.notice); })
      .def_prop_ro("decisions", [](const PyGraph& s) {
        // What the reader and builder decided: (key, value, note) with the
        // note in Python's spelling ("" when nothing needs saying).
        std::vector<std::tuple<std::string, std::string, std::string>> out;
        for (const auto& d : s.report.decisions)
          out.emplace_back(d.key, d.value, d.note.empty() ? std::string() : python_voice(d.note));
        return out;
      }, "What numagraph decided about the input: a list of (key, value, note); docs/formats.md lists the keys.")
      .def_prop_ro("self_loops_removed", [](const PyGraph& s) { return s.report.self_loops_removed; })
      .def_prop_ro("duplicates_removed", [](const PyGraph& s) { return s.report.duplicates_removed; })
      .def_prop_ro("indptr", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.out().offsets; }); })
      .def_prop_ro("indices", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.out().neighbors; }); })
      .def_prop_ro("weights", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.out().weights; }); })
      .def_prop_ro("in_indptr", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.in_arrays().offsets; }); })
      .def_prop_ro("in_indices", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.in_arrays().neighbors; }); })
      .def_prop_ro("in_weights", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.in_arrays().weights; }); })
      .def_prop_ro("labels", [](const PyGraph& s) { return view_of(s, [](const auto& g) -> const auto& { return g.labels(); }); })
      .def_prop_ro("permutation", [](const PyGraph& s) {
        return view_of(s, [](const auto& g) -> const auto& { return g.permutation().old_of_new; });
      })
      .def_prop_ro("vertex_names", &vertex_names,
                   "Names of a graph read with string ids (CSV/TSV), indexed by the ids kernels take and return "
                   "(a list of str); None for other graphs.")
      .def_ro("reorder_s", &PyGraph::reorder_s)
      .def_ro("reorder_bfs_equiv", &PyGraph::reorder_bfs_equiv);

  m.def("from_edges", &from_edges, nb::arg("src"), nb::arg("dst"), nb::arg("weights").none(), nb::arg("integer_weights"),
        nb::arg("num_vertices").none(), nb::arg("directed"), nb::arg("drop_self_loops"), nb::arg("dedupe"),
        nb::arg("relabel"), nb::arg("name"), nb::arg("names").none() = nb::none(), nb::arg("table_ids") = false);
  m.def("read", &read, nb::arg("path"), nb::arg("format"), nb::arg("directed").none(), nb::arg("drop_self_loops"),
        nb::arg("dedupe"), nb::arg("relabel"), nb::arg("header").none() = nb::none(), nb::arg("weight_column") = "");
  m.def("weight_column_name_verdict", [](const std::string& name) {
    auto [ok, why] = io::weight_column_name_verdict(name);
    return std::make_tuple(ok, why);
  }, nb::arg("name"), "(may_be_weights, why): whether a numeric column of this name may hold edge weights "
     "(the text tables' rule, docs/formats.md).");
  m.def("generate", &generate, nb::arg("kind"), nb::arg("scale"), nb::arg("edge_factor"), nb::arg("seed"),
        nb::arg("weighted"), nb::arg("drop_self_loops"), nb::arg("dedupe"));
  m.def("save", &save, nb::arg("graph"), nb::arg("path"), nb::arg("format"));
  m.def("reorder", &reorder_graph, nb::arg("graph"), nb::arg("order"), nb::arg("root").none());
  m.attr("DEFAULT_SEED") = kDefaultSeed;
}

}  // namespace numagraph::py
