// The builder's steps, one file each: id_relabel (sparse ids to 0..k-1),
// csr_scatter (counting sort of the edges into their sources' lists),
// neighbor_lists (sort, merge and clean each list) and csr_transpose (in-edges,
// and the reverse arcs of an undirected graph, placed bucket by bucket).
// Symmetrizing never doubles the edge list, and nothing is sorted globally.
#include "numagraph/graph/builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "csr_scatter.hpp"
#include "csr_transpose.hpp"
#include "id_relabel.hpp"
#include "neighbor_lists.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/memory_guard.hpp"

namespace numagraph {

namespace {

// Ids are "sparse" when fewer than a quarter of 0..max_id appear: the dense
// arrays would then be mostly holes.
constexpr std::uint64_t kSparseFactor = 4;

std::uint64_t max_id(const EdgeList& e) {
  std::uint64_t m = 0;
  const std::int64_t n = static_cast<std::int64_t>(e.size());
#pragma omp parallel for reduction(max : m) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) m = std::max({m, e.src[i], e.dst[i]});
  return m;
}

std::uint64_t min_id(const EdgeList& e) {
  std::uint64_t m = std::numeric_limits<std::uint64_t>::max();
  const std::int64_t n = static_cast<std::int64_t>(e.size());
#pragma omp parallel for reduction(min : m) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) m = std::min({m, e.src[i], e.dst[i]});
  return m;
}

// The first edge whose weight is NaN or infinite, or -1: the readers refuse
// such weights as they parse, arrays from the library or Python reach here.
std::int64_t first_non_finite_weight(const EdgeList& e) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  const std::int64_t n = static_cast<std::int64_t>(e.weights.size());
#pragma omp parallel for reduction(min : first) schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    if (!std::isfinite(e.weights[i])) first = std::min(first, i);
  return first == std::numeric_limits<std::int64_t>::max() ? -1 : first;
}

// The edge list's arrays as room for arcs on their way (csr_transpose.hpp):
// every arc is in the CSR by then. A view of memory someone else keeps (no
// reader makes one) is copied first rather than overwritten.
build::ArcBuffer edge_arrays_as_buffer(EdgeList& e) {
  if (e.src.is_view()) e.src = e.src.clone();
  if (e.dst.is_view()) e.dst = e.dst.clone();
  if (e.weights.is_view()) e.weights = e.weights.clone();
  return {e.src.data(), e.dst.data(), e.weighted() ? e.weights.data() : nullptr};
}

void release_edge_arrays(EdgeList& e) {
  e.src = {};
  e.dst = {};
  e.weights = {};
}

// Undirected: each list gets its forward arcs (sorted), then the reverse
// arcs (sorted by construction), then the two runs are merged and cleaned.
template <typename V>
CSRArrays<V> build_undirected(EdgeList& e, std::int64_t n, const BuildOptions& opt, build::ListCounts& counts) {
  NumaArray<eid_t> room = build::count_reverse_arcs(e, n);
  CSRArrays<V> a = build::scatter_forward<V>(e, n, &room);
  build::sort_list_fronts(a, n, room);
  build::add_reverse_arcs(a, n, room, edge_arrays_as_buffer(e));
  room = {};
  release_edge_arrays(e);
  counts = build::sort_and_clean_lists(a, n, opt.drop_self_loops, opt.dedupe);
  return a;
}

// Directed: the out-lists, sorted and cleaned, then their transpose.
template <typename V>
CSRArrays<V> build_directed(EdgeList& e, std::int64_t n, const BuildOptions& opt, build::ListCounts& counts,
                            CSRArrays<V>& in) {
  CSRArrays<V> out = build::scatter_forward<V>(e, n, nullptr);
  if (!opt.in_edges) release_edge_arrays(e);
  counts = build::sort_and_clean_lists(out, n, opt.drop_self_loops, opt.dedupe);
  if (opt.in_edges) in = build::transpose(out, n, edge_arrays_as_buffer(e));
  release_edge_arrays(e);
  return out;
}

template <typename V>
CSRGraph<V> build_with(EdgeList& e, std::int64_t n, const BuildOptions& opt,
                       NumaArray<std::uint64_t> labels, BuildReport& report) {
  const bool undirected = e.undirected || opt.symmetrize;
  build::ListCounts counts;
  CSRArrays<V> in;
  CSRArrays<V> out = undirected ? build_undirected<V>(e, n, opt, counts) : build_directed<V>(e, n, opt, counts, in);
  report.self_loops_removed = counts.loops_removed;
  report.duplicates_removed = counts.duplicates_removed;
  CSRGraph<V> g(n, !undirected, e.weight_kind, std::move(out), std::move(in), std::move(labels),
                counts.loops_kept);
  g.set_names(e.names);
  return g;
}

}  // namespace

