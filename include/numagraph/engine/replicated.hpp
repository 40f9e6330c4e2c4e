// Replicas<T>: one copy of a vertex array per NUMA node, each bound to its
// node. Readers on node k read copy k (local random reads); writers update
// every copy of the entries they own ("rolling update": remote writes are
// sequential runs of the writer's own range, never random).
#pragma once

#include <cstddef>
#include <vector>

#include "numagraph/numa/numa_array.hpp"

namespace numagraph::engine {

template <typename T>
class Replicas {
 public:
  Replicas() = default;
  Replicas(int nodes, std::size_t n) {
    copies_.reserve(static_cast<std::size_t>(nodes));
    for (int k = 0; k < nodes; ++k) copies_.emplace_back(n, numa::Placement::replicated(k));
  }
  int nodes() const { return static_cast<int>(copies_.size()); }
  T* copy(int node) { return copies_[static_cast<std::size_t>(node)].data(); }
  const T* copy(int node) const { return copies_[static_cast<std::size_t>(node)].data(); }
  // Writes value at index i in every copy.
  void set(std::size_t i, T value) {
    for (auto& c : copies_) c[i] = value;
  }
  std::size_t bytes() const { return copies_.empty() ? 0 : copies_.size() * copies_[0].bytes(); }

 private:
  std::vector<NumaArray<T>> copies_;
};

}  // namespace numagraph::engine
