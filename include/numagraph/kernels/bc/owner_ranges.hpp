// Owner push (brandes_direction_optimizing.hpp, brandes_batched.hpp): a
// frontier of hubs is pushed with plain stores by cutting the ids into
// ranges, each claimed by one thread at a time, which walks the part of every
// frontier vertex's sorted out-list that falls in its range. Each (frontier
// vertex, range) pair costs two binary searches, so it pays only for
// frontiers with many out-edges per vertex.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

namespace numagraph::kernels {

// Ranges per thread: 2, 4 and 8 took kron20's hub level 1.06, 1 and 1.02
// times the time (docs/kernels/bc.md, "Owner push for hub frontiers").
inline constexpr std::int64_t kOwnerRangesPerThread = 4;

// The out-edges an owner push needs per (frontier vertex, range) pair.
inline constexpr std::int64_t kOwnerSearchEdges = 16;

namespace bc_detail {

// Whether a frontier of `members` vertices (or batch entries) with
// `out_edges` out-edges has enough edges per (member, range) pair for `ranges`
// (an empty frontier, a batch's level before its first lane starts, has not).
inline bool hub_frontier(std::int64_t out_edges, std::int64_t members, std::int64_t ranges) {
  return members > 0 && static_cast<double>(out_edges) >=
         static_cast<double>(members) * static_cast<double>(ranges) * static_cast<double>(kOwnerSearchEdges);
}

// The part of the sorted list [first, last) whose ids lie in range r of
// `ranges` equal ranges over the ids 0..n-1.
template <typename V>
std::pair<const V*, const V*> list_in_range(const V* first, const V* last, std::int64_t r, std::int64_t ranges,
                                            std::int64_t n) {
  const V* begin = std::lower_bound(first, last, static_cast<V>(n * r / ranges));
  const V* end = r + 1 == ranges ? last : std::lower_bound(begin, last, static_cast<V>(n * (r + 1) / ranges));
  return {begin, end};
}

}  // namespace bc_detail
}  // namespace numagraph::kernels
