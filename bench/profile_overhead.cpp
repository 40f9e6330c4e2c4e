// What the profile sampler costs a kernel: PageRank on a Kronecker graph,
// timed with no sampler and with one sampling every source (perf events of
// the worker threads, numastat, RAPL) at INTERVAL_MS, the two alternating
// trial by trial so that machine load hits both alike. Prints one JSON line:
// the median of each, their ratio, and the sampler thread's CPU time per
// sample.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_profile_overhead`.
// Usage: profile_overhead SCALE TRIALS INTERVAL_MS [THREADS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <variant>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/profile/sampler.hpp"

using namespace numagraph;

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: profile_overhead SCALE TRIALS INTERVAL_MS [THREADS]\n");
    return 2;
  }
  const int scale = std::atoi(argv[1]), trials = std::atoi(argv[2]), interval = std::atoi(argv[3]);
  if (scale < 4 || scale > 26 || trials < 1 || interval < 1 || interval > 1000) {
    std::fprintf(stderr, "profile_overhead: SCALE in 4..26, TRIALS >= 1, INTERVAL_MS in 1..1000\n");
    return 2;
  }
  numa::RuntimeConfig config;
  config.threads = argc == 5 ? std::atoi(argv[4]) : 0;
  numa::Runtime::get().configure(config);
  GeneratorOptions gen;
  gen.scale = scale;
  gen.edge_factor = 16;
  EdgeList edges = generate_kronecker(gen);
  edges.undirected = true;
  BuildOptions build;
  build.dedupe = true;
  build.drop_self_loops = true;
  const Graph32 g = std::get<Graph32>(build_graph(std::move(edges), build));

  PageRankOptions options;
  options.tolerance = 0;  // a fixed number of iterations: every trial does the same work
  options.max_iterations = 20;
  std::vector<double> off, on;
  double cpu = 0;
  std::size_t samples = 0;
  pagerank(g, options);  // warm-up: pages faulted, caches filled
  for (int t = 0; t < trials; ++t) {
    for (int with = 0; with < 2; ++with) {
      profile::Sampler sampler(profile::default_sources(), {.interval_ms = interval});
      Execution x;
      if (with) {
        x.listener = &sampler;
        sampler.start();
      }
      const auto start = std::chrono::steady_clock::now();
      pagerank(g, options, x);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      (with ? on : off).push_back(s);
      if (with) {
        const profile::Profile p = sampler.stop();
        cpu += p.sampler_cpu_s;
        samples += p.samples();
      }
    }
  }
  const double m_off = median(off), m_on = median(on);
  std::printf(
      "{\"scale\": %d, \"edges\": %lld, \"threads\": %d, \"interval_ms\": %d, \"trials\": %d, "
      "\"median_off_s\": %.6f, \"median_on_s\": %.6f, \"ratio\": %.4f, \"samples\": %zu, "
      "\"sampler_cpu_us_per_sample\": %.2f}\n",
      scale, static_cast<long long>(g.num_edges()), numa::Runtime::get().threads(), interval, trials, m_off, m_on,
      m_on / m_off, samples, samples ? cpu / static_cast<double>(samples) * 1e6 : 0.0);
  return 0;
}
