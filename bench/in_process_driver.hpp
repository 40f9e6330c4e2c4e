// What the in-process benchmark drivers (bc_sssp_driver.cpp, pull_prefetch_ab.cpp,
// tile_shapes.cpp) share: a runtime of a chosen thread count, a graph with
// 32-bit ids, and the median of their timings.
// Header-only, so that each driver is one source file (one bench_NAME target
// with -DNUMAGRAPH_BENCH=ON).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>
#include <variant>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/numa/runtime.hpp"

namespace numagraph::bench {

// Configures the runtime for `threads` threads, pinned as the CLI pins them,
// and loads `path`; exits with a message naming `driver` when the graph needs
// 64-bit ids, which these drivers do not instantiate, or cannot be read. The
// runtime must have every thread the driver runs: one configured for fewer
// pins the whole team onto that many cores.
inline Graph32 graph32_on_threads(const char* path, const char* driver, int threads) {
  numa::RuntimeConfig config;
  config.threads = threads;
  numa::Runtime::get().configure(config);
  AnyGraph any;
  try {
    any = load_graph(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", driver, e.what());
    std::exit(2);
  }
  if (!std::holds_alternative<Graph32>(any)) {
    std::fprintf(stderr, "%s: %s needs 64-bit ids; this driver takes graphs with 32-bit ids\n", driver, path);
    std::exit(2);
  }
  return std::move(std::get<Graph32>(any));
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace numagraph::bench
