// Shared pieces of the fuzz targets (one per reader or decoder). Each target
// defines LLVMFuzzerTestOneInput; built with clang's libFuzzer when
// NUMAGRAPH_FUZZ is ON, and with replay_main.cpp as a plain program that ctest
// runs over the committed corpus (tests/fuzz/corpus/<target>/), so every crash
// once found stays a regression test in the ordinary build.
//
// A target may end in a numagraph::Error (the documented refusals): that is a
// pass. Anything else (a crash, a sanitizer report, another exception, a
// graph that breaks the CSR invariants) is a finding.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::fuzz {

// The readers take paths: the input goes to a per-process file with the
// suffix the reader keys on.
inline std::string input_file(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
  static const std::string dir = [] {
    const char* t = std::getenv("TMPDIR");
    return std::string(t && *t ? t : "/tmp");
  }();
  const std::string path = dir + "/numagraph-fuzz-" + std::to_string(getpid()) + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

// Limits that keep one input cheap: the memory guard refuses big declared
// sizes (and is exercised doing so), two threads keep the parallel paths.
inline void setup() {
  static const bool once = [] {
    setenv("NUMAGRAPH_MEMORY_LIMIT", "256M", 0);
    setenv("OMP_NUM_THREADS", "2", 0);
    return true;
  }();
  (void)once;
}

#define NUMAGRAPH_FUZZ_CHECK(cond)                                                   \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

// Walks every arc: offsets rise from 0 to m, ids < n, weights finite, a
// permutation is one; what a kernel relies on after a successful load.
template <typename G>
void check_graph(const G& g) {
  const std::int64_t n = g.num_vertices();
  NUMAGRAPH_FUZZ_CHECK(n >= 0);
  auto check_dir = [&](const auto& a) {
    if (n == 0) return;
    NUMAGRAPH_FUZZ_CHECK(a.offsets.size() == static_cast<std::size_t>(n) + 1);
    NUMAGRAPH_FUZZ_CHECK(a.offsets[0] == 0);
    for (std::int64_t v = 0; v < n; ++v) NUMAGRAPH_FUZZ_CHECK(a.offsets[v] <= a.offsets[v + 1]);
    const auto m = a.offsets[n];
    NUMAGRAPH_FUZZ_CHECK(static_cast<std::size_t>(m) <= a.neighbors.size());
    for (std::int64_t k = 0; k < m; ++k) NUMAGRAPH_FUZZ_CHECK(static_cast<std::int64_t>(a.neighbors[k]) < n);
    if (g.weighted()) {
      NUMAGRAPH_FUZZ_CHECK(static_cast<std::size_t>(m) <= a.weights.size());
      for (std::int64_t k = 0; k < m; ++k) NUMAGRAPH_FUZZ_CHECK(a.weights[k] == a.weights[k] && a.weights[k] - a.weights[k] == 0);
    }
  };
  check_dir(g.out());
  if (g.directed() && g.has_in_edges()) check_dir(g.in_arrays());
  if (g.relabelled()) NUMAGRAPH_FUZZ_CHECK(g.labels().size() == static_cast<std::size_t>(n));
  if (g.reordered()) {  // a permutation: both directions in range and inverse to each other
    const auto& p = g.permutation();
    NUMAGRAPH_FUZZ_CHECK(p.old_of_new.size() == static_cast<std::size_t>(n) && p.new_of_old.size() == p.old_of_new.size());
    for (std::int64_t v = 0; v < n; ++v) {
      NUMAGRAPH_FUZZ_CHECK(static_cast<std::int64_t>(p.old_of_new[v]) < n);
      NUMAGRAPH_FUZZ_CHECK(static_cast<std::int64_t>(p.new_of_old[p.old_of_new[v]]) == v);
    }
  }
}

inline void check_any(const AnyGraph& g) {
  numagraph::visit([](const auto& graph) { check_graph(graph); }, g);
}

// Runs `f`; the library's documented errors are a pass.
template <typename F>
void run(F&& f) {
  setup();
  try {
    f();
  } catch (const numagraph::Error&) {
  }
}

}  // namespace numagraph::fuzz
