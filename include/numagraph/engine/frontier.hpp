// Frontiers for the NUMA engine: a sparse list of vertex ids and a dense
// bitmap. In kNuma mode the bitmap is replicated on every node so pull steps
// test frontier bits in local memory; the owner thread of each word range
// refreshes every copy (a sequential remote write, like the other replicas).
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/engine/replicated.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::engine {

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(std::int64_t n, numa::Placement p = numa::Placement::partitioned())
      : words_(static_cast<std::size_t>((n + 63) / 64), p) {}
  void set_atomic(std::int64_t i) {
    __atomic_fetch_or(&words_[static_cast<std::size_t>(i >> 6)], std::uint64_t{1} << (i & 63),
                      __ATOMIC_RELAXED);
  }
  std::uint64_t* words() { return words_.data(); }
  const std::uint64_t* words() const { return words_.data(); }
  std::int64_t num_words() const { return static_cast<std::int64_t>(words_.size()); }
  void clear() { parallel::for_static(std::int64_t{0}, num_words(), [&](std::int64_t w) { words_[w] = 0; }); }

 private:
  NumaArray<std::uint64_t> words_;
};

// Tests bit i of a raw word array (a bitmap replica).
inline bool test_bit(const std::uint64_t* words, std::int64_t i) {
  return (words[i >> 6] >> (i & 63)) & 1;
}

// Sparse frontier in the vertex id type.
template <typename V>
using SparseFrontier = std::vector<V>;

// Concatenates per-thread lists into one frontier (in thread order, so the
// result does not depend on timing beyond what each thread found).
template <typename V>
SparseFrontier<V> concatenate(std::vector<std::vector<V>>& parts) {
  std::size_t total = 0;
  std::vector<std::size_t> start(parts.size() + 1, 0);
  for (std::size_t t = 0; t < parts.size(); ++t) start[t + 1] = start[t] + parts[t].size();
  total = start.back();
  SparseFrontier<V> out(total);
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(parts.size()); ++t) {
    std::copy(parts[t].begin(), parts[t].end(), out.begin() + static_cast<std::ptrdiff_t>(start[t]));
    parts[t].clear();
  }
  return out;
}

}  // namespace numagraph::engine
