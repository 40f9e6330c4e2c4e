// numagraph info FILE: sizes, degrees, self-loops, duplicates, memory.
// With --locality, instead: how local the numbering is (bandwidth, average
// log2 gap, per-thread working set of one search), of the graph as stored or
// renumbered by --reorder (docs/reordering.md).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "common.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/reorder/gaps.hpp"
#include "numagraph/reorder/working_set.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct InfoOptions {
  GraphSource src;
  bool json = false;
  int threads = 0;
  bool locality = false;
  std::string reorder = "none";
  std::string reorder_root;  // your id or name; empty: the highest-degree vertex
  std::string root;          // the working-set search's start, your id or name; empty: highest out-degree
};

// The internal id in g (which may be a reordered .ngr) of the vertex the
// user gave to `flag` as an id or a name.
template <typename G>
typename G::vertex_type internal_id(const G& g, const std::string& text, const char* flag) {
  std::optional<G> keep;
  return g.permutation().to_new(kernels::dense_id_of(caller_graph(g, keep), text, flag));
}

template <typename G>
void print_locality(const G& g, const LoadedGraph& lg, const InfoOptions& o) {
  using V = typename G::vertex_type;
  const std::int64_t n = g.num_vertices();
  if (n == 0) throw UsageError("the graph has no vertices: locality needs at least one");
  reorder::Spec spec{reorder::parse_order(o.reorder), -1};
  if (!o.reorder_root.empty()) {
    if (spec.order != reorder::Order::kRcm && spec.order != reorder::Order::kAdl &&
        spec.order != reorder::Order::kAdlSerial)
      throw UsageError("--reorder-root needs --reorder rcm, adl or adl-serial");
    spec.root = static_cast<std::int64_t>(internal_id(g, o.reorder_root, "--reorder-root"));
  }
  // The search root, in g's ids: the same vertex whatever the order.
  V root = 0;
  if (!o.root.empty()) {
    root = internal_id(g, o.root, "--root");
  } else {
    for (std::int64_t v = 1; v < n; ++v)
      if (g.out_degree(static_cast<V>(v)) > g.out_degree(root)) root = static_cast<V>(v);
  }
  reorder::OrderStats stats;
  profile::Timer timer;
  const auto perm = reorder::compute_order(g, spec, &stats);
  const double order_s = timer.seconds();
  std::optional<G> renumbered;
  if (!perm.identity()) renumbered.emplace(reorder::apply_permutation(g, perm));
  const G& h = renumbered ? *renumbered : g;
  const V hroot = perm.to_new(root);
  const reorder::Gaps gaps = reorder::measure_gaps(h);
  const int threads = parallel::max_threads();
  const auto bfs = reorder::measure_working_set(h, hroot, threads, reorder::WorkingSetSchedule::kIdOrder);
  const auto bc = reorder::measure_working_set(h, hroot, threads, reorder::WorkingSetSchedule::kDiscoveryOrder);
  auto mean = [](const std::vector<std::int64_t>& x) {
    double s = 0;
    for (auto v : x) s += static_cast<double>(v);
    return x.empty() ? 0.0 : s / static_cast<double>(x.size());
  };
  auto max_of = [](const std::vector<std::int64_t>& x) { return *std::max_element(x.begin(), x.end()); };

  // Labels are indexed by g's ids; a reordered file's ids map back through its permutation.
  const auto user_root = static_cast<std::int64_t>(g.relabelled() ? g.label(root) : g.permutation().to_old(root));
  profile::Record rec;
  rec.set("graph", lg.name)
      .set("num_vertices", n)
      .set("num_arcs", g.num_arcs())
      .set("order", reorder::to_string(spec.order))
      .set("order_s", order_s)
      .set("order_bfs_equiv", stats.bfs_equivalents)
      .set("bandwidth", gaps.bandwidth)
      .set("average_log_gap", gaps.average_log_gap)
      .set("threads", threads)
      .set("root", user_root)
      .set("reached", bfs.reached)
      .set("ideal_vertices", bfs.ideal_vertices())
      .set("ideal_lines", bfs.ideal_lines());
  for (const auto* w : {&bfs, &bc}) {
    const std::string k = w == &bfs ? "bfs_" : "bc_";
    rec.set(k + "working_set_vertices", mean(w->vertices))
        .set(k + "working_set_vertices_max", max_of(w->vertices))
        .set(k + "working_set_vertices_per_thread", w->vertices)
        .set(k + "working_set_lines", mean(w->lines))
        .set(k + "working_set_lines_max", max_of(w->lines))
        .set(k + "working_set_lines_per_thread", w->lines);
  }
  if (o.json) {
    std::printf("%s\n", rec.json().c_str());
    return;
  }
  std::printf("graph           %s\n", lg.name.c_str());
  std::printf("vertices        %lld (%s)\n", static_cast<long long>(n), count_of(g.num_arcs(), "arc").c_str());
  std::printf("order           %s (%.3f s, %.2f BFS)\n", reorder::to_string(spec.order), order_s,
              stats.bfs_equivalents);
  std::printf("bandwidth       %lld (max |u - v| over arcs)\n", static_cast<long long>(gaps.bandwidth));
  std::printf("average gap     %.3f (mean log2(1 + |u - v|) over arcs)\n", gaps.average_log_gap);
  std::printf("working set     %s, search from vertex %lld reaching %s\n", count_of(threads, "thread").c_str(),
              static_cast<long long>(user_root), count_of(bfs.reached, "vertex", "vertices").c_str());
  std::printf("                per thread: mean (max) distinct vertices | 64-byte lines; ideal %.0f | %.0f\n",
              bfs.ideal_vertices(), bfs.ideal_lines());
  std::printf("  bfs (id order)        %.0f (%lld) | %.0f (%lld)\n", mean(bfs.vertices),
              static_cast<long long>(max_of(bfs.vertices)), mean(bfs.lines), static_cast<long long>(max_of(bfs.lines)));
  std::printf("  bc (discovery order)  %.0f (%lld) | %.0f (%lld)\n", mean(bc.vertices),
              static_cast<long long>(max_of(bc.vertices)), mean(bc.lines), static_cast<long long>(max_of(bc.lines)));
}

