// Shared helpers of the cache-blocking tests (test_sweep.cpp, and the blocked
// PageRank and SpMV tests in test_pr.cpp and test_spmv.cpp): blocking
// requests for the sweep layer's rules, and the relative closeness of blocked
// and unblocked sums.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "numagraph/sweep/cache_blocking.hpp"

namespace numagraph::sweep_test {

inline constexpr std::size_t kMiB = std::size_t{1} << 20;

// A request for a graph of n vertices and `arcs` arcs, 20 sweeps, ids only.
inline CacheBlockRequest request(std::int64_t n, std::int64_t arcs, std::size_t value_bytes,
                                 std::int64_t block = kAutoBlock) {
  CacheBlockRequest r;
  r.vertices = n;
  r.arcs = arcs;
  r.value_bytes = value_bytes;
  r.arc_bytes = 4;
  r.sweeps = 20;
  r.block_bytes = block;
  return r;
}

// Relative closeness: blocked sums add the same terms in another order.
inline void expect_close(double a, double b, std::int64_t v) {
  EXPECT_LE(std::fabs(a - b), 1e-12 * std::max(std::fabs(a), std::fabs(b)) + 1e-300) << "vertex " << v;
}

}  // namespace numagraph::sweep_test
