// Bucket bookkeeping shared by the delta-stepping kernels (flat and NUMA
// engine): a round's frontier is the concatenation of every thread's slot,
// read in place through prefix offsets, and after a round the threads agree
// on the smallest bucket any of them still holds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace numagraph::kernels::sssp_detail {

inline constexpr std::size_t kNoBucket = std::numeric_limits<std::size_t>::max();

// start[k] = number of entries in slots before slot k (start has one entry
// more than slots); returns the total.
template <typename Slots>
std::int64_t slot_offsets(const Slots& slots, std::vector<std::int64_t>& start) {
  start.assign(slots.size() + 1, 0);
  for (std::size_t k = 0; k < slots.size(); ++k) start[k + 1] = start[k] + static_cast<std::int64_t>(slots[k].size());
  return start.back();
}

// The first non-empty bin at or after `from`, or kNoBucket.
template <typename Bins>
std::size_t first_nonempty_bin(const Bins& bins, std::size_t from) {
  for (std::size_t b = from; b < bins.size(); ++b)
    if (!bins[b].empty()) return b;
  return kNoBucket;
}

// The smallest of the threads' next buckets (kNoBucket when all are done).
inline std::size_t smallest_bucket(const std::vector<std::size_t>& next_bucket) {
  return *std::min_element(next_bucket.begin(), next_bucket.end());
}

}  // namespace numagraph::kernels::sssp_detail
