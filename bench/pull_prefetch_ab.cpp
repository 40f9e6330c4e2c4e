// In-process A/B of the unblocked pull loops' prefetch (sweep/gather_sum.hpp):
// the real Gauss-Seidel and Jacobi PageRank sweeps with and without it, one
// call each in turn, in one process. On this VM the same run varies by up to
// 1.5x from one process to the next (where its pages land), which hides a
// 20 % change in a comparison of separate processes; calls that alternate
// in one process see the same pages.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_pull_prefetch_ab`.
// Usage: bench_pull_prefetch_ab GRAPH [CALLS]   (GRAPH with 32-bit ids, e.g. urand22.sg from
//        bench/vs_gapbs.py; CALLS per variant, default 7; gapbs's stopping rule: at most 20
//        iterations, L1 change below 1e-4; float contributions; 2 threads)
// Prints the median seconds per call of each variant and the ratio with / without.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "in_process_driver.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"

using namespace numagraph;

namespace {

template <bool Prefetch>
double gauss_seidel_seconds(const Graph32& g, const kernels::PageRankOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = kernels::pagerank_pull_gauss_seidel_with<std::uint32_t, float, Prefetch>(g, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.iterations < 1) std::abort();
  return s;
}

template <bool Prefetch>
double jacobi_seconds(const Graph32& g, const kernels::PageRankOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  kernels::PageRankResult r;
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(g.num_vertices()));
  kernels::pagerank_jacobi_iterations<false, Prefetch, std::uint32_t, float>(g, o, nullptr, r);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.iterations < 1) std::abort();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: pull_prefetch_ab GRAPH [CALLS]\n");
    return 2;
  }
  const int calls = argc == 3 ? std::atoi(argv[2]) : 7;
  if (calls < 1) {
    std::fprintf(stderr, "pull_prefetch_ab: CALLS must be a positive number\n");
    return 2;
  }
  const Graph32 g = bench::graph32_on_threads(argv[1], "pull_prefetch_ab", 2);
  kernels::PageRankOptions o;  // gapbs's stopping rule: 20 iterations at most, L1 change < 1e-4
  std::vector<double> gs_plain, gs_ahead, jacobi_plain, jacobi_ahead;
  for (int c = 0; c < calls; ++c) {  // alternate which goes first
    if (c % 2) {
      gs_plain.push_back(gauss_seidel_seconds<false>(g, o));
      gs_ahead.push_back(gauss_seidel_seconds<true>(g, o));
      jacobi_plain.push_back(jacobi_seconds<false>(g, o));
      jacobi_ahead.push_back(jacobi_seconds<true>(g, o));
    } else {
      jacobi_ahead.push_back(jacobi_seconds<true>(g, o));
      jacobi_plain.push_back(jacobi_seconds<false>(g, o));
      gs_ahead.push_back(gauss_seidel_seconds<true>(g, o));
      gs_plain.push_back(gauss_seidel_seconds<false>(g, o));
    }
  }
  const double gs_without = bench::median(gs_plain), gs_with = bench::median(gs_ahead);
  const double jacobi_without = bench::median(jacobi_plain), jacobi_with = bench::median(jacobi_ahead);
  std::printf("%s: Gauss-Seidel %.4f s without, %.4f s with the prefetch (x%.3f); Jacobi %.4f s, %.4f s (x%.3f); "
              "%d calls each, %lld arcs ahead\n",
              argv[1], gs_without, gs_with, gs_with / gs_without, jacobi_without, jacobi_with,
              jacobi_with / jacobi_without, calls, static_cast<long long>(kernels::kGatherPrefetchArcs));
  return 0;
}
