#include "numagraph/graph/builder.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "numagraph/numa/roles.hpp"
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

// Distinct ids, counted with a bitmap when max id is small enough to afford
// one; returns 0 when the bitmap would be too big (ids then certainly sparse).
std::uint64_t count_distinct_small(const EdgeList& e, std::uint64_t maxid) {
  const std::int64_t n = static_cast<std::int64_t>(e.size());
  if (maxid / 64 > static_cast<std::uint64_t>(n) + 1024) return 0;
  std::vector<std::uint64_t> bits(maxid / 64 + 1, 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    __atomic_fetch_or(&bits[e.src[i] / 64], std::uint64_t{1} << (e.src[i] % 64), __ATOMIC_RELAXED);
    __atomic_fetch_or(&bits[e.dst[i] / 64], std::uint64_t{1} << (e.dst[i] % 64), __ATOMIC_RELAXED);
  }
  std::uint64_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(bits.size()); ++i)
    total += static_cast<std::uint64_t>(__builtin_popcountll(bits[i]));
  return total;
}

// Replaces every id by its rank among the distinct ids; returns the sorted
// distinct ids (the labels).
NumaArray<std::uint64_t> relabel_in_place(EdgeList& e) {
  const std::size_t m = e.size();
  std::vector<std::uint64_t> ids(2 * m);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m); ++i) {
    ids[2 * i] = e.src[i];
    ids[2 * i + 1] = e.dst[i];
  }
  __gnu_parallel::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  NumaArray<std::uint64_t> labels(ids.size());
  std::copy(ids.begin(), ids.end(), labels.begin());
  auto rank = [&](std::uint64_t id) {
    return static_cast<std::uint64_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(m); ++i) {
    e.src[i] = rank(e.src[i]);
    e.dst[i] = rank(e.dst[i]);
  }
  return labels;
}

// Scatters the edge list into one CSR direction. `reverse` builds the in-edge
// CSR (dst -> src); `symmetric` adds both directions of every non-loop edge.
template <typename V>
CSRArrays<V> scatter(const EdgeList& e, std::int64_t n, bool reverse, bool symmetric) {
  const std::int64_t m = static_cast<std::int64_t>(e.size());
  const bool weighted = e.weighted();
  const auto& from = reverse ? e.dst : e.src;
  const auto& to = reverse ? e.src : e.dst;

  NumaArray<eid_t> degree(static_cast<std::size_t>(n) + 1);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    parallel::fetch_add(degree[from[i]], eid_t{1});
    if (symmetric && from[i] != to[i]) parallel::fetch_add(degree[to[i]], eid_t{1});
  }
  CSRArrays<V> out;
  out.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
  parallel::exclusive_prefix_sum(degree.data(), out.offsets.data(), n);
  const eid_t arcs = out.offsets[n];
  out.neighbors = NumaArray<V>(static_cast<std::size_t>(arcs), numa::placement_for("graph"));
  if (weighted)
    out.weights = NumaArray<weight_t>(static_cast<std::size_t>(arcs), numa::placement_for("graph"));

  // Reuse `degree` as the per-vertex write cursor.
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) degree[v] = out.offsets[v];
  auto place = [&](std::uint64_t u, std::uint64_t v, weight_t w) {
    const eid_t slot = parallel::fetch_add(degree[u], eid_t{1});
    out.neighbors[slot] = static_cast<V>(v);
    if (weighted) out.weights[slot] = w;
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    const weight_t w = weighted ? e.weights[i] : weight_t{0};
    place(from[i], to[i], w);
    if (symmetric && from[i] != to[i]) place(to[i], from[i], w);
  }
  return out;
}

// Sorts every neighbour list (by id, then weight) so output is deterministic
// whatever order the scatter wrote in.
template <typename V>
void sort_neighbor_lists(CSRArrays<V>& a, std::int64_t n) {
  const bool weighted = !a.weights.empty();
#pragma omp parallel
  {
    std::vector<std::pair<V, weight_t>> scratch;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t v = 0; v < n; ++v) {
      V* nb = a.neighbors.data() + a.offsets[v];
      const eid_t d = a.offsets[v + 1] - a.offsets[v];
      if (!weighted) {
        std::sort(nb, nb + d);
        continue;
      }
      weight_t* w = a.weights.data() + a.offsets[v];
      scratch.resize(static_cast<std::size_t>(d));
      for (eid_t k = 0; k < d; ++k) scratch[k] = {nb[k], w[k]};
      std::sort(scratch.begin(), scratch.end());
      for (eid_t k = 0; k < d; ++k) std::tie(nb[k], w[k]) = scratch[k];
    }
  }
}

