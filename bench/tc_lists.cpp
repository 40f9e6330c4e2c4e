// Triangle counts by each intersection of kernels/tc/ordered_intersection.hpp
// on one graph's arrays, in its own numbering, alternating trial by trial in
// one process: the measurement behind kAllPairsMaxLower (lower lists of at
// most K vertices intersected by compares, longer ones by marking) and the
// marking-or-merging choice. Every count must agree; a mismatch exits 1.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_tc_lists`.
// Usage: bench_tc_lists GRAPH THREADS TRIALS VARIANT...
//   VARIANT: merge, or mark:K (K = 0 marks every list; 4, the default, is
//   also the most: a larger K counts as 4).
//   Example: bench_tc_lists road-NY-sym.ngr 2 40 mark:0 mark:2 mark:3 mark:4 merge
// Prints the median and the fastest trial of each variant, in milliseconds.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "in_process_driver.hpp"
#include "numagraph/kernels/tc/ordered_intersection.hpp"

using namespace numagraph;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bench_tc_lists GRAPH THREADS TRIALS merge|mark:K...\n");
    return 2;
  }
  const int threads = std::atoi(argv[2]);
  const int trials = std::atoi(argv[3]);
  if (threads < 1 || trials < 1) {
    std::fprintf(stderr, "bench_tc_lists: THREADS and TRIALS must be positive integers\n");
    return 2;
  }
  std::vector<std::string> variants(argv + 4, argv + argc);
  for (const std::string& v : variants)
    if (v != "merge" && (v.rfind("mark:", 0) != 0 || v.size() == 5)) {
      std::fprintf(stderr, "bench_tc_lists: unknown variant '%s' (merge or mark:K)\n", v.c_str());
      return 2;
    }
  const Graph32 g = bench::graph32_on_threads(argv[1], "bench_tc_lists", threads);
  if (g.directed()) {
    std::fprintf(stderr, "bench_tc_lists: %s is directed; convert it with -s (symmetrize) first\n", argv[1]);
    return 2;
  }
  const auto& off = g.out().offsets;
  const auto& nbr = g.out().neighbors;
  const std::int64_t n = g.num_vertices();
  std::vector<std::vector<double>> times(variants.size());
  std::int64_t first = -1;
  for (int t = 0; t < trials; ++t)
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const auto start = std::chrono::steady_clock::now();
      const std::int64_t count =
          variants[k] == "merge"
              ? kernels::tc_detail::ordered_count_merging(off, nbr, n)
              : kernels::tc_detail::ordered_count_marking(off, nbr, n, std::atol(variants[k].c_str() + 5));
      times[k].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (first < 0) first = count;
      if (count != first) {
        std::fprintf(stderr, "bench_tc_lists: %s counted %lld triangles, the first variant %lld\n",
                     variants[k].c_str(), static_cast<long long>(count), static_cast<long long>(first));
        return 1;
      }
    }
  std::printf("%lld triangles\n", static_cast<long long>(first));
  for (std::size_t k = 0; k < variants.size(); ++k)
    std::printf("%-8s %.3f ms (fastest %.3f)\n", variants[k].c_str(), bench::median(times[k]) * 1e3,
                *std::min_element(times[k].begin(), times[k].end()) * 1e3);
}
