// In-process sweep of the Gauss-Seidel PageRank sweep's chunk size
// (kernels/pr/pull_gauss_seidel.hpp, gauss_seidel_chunk_vertices): the real
// kernel with each chunk size in turn, calls alternating in one process, so
// every size sees the same pages and the same machine state, plus the
// Jacobi variant as a yardstick. The sizes: 16384 (gapbs's), n / t, n / 2t,
// n / 4t and n / 8t in whole lines (gauss_seidel_equal_chunk), 1024, 4096, and the rule's.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_gauss_seidel_chunks`.
// Usage: bench_gauss_seidel_chunks GRAPH THREADS [CALLS]   (GRAPH with 32-bit ids, e.g. an
//        undirected .ngr from bench/peers.py's workdir; CALLS per size, default 20; gapbs's
//        stopping rule: at most 20 iterations, L1 change below 1e-4; float contributions)
// Prints per size the median seconds, the ratio to 16384, the iterations and the last change.
// Measured with it: docs/kernels/pr.md, "Chunks for the threads".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "in_process_driver.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"

using namespace numagraph;

namespace {

struct Timed {
  std::vector<double> seconds;
  int iterations = 0;
  double last_change = 0;
};

template <typename Run>
void time_call(Timed& t, Run&& run) {
  const auto start = std::chrono::steady_clock::now();
  const kernels::PageRankResult r = run();
  t.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (r.iterations < 1) std::abort();
  t.iterations = r.iterations;
  t.last_change = r.last_change;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: gauss_seidel_chunks GRAPH THREADS [CALLS]\n");
    return 2;
  }
  const int threads = std::atoi(argv[2]);
  const int calls = argc == 4 ? std::atoi(argv[3]) : 20;
  if (threads < 1 || calls < 1) {
    std::fprintf(stderr, "gauss_seidel_chunks: THREADS and CALLS must be positive numbers\n");
    return 2;
  }
  const Graph32 g = bench::graph32_on_threads(argv[1], "gauss_seidel_chunks", threads);
  const std::int64_t n = g.num_vertices();
  const std::int64_t t = threads;
  const std::vector<std::int64_t> sizes = {kernels::kGaussSeidelChunk,
                                           kernels::gauss_seidel_equal_chunk(n, t),
                                           kernels::gauss_seidel_equal_chunk(n, 2 * t),
                                           kernels::gauss_seidel_equal_chunk(n, 4 * t),
                                           kernels::gauss_seidel_equal_chunk(n, 8 * t),
                                           1024,
                                           4096,
                                           kernels::gauss_seidel_chunk_vertices(n, static_cast<std::int64_t>(g.num_arcs()),
                                                                                threads, !kernels::splits_statically(g))};
  const int kinds = static_cast<int>(sizes.size()) + 1;  // the last is Jacobi
  kernels::PageRankOptions o;  // gapbs's stopping rule: 20 iterations at most, L1 change < 1e-4
  std::vector<Timed> timed(static_cast<std::size_t>(kinds));
  for (int c = 0; c < calls; ++c) {
    for (int k = 0; k < kinds; ++k) {
      const int m = c % 2 ? kinds - 1 - k : k;  // alternate which goes first
      Timed& slot = timed[static_cast<std::size_t>(m)];
      if (m == kinds - 1) {
        time_call(slot, [&] { return kernels::pagerank_pull_jacobi(g, o); });
      } else {
        const std::int64_t chunk = sizes[static_cast<std::size_t>(m)];
        time_call(slot, [&] { return kernels::pagerank_pull_gauss_seidel_with<std::uint32_t, float, false>(g, o, chunk); });
      }
    }
  }
  const double first = bench::median(timed[0].seconds);
  std::printf("%s, %d threads, %lld vertices, %d calls each:\n", argv[1], threads, static_cast<long long>(n), calls);
  for (int m = 0; m < kinds; ++m) {
    const Timed& slot = timed[static_cast<std::size_t>(m)];
    const double s = bench::median(slot.seconds);
    if (m == kinds - 1) {
      std::printf("  jacobi                        %9.3f ms  x%.3f  %d iterations\n", s * 1e3, s / first,
                  slot.iterations);
    } else {
      const std::int64_t size = sizes[static_cast<std::size_t>(m)];
      std::printf("  chunk %6lld (%5lld chunks)%s %9.3f ms  x%.3f  %d iterations, last change %.3g\n",
                  static_cast<long long>(size), static_cast<long long>((n + size - 1) / size),
                  m == kinds - 2 ? " rule" : "     ", s * 1e3, s / first, slot.iterations, slot.last_change);
    }
  }
  return 0;
}
