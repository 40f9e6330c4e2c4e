// A frontier's values packed by rank, for pulls whose value array misses the
// caches. The frontier is a bitmap; each 64-id word is stored with the
// number of members before it, so a member's rank (its index among the
// members in id order) is that count plus the members below it in its word.
// The members' values are copied to a dense array in rank order: a pull then
// reads a few MB that stay in the last-level cache instead of touching a line
// of the whole n-value array for every member. urand22's largest pull reads
// sigma of 874,791 frontier vertices: 7 MB packed against 32 MB in place
// (docs/kernels/bc.md, "Packed frontier").
#pragma once

#include <cstddef>
#include <cstdint>

#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

struct RankedWord {
  std::uint64_t bits;  // the frontier's members among ids 64w .. 64w + 63
  std::uint64_t rank;  // members with smaller ids
};

namespace bc_detail {

// Sum of x[index(v)] over the ids v in [first, last), in two running sums
// (even and odd positions: two neighbours' loads in flight, not one chain).
template <typename V, typename Index>
[[gnu::always_inline]] inline double indexed_gather_sum(const double* x, const V* first, const V* last, Index index) {
  double s0 = 0, s1 = 0;
  for (; last - first >= 2; first += 2) {
    s0 += x[index(first[0])];
    s1 += x[index(first[1])];
  }
  if (first < last) s0 += x[index(*first)];
  return s0 + s1;
}

// Fills ranked[0, words) from `bits` and copies values[v] of every member v
// to packed[rank of v]; returns the member count. Run by every thread of the
// calling team (or by a lone thread outside a parallel region): each thread
// takes a static block of words; `block_counts` holds one slot per thread
// plus one. Ends with a barrier, so the packed values are ready to read.
inline std::int64_t pack_frontier(const std::uint64_t* bits, std::size_t words, const double* values,
                                  RankedWord* ranked, double* packed, std::int64_t* block_counts) {
  const auto t = static_cast<std::size_t>(parallel::thread_id());
  const auto nt = static_cast<std::size_t>(parallel::num_threads_in_region());
  const std::size_t lo = words * t / nt, hi = words * (t + 1) / nt;
  std::int64_t count = 0;
  for (std::size_t w = lo; w < hi; ++w) count += __builtin_popcountll(bits[w]);
  block_counts[t + 1] = count;
#pragma omp barrier
  std::uint64_t rank = 0;
  for (std::size_t i = 1; i <= t; ++i) rank += static_cast<std::uint64_t>(block_counts[i]);
  for (std::size_t w = lo; w < hi; ++w) {
    std::uint64_t b = bits[w];
    ranked[w] = {b, rank};
    for (; b != 0; b &= b - 1) packed[rank++] = values[w * 64 + static_cast<std::size_t>(__builtin_ctzll(b))];
  }
  std::int64_t total = 0;
  for (std::size_t i = 1; i <= nt; ++i) total += block_counts[i];
#pragma omp barrier
  return total;
}

// Sum of the packed values of the ids in [first, last) that are members,
// without a branch per id: a non-member reads packed[zero_at], which holds 0.
// The same additions in the same order as masked_gather_sum over the values
// in place.
template <typename V>
[[gnu::always_inline]] inline double packed_gather_sum(const double* packed, std::uint64_t zero_at,
                                                        const RankedWord* ranked, const V* first, const V* last) {
  return indexed_gather_sum(packed, first, last, [ranked, zero_at](V v) {
    const RankedWord& r = ranked[v >> 6];
    const std::uint64_t keep = 0 - ((r.bits >> (v & 63)) & 1);
    const std::uint64_t below = r.bits & ((std::uint64_t{1} << (v & 63)) - 1);
    const std::uint64_t index = r.rank + static_cast<std::uint64_t>(__builtin_popcountll(below));
    return (index & keep) | (zero_at & ~keep);
  });
}

}  // namespace bc_detail
}  // namespace numagraph::kernels