// Removes self-loops and/or duplicates (keeping the first = smallest weight,
// since lists are sorted by (id, weight)). Returns {loops, duplicates} removed.
template <typename V>
std::pair<std::int64_t, std::int64_t> compact(CSRArrays<V>& a, std::int64_t n, bool drop_loops,
                                              bool dedupe) {
  const bool weighted = !a.weights.empty();
  auto keep = [&](std::int64_t v, eid_t k) {
    const V x = a.neighbors[k];
    if (drop_loops && x == static_cast<V>(v)) return false;
    if (dedupe && k > a.offsets[v] && a.neighbors[k - 1] == x) return false;
    return true;
  };
  NumaArray<eid_t> kept(static_cast<std::size_t>(n) + 1);
  std::int64_t loops = 0, dups = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : loops, dups)
  for (std::int64_t v = 0; v < n; ++v) {
    eid_t c = 0;
    for (eid_t k = a.offsets[v]; k < a.offsets[v + 1]; ++k) {
      if (keep(v, k)) {
        ++c;
      } else if (drop_loops && a.neighbors[k] == static_cast<V>(v)) {
        ++loops;
      } else {
        ++dups;
      }
    }
    kept[v] = c;
  }
  if (loops == 0 && dups == 0) return {0, 0};
  CSRArrays<V> b;
  b.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
  parallel::exclusive_prefix_sum(kept.data(), b.offsets.data(), n);
  b.neighbors = NumaArray<V>(static_cast<std::size_t>(b.offsets[n]), numa::placement_for("graph"));
  if (weighted)
    b.weights = NumaArray<weight_t>(static_cast<std::size_t>(b.offsets[n]), numa::placement_for("graph"));
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < n; ++v) {
    eid_t out = b.offsets[v];
    for (eid_t k = a.offsets[v]; k < a.offsets[v + 1]; ++k) {
      if (!keep(v, k)) continue;
      b.neighbors[out] = a.neighbors[k];
      if (weighted) b.weights[out] = a.weights[k];
      ++out;
    }
  }
  a = std::move(b);
  return {loops, dups};
}

template <typename V>
std::int64_t count_loops(const CSRArrays<V>& a, std::int64_t n) {
  std::int64_t loops = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : loops)
  for (std::int64_t v = 0; v < n; ++v)
    for (eid_t k = a.offsets[v]; k < a.offsets[v + 1]; ++k)
      loops += a.neighbors[k] == static_cast<V>(v);
  return loops;
}

template <typename V>
CSRGraph<V> build_with(EdgeList& e, std::int64_t n, const BuildOptions& opt,
                       NumaArray<std::uint64_t> labels, BuildReport& report) {
  const bool undirected = e.undirected || opt.symmetrize;
  CSRArrays<V> out = scatter<V>(e, n, false, undirected);
  CSRArrays<V> in;
  if (!undirected && opt.in_edges) in = scatter<V>(e, n, true, false);
  sort_neighbor_lists(out, n);
  if (!in.offsets.empty()) sort_neighbor_lists(in, n);
  if (opt.drop_self_loops || opt.dedupe) {
    auto [loops, dups] = compact(out, n, opt.drop_self_loops, opt.dedupe);
    if (!in.offsets.empty()) compact(in, n, opt.drop_self_loops, opt.dedupe);
    report.self_loops_removed = loops;
    report.duplicates_removed = dups;
  }
  const std::int64_t loops = count_loops(out, n);
  CSRGraph<V> g(n, !undirected, e.weight_kind, std::move(out), std::move(in), std::move(labels), loops);
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
  std::uint64_t lowest = 0;            // the smallest id, when a file's ids need it
  if (opt.relabel == Relabel::kAuto && !e.num_vertices && e.size() > 0) {
    const std::uint64_t distinct = count_distinct_small(e, maxid);
    if (distinct == 0 || maxid + 1 > kSparseFactor * distinct) {
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
    labels = relabel_in_place(e);
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
