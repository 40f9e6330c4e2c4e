// numagraph info FILE: sizes, degrees, self-loops, duplicates, memory.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "common.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct InfoOptions {
  GraphSource src;
  bool json = false;
  int threads = 0;
};

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
      .set("degree_histogram_log2", std::vector<std::int64_t>(histogram.begin(), histogram.begin() + top + 1));
  if (json) {
    std::printf("%s\n", rec.json().c_str());
    return;
  }
  std::printf("graph           %s\n", lg.name.c_str());
  std::printf("vertices        %lld%s\n", static_cast<long long>(n), g.relabelled() ? " (relabelled)" : "");
  std::printf("edges           %lld %s (%lld arcs stored)\n", static_cast<long long>(g.num_edges()),
              g.directed() ? "directed" : "undirected", static_cast<long long>(g.num_arcs()));
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
                        app.add_option("-t,--threads", o->threads, "threads (default: all cores)");
                        app.callback([o] {
                          parallel::set_threads(o->threads);
                          LoadedGraph lg = load_graph(o->src, /*raw=*/true);
                          numagraph::visit([&](const auto& g) { print_info(g, lg, o->json); }, lg.graph);
                        });
                      }}};

}  // namespace
}  // namespace numagraph::cli
