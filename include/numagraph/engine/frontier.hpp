// Frontiers for the NUMA engine: a sparse list of vertex ids and a dense
// bitmap. In kNuma mode the bitmap is replicated on every node so pull steps
// test frontier bits in local memory; the owner thread of each word range
// refreshes every copy (a sequential remote write, like the other replicas).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/engine/replicated.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/bitmap_summary.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::engine {

// One bit per vertex, with a summary level of one bit per 256 vertices: a
// pull step against a sparse dense-frontier (the first bottom-up level of a
// BFS) tests the summary first and skips most loads of the big bitmap.
class Bitmap {
 public:
  static constexpr int kSummaryShift = 8;  // vertices per summary bit: 2^8

  Bitmap() = default;
  explicit Bitmap(std::int64_t n, numa::Placement p = numa::Placement::partitioned())
      : words_(static_cast<std::size_t>((n + 63) / 64), p),
        summary_(static_cast<std::size_t>(((n >> kSummaryShift) + 64) / 64), p) {}
  // Sets bit i, not its summary bit: call rebuild_summary() after the step
  // (as the flat BFS does). Threads may set bits of the same word. Setting
  // the summary bit per vertex would make every thread read, and sometimes
  // write, summary words the others are writing (one word covers 16384
  // vertices). Measured: docs/numa-engine.md, "Frontier bitmaps".
  void set_bit_atomic(std::int64_t i) {
    __atomic_fetch_or(&words_[static_cast<std::size_t>(i >> 6)], std::uint64_t{1} << (i & 63), __ATOMIC_RELAXED);
  }
  // The same where no other thread writes bit i's word.
  void set_bit_owned(std::int64_t i) { words_[static_cast<std::size_t>(i >> 6)] |= std::uint64_t{1} << (i & 63); }
  // Every summary bit from the words it covers.
  void rebuild_summary() {
    parallel::rebuild_bitmap_summary(words_.data(), num_words(), kSummaryShift, summary_.data(), num_summary_words());
  }
  std::uint64_t* words() { return words_.data(); }
  const std::uint64_t* words() const { return words_.data(); }
  std::int64_t num_words() const { return static_cast<std::int64_t>(words_.size()); }
  std::uint64_t* summary() { return summary_.data(); }
  const std::uint64_t* summary() const { return summary_.data(); }
  std::int64_t num_summary_words() const { return static_cast<std::int64_t>(summary_.size()); }
  void clear() {
    parallel::for_static(std::int64_t{0}, num_words(), [&](std::int64_t w) { words_[w] = 0; });
    parallel::for_static(std::int64_t{0}, num_summary_words(), [&](std::int64_t w) { summary_[w] = 0; });
  }
  // Fraction of summary bits set: once most are, testing them first only adds a load.
  double summary_density() const {
    std::int64_t set = 0;
    for (std::int64_t w = 0; w < num_summary_words(); ++w) set += __builtin_popcountll(summary_[w]);
    return static_cast<double>(set) / static_cast<double>(std::max<std::int64_t>(1, num_summary_words() * 64));
  }
  void swap(Bitmap& o) {
    words_.swap(o.words_);
    summary_.swap(o.summary_);
  }

 private:
  NumaArray<std::uint64_t> words_;
  NumaArray<std::uint64_t> summary_;
};

// Tests bit i of a raw word array (a bitmap replica).
inline bool test_bit(const std::uint64_t* words, std::int64_t i) {
  return (words[i >> 6] >> (i & 63)) & 1;
}

// Tests bit i, looking at its summary bit first.
inline bool test_bit_summarized(const std::uint64_t* words, const std::uint64_t* summary, std::int64_t i) {
  const std::int64_t s = i >> Bitmap::kSummaryShift;
  return ((summary[s >> 6] >> (s & 63)) & 1) && test_bit(words, i);
}

// Sparse frontier in the vertex id type.
template <typename V>
using SparseFrontier = std::vector<V>;

// Concatenates per-thread lists into `out` (in thread order, so the result
// does not depend on timing beyond what each thread found), and clears them.
// `out` is resized, not cleared first: a recycled list keeps its pages, and
// only the entries beyond its old size are zeroed before being overwritten.
template <typename V>
void concatenate(std::vector<std::vector<V>>& parts, SparseFrontier<V>& out) {
  std::vector<std::size_t> start(parts.size() + 1, 0);
  for (std::size_t t = 0; t < parts.size(); ++t) start[t + 1] = start[t] + parts[t].size();
  out.resize(start.back());
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(parts.size()); ++t) {
    std::copy(parts[t].begin(), parts[t].end(), out.begin() + static_cast<std::ptrdiff_t>(start[t]));
    parts[t].clear();
  }
}

}  // namespace numagraph::engine