template <typename G>
void print_info(const G& g, const LoadedGraph& lg, bool json) {
  const std::int64_t n = g.num_vertices();
  eid_t dmin = n > 0 ? g.out_degree(0) : 0, dmax = 0;
  std::vector<std::int64_t> histogram(64, 0);  // bucket b: degree in [2^(b-1), 2^b)
#pragma omp parallel
  {
    std::vector<std::int64_t> local(64, 0);
    eid_t lmin = dmin, lmax = 0;
#pragma omp for schedule(static) nowait
    for (std::int64_t v = 0; v < n; ++v) {
      const eid_t d = g.out_degree(static_cast<typename G::vertex_type>(v));
      lmin = std::min(lmin, d);
      lmax = std::max(lmax, d);
      ++local[d == 0 ? 0 : 64 - __builtin_clzll(static_cast<unsigned long long>(d))];
    }
#pragma omp critical
    {
      dmin = std::min(dmin, lmin);
      dmax = std::max(dmax, lmax);
      for (int b = 0; b < 64; ++b) histogram[b] += local[b];
    }
  }
  const double mean = n > 0 ? static_cast<double>(g.num_arcs()) / static_cast<double>(n) : 0.0;
  const std::int64_t dups = count_duplicate_arcs(g);
  int top = 0;
  for (int b = 0; b < 64; ++b)
    if (histogram[b]) top = b;

  profile::Record rec;
  rec.set("graph", lg.name)
      .set("num_vertices", n)
      .set("num_edges", g.num_edges())
      .set("num_arcs", g.num_arcs())
      .set("directed", g.directed())
      .set("weighted", g.weighted())
      .set("weight_kind", to_string(g.weight_kind()))
      .set("id_bits", static_cast<int>(sizeof(typename G::vertex_type) * 8))
      .set("relabelled", g.relabelled())
      .set("degree_min", dmin)
      .set("degree_mean", mean)
      .set("degree_max", dmax)
      .set("self_loops", g.num_self_loops())
      .set("duplicate_arcs", dups)
      .set("bytes", g.bytes())
      .set("load_s", lg.load_seconds)
      .set("read_s", lg.read_seconds)
      .set("build_s", lg.build_seconds)
      .set("degree_histogram_log2", std::vector<std::int64_t>(histogram.begin(), histogram.begin() + top + 1))
      .set("vertex_names", g.named());
  if (lg.header) rec.set("header", *lg.header);  // CSV/TSV: whether line 1 was a header
  if (!lg.report.decisions.empty()) rec.set("input", input_record(lg.report));  // what was decided about the file
  if (json) {
    std::printf("%s\n", rec.json().c_str());
    return;
  }
  std::printf("graph           %s\n", lg.name.c_str());
  std::printf("vertices        %lld%s%s\n", static_cast<long long>(n), g.relabelled() ? " (relabelled)" : "",
              g.named() ? " (named by the file)" : "");
  std::printf("edges           %lld %s (%s stored)\n", static_cast<long long>(g.num_edges()),
              g.directed() ? "directed" : "undirected", count_of(g.num_arcs(), "arc").c_str());
  std::printf("weights         %s\n", to_string(g.weight_kind()));
  std::printf("id width        %d bits\n", static_cast<int>(sizeof(typename G::vertex_type) * 8));
  std::printf("out-degree      min %lld  mean %.2f  max %lld\n", static_cast<long long>(dmin), mean,
              static_cast<long long>(dmax));
  std::printf("self-loops      %lld\n", static_cast<long long>(g.num_self_loops()));
  std::printf("duplicate arcs  %lld\n", static_cast<long long>(dups));
  std::printf("memory          %.1f MiB\n", static_cast<double>(g.bytes()) / (1 << 20));
  std::printf("load time       %.3f s\n", lg.load_seconds);
  std::printf("degree histogram (out-degree range: vertices)\n");
  for (int b = 0; b <= top; ++b) {
    const long long lo = b == 0 ? 0 : 1LL << (b - 1), hi = b == 0 ? 0 : (1LL << b) - 1;
    std::printf("  %10lld-%-10lld %lld\n", lo, hi, static_cast<long long>(histogram[b]));
  }
}

