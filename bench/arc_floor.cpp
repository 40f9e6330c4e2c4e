// The compute floor of a pull sweep on this machine: the time for one random
// read-modify-write of an L2-resident double per arc, and nothing else.
//
// Every arc of a PageRank or SpMV sweep must add a value into its target's
// sum. Cache blocking can make that sum L2-resident (the tiled sweep,
// graph/tiled_arcs.hpp) but not free: this driver streams ARCS random 32-bit
// words (as the arcs stream from memory) and, per word, adds 1.0 to
// buffer[word] in a private buffer of 2^ROW_BITS doubles per thread. No value
// is read, so a real sweep cannot be faster than this. bench/bandwidth_yardstick.py
// compiles and runs it to compare this floor with the compulsory-traffic bound.
//
// Build: c++ -O3 -march=x86-64-v3 -fopenmp arc_floor.cpp -o arc_floor
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
  std::vector<double> seconds;
  double checksum = 0;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    double total = 0;
#pragma omp parallel reduction(+ : total)
    {
      std::vector<double> buffer(std::size_t{1} << row_bits, 0.0);
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < arcs; ++i) buffer[words[static_cast<std::size_t>(i)]] += 1.0;
      for (const double b : buffer) total += b;
    }
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    checksum = total;
  }
  if (checksum != static_cast<double>(arcs)) {
    std::fprintf(stderr, "arc_floor: lost updates (%.0f of %lld)\n", checksum, static_cast<long long>(arcs));
    return 1;
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("{\"arcs\": %lld, \"row_bits\": %d, \"threads\": %d, \"median_s\": %.6f, \"min_s\": %.6f}\n",
              static_cast<long long>(arcs), row_bits, threads, seconds[seconds.size() / 2], seconds[0]);
  return 0;
}
