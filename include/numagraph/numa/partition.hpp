// The one function that splits vertices into per-node blocks. NumaArray's
// partitioned placement and the NUMA engine's vertex ranges both call it, so
// "vertex v lives on node k" means the same thing everywhere.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace numagraph::numa {

// Splits [0, n) into `parts` contiguous ranges balanced by weight: range k is
// [bounds[k], bounds[k+1]). `prefix` is an inclusive-exclusive prefix sum of
// per-item weights with prefix.size() == n + 1 (e.g. CSR offsets, so blocks
// hold about the same number of edges); an empty `prefix` balances by count.
// Each item also weighs 1 so that runs of zero-weight items still spread out.
template <typename W>
std::vector<std::int64_t> partition_ranges(std::int64_t n, int parts, const W* prefix) {
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(parts) + 1, n);
  bounds[0] = 0;
  if (n == 0) return bounds;
  auto cost = [&](std::int64_t i) -> double {
    const double w = prefix ? static_cast<double>(prefix[i] - prefix[0]) : 0.0;
    return w + static_cast<double>(i);
  };
  const double total = cost(n);
  for (int k = 1; k < parts; ++k) {
    const double target = total * k / parts;
    // First index whose cumulative cost reaches the target (costs are monotone).
    std::int64_t lo = bounds[k - 1], hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (cost(mid) < target) lo = mid + 1; else hi = mid;
    }
    bounds[k] = lo;
  }
  return bounds;
}

inline std::vector<std::int64_t> partition_ranges(std::int64_t n, int parts) {
  return partition_ranges<std::int64_t>(n, parts, nullptr);
}

// The part that owns item i (bounds as returned above).
inline int owner_of(const std::vector<std::int64_t>& bounds, std::int64_t i) {
  return static_cast<int>(std::upper_bound(bounds.begin(), bounds.end(), i) - bounds.begin()) - 1;
}

}  // namespace numagraph::numa