const Register kInfo{{"info", "print sizes, degree statistics, self-loops and duplicates", 10,
                      [](CLI::App& app) {
                        auto o = std::make_shared<InfoOptions>();
                        add_graph_options(app, o->src, /*raw=*/true);
                        app.add_flag("--json", o->json, "print one JSON object");
                        app.add_option("-t,--threads", o->threads,
                                       "threads (default: all cores); with --locality also the threads the "
                                       "working set is split among");
                        app.add_flag("--locality", o->locality,
                                      "instead: bandwidth, average log2 gap and the per-thread working set of one "
                                      "BFS and one BC source, of the graph as the kernels load it "
                                      "(docs/reordering.md)");
                        app.add_option("--reorder", o->reorder,
                                       "with --locality: measure the graph renumbered in this order: none "
                                       "(default), degree, dbg, rcm, adl or adl-serial")
                            ->type_name("ORDER");
                        app.add_option("--reorder-root", o->reorder_root,
                                       "with --locality: where rcm and adl start (your id, or its name in "
                                       "a CSV/TSV graph with names; default: the highest-degree vertex)")
                            ->type_name("ID");
                        app.add_option("--root", o->root,
                                       "with --locality: where the working-set search starts (your id or "
                                       "name; default: the highest out-degree vertex)")
                            ->type_name("ID");
                        app.callback([o] {
                          if (!o->locality && (o->reorder != "none" || !o->reorder_root.empty() || !o->root.empty()))
                            throw UsageError("--reorder, --reorder-root and --root belong to --locality: add "
                                             "--locality");
                          parallel::set_threads(o->threads);
                          // --locality measures what the kernels see: self-loops and
                          // duplicate arcs dropped (info alone reports them as stored).
                          LoadedGraph lg = load_graph(o->src, /*raw=*/!o->locality);
                          numagraph::visit(
                              [&](const auto& g) {
                                if (o->locality) print_locality(g, lg, *o);
                                else print_info(g, lg, o->json);
                              },
                              lg.graph);
                        });
                      }}};

}  // namespace
}  // namespace numagraph::cli