AnyGraph build_graph(EdgeList&& e, const BuildOptions& opt, BuildReport* report_out) {
  BuildReport report;
  report.input_edges = static_cast<std::int64_t>(e.size());
  report.decisions = std::move(e.decisions);
  if (opt.symmetrize && find_decision(report.decisions, "directed"))
    set_decision(report.decisions, "directed", "false");  // asked for: nothing to say
  if (e.weighted() && e.weights.size() != e.size())
    throw UsageError("edge list has " + std::to_string(e.size()) + " edges but " +
                     std::to_string(e.weights.size()) + " weights; give one weight per edge");
  if (e.dst.size() != e.src.size())
    throw UsageError("edge list has " + std::to_string(e.src.size()) + " sources but " +
                     std::to_string(e.dst.size()) + " targets; the arrays must match");

  if (e.weighted() && e.weights.size() != e.src.size())
    throw UsageError("edge list has " + std::to_string(e.src.size()) + " edges but " +
                     std::to_string(e.weights.size()) + " weights; give one weight per edge");
  if (e.weighted()) {
    if (const std::int64_t i = first_non_finite_weight(e); i >= 0)
      throw InputError(e.source_name, 0,
                       "the weight of edge " + std::to_string(i) + " (" + std::to_string(e.src[i]) + " -> " +
                           std::to_string(e.dst[i]) + ") is " + std::to_string(e.weights[i]) +
                           ": weights must be finite numbers");
  }
  const std::uint64_t maxid = e.size() == 0 ? 0 : max_id(e);
  report.max_input_id = maxid;
  // Every reader stops ids at 2^63 - 1; arrays from Python can hold 2^64 - 1,
  // where max id + 1 would wrap to 0.
  if (maxid >= (std::uint64_t{1} << 63))
    throw InputError(e.source_name, 0,
                     "vertex id " + std::to_string(maxid) + " is too large: ids must be below 2^63");
  bool relabel = opt.relabel == Relabel::kOn;
  std::optional<build::IdBitmap> ids;  // built once: counts the ids, then relabels them
  std::uint64_t lowest = 0;            // the smallest id, when a file's ids need it
  if (opt.relabel == Relabel::kAuto && !e.num_vertices && e.size() > 0) {
    ids = build::IdBitmap::of(e, maxid);
    if (!ids || maxid + 1 > kSparseFactor * ids->distinct()) {
      relabel = true;
      report.relabel_was_automatic = true;
      report.notice = "ids are sparse (max id " + std::to_string(maxid) +
                      "); relabelled to dense ids 0..k-1, results are reported in the original "
                      "ids (use --relabel off to keep them)";
    } else if (const InputDecision* d = find_decision(report.decisions, "ids");
               d && d->value == "integers" && (lowest = min_id(e)) > 0) {
      // A file's own integer ids that start above 0 (1-based files): vertex 0
      // (and any id below the smallest) is not in the file, as NetworkX reading
      // it would agree; keeping it would add isolated vertices that change
      // counts, components and PageRank scores.
      relabel = true;
      report.relabel_was_automatic = true;
      report.notice = "ids start at " + std::to_string(lowest) +
                      ", not 0: the vertices are the ids in the file, relabelled to dense ids 0..k-1, and "
                      "results are reported in the file's ids (--relabel off adds the missing ids as "
                      "isolated vertices)";
    }
  }
  if (find_decision(report.decisions, "ids") || relabel)
    set_decision(report.decisions, "relabel", relabel ? "on" : "off",
                 report.relabel_was_automatic ? report.notice : std::string());
  if (e.num_vertices && e.size() > 0 && maxid >= *e.num_vertices) {
    throw InputError(e.source_name, 0,
                     "vertex id " + std::to_string(maxid) + " is out of range: the input declares " +
                         std::to_string(*e.num_vertices) + " vertices (ids 0.." +
                         std::to_string(*e.num_vertices == 0 ? 0 : *e.num_vertices - 1) + ")");
  }

  NumaArray<std::uint64_t> labels;
  std::uint64_t n;
  if (relabel) {
    if (!ids) ids = build::IdBitmap::of(e, maxid);
    labels = ids ? ids->relabel(e) : build::relabel_by_sorting(e);
    n = labels.size();
    report.relabelled = true;
  } else {
    n = e.num_vertices ? *e.num_vertices : (e.size() == 0 ? 0 : maxid + 1);
  }
  if (n > (std::uint64_t{1} << 62) && e.num_vertices && !relabel)
    throw InputError(e.source_name, 0,
                     "the input declares " + std::to_string(n) +
                         " vertices, more than numagraph can index (2^62)");
  if (n > (std::uint64_t{1} << 62))
    throw InputError(e.source_name, 0,
                     "vertex id " + std::to_string(maxid) +
                         " is too large to index densely; load with --relabel on");

  // 32-bit ids up to 2^31 vertices, so kernels can keep signed 32-bit
  // per-vertex values (BFS parents with negative markers) for every id.
  const bool wide = opt.force_64bit_ids || n >= (std::uint64_t{1} << 31);
  {
    // Offsets and degrees per direction plus one copy of the arcs: a header
    // that declares 4e9 vertices is refused here, before any allocation.
    const bool undirected = e.undirected || opt.symmetrize;
    const std::uint64_t arcs = static_cast<std::uint64_t>(e.size()) * (undirected ? 2 : 1);
    const std::uint64_t directions = !undirected && opt.in_edges ? 2 : 1;
    const std::uint64_t per_arc = (wide ? 8 : 4) + (e.weighted() ? 4 : 0);
    const std::uint64_t need = saturating_mul(
        directions, saturating_add(saturating_mul(n + 1, 16), saturating_mul(arcs, per_arc)));
    const std::string name = e.source_name.empty() ? std::string("the graph") : e.source_name;
    check_memory(name + ": " + std::to_string(n) + " vertices" +
                     (e.num_vertices && !relabel ? " (declared by its header)" : "") + ", " +
                     std::to_string(e.size()) + " edges",
                 need);
  }
  report.id_bits = wide ? 64 : 32;
  AnyGraph g = wide ? AnyGraph(build_with<std::uint64_t>(e, static_cast<std::int64_t>(n), opt,
                                                         std::move(labels), report))
                    : AnyGraph(build_with<std::uint32_t>(e, static_cast<std::int64_t>(n), opt,
                                                         std::move(labels), report));
  if (report_out) *report_out = report;
  return g;
}

template <typename V>
std::int64_t count_duplicate_arcs(const CSRGraph<V>& g) {
  const auto& a = g.out();
  const std::int64_t n = g.num_vertices();
  std::int64_t dups = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : dups)
  for (std::int64_t v = 0; v < n; ++v)
    for (eid_t k = a.offsets[v] + 1; k < a.offsets[v + 1]; ++k)
      dups += a.neighbors[k] == a.neighbors[k - 1];
  return dups;
}

template std::int64_t count_duplicate_arcs(const Graph32&);
template std::int64_t count_duplicate_arcs(const Graph64&);

}  // namespace numagraph
