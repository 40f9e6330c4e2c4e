// The compute floor of a pull sweep on this machine: the time for one random
// read-modify-write of an L2-resident double per arc, and nothing else.
//
// Every arc of a PageRank or SpMV sweep must add a value into its target's
// sum. Cache blocking can make that sum L2-resident (the tiled sweep,
// sweep/tiled_arcs.hpp) but not free: this driver streams ARCS random 32-bit
// words (as the arcs stream from memory) and, per word, adds 1.0 to
// buffer[word] in a private buffer of 2^ROW_BITS doubles per thread. No value
// is read, so a real sweep cannot be faster than this. It times two loops:
// the plain one, and the tiled sweep's own (sweep/tiled_gather.hpp:
// the word stream prefetched 512 words ahead, 16 words per prefetch), and
// reports the faster as the floor. bench/bandwidth_yardstick.py compiles and
// runs it to compare this floor with the compulsory-traffic bound.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_arc_floor`
// (it needs only OpenMP, so `c++ -O3 -march=x86-64-v3 -fopenmp` also does).
// Usage: arc_floor ARCS ROW_BITS REPS THREADS   (prints one JSON line)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: arc_floor ARCS ROW_BITS REPS THREADS\n");
    return 2;
  }
  const std::int64_t arcs = std::atoll(argv[1]);
  const int row_bits = std::atoi(argv[2]);
  const int reps = std::atoi(argv[3]);
  const int threads = std::atoi(argv[4]);
  if (arcs <= 0 || row_bits < 1 || row_bits > 30 || reps < 1 || threads < 1) {
    std::fprintf(stderr, "arc_floor: ARCS, REPS and THREADS must be positive and ROW_BITS in 1..30\n");
    return 2;
  }
  omp_set_num_threads(threads);
  std::vector<std::uint32_t> words(static_cast<std::size_t>(arcs));
  const std::uint32_t mask = (1u << row_bits) - 1;
  // Random targets, written by the thread that reads them later (first touch).
#pragma omp parallel
  {
    std::uint64_t x = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(omp_get_thread_num() + 1);
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < arcs; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      words[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(x) & mask;
    }
  }
  // Loop 0: plain; loop 1: the word stream prefetched ahead, 16 words a batch.
  constexpr std::int64_t kAhead = 512, kBatch = 16;
  std::vector<double> seconds[2];
  for (int r = 0; r < reps; ++r) {
    for (int loop = 0; loop < 2; ++loop) {
      const auto start = std::chrono::steady_clock::now();
      double total = 0;
#pragma omp parallel reduction(+ : total)
      {
        std::vector<double> buffer(std::size_t{1} << row_bits, 0.0);
        double* b = buffer.data();
        const std::uint32_t* w = words.data();
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        std::int64_t i = arcs * t / nt;
        const std::int64_t end = arcs * (t + 1) / nt;
        if (loop == 1)
          for (; i + kBatch <= end; i += kBatch) {
            __builtin_prefetch(w + i + kAhead);
#pragma GCC unroll 16
            for (std::int64_t k = 0; k < kBatch; ++k) b[w[i + k]] += 1.0;
          }
        for (; i < end; ++i) b[w[i]] += 1.0;
        for (const double x : buffer) total += x;
      }
      seconds[loop].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      if (total != static_cast<double>(arcs)) {
        std::fprintf(stderr, "arc_floor: lost updates (%.0f of %lld)\n", total, static_cast<long long>(arcs));
        return 1;
      }
    }
  }
  for (auto& s : seconds) std::sort(s.begin(), s.end());
  const double plain = seconds[0][seconds[0].size() / 2], batched = seconds[1][seconds[1].size() / 2];
  std::printf("{\"arcs\": %lld, \"row_bits\": %d, \"threads\": %d, \"median_s\": %.6f, \"plain_median_s\": %.6f, "
              "\"prefetched_median_s\": %.6f}\n",
              static_cast<long long>(arcs), row_bits, threads, std::min(plain, batched), plain, batched);
  return 0;
}
