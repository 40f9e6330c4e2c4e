// ReplicatedArray<T>: read-only data with one copy per NUMA node of the
// runtime's topology, copy k bound to node k. A thread reads local_copy(),
// the copy of its own node, so random reads of shared tables (XSBench's
// nuclide grids, a graph's small lookup arrays) never cross the
// interconnect. Costs nodes x the memory; use it for data that is read
// often and written once.
//
// Nodes that do not exist on this machine (a synthetic topology larger than
// it) would all put their copies in the same memory, so they share copy 0:
// the code path is the same, the memory is not multiplied for nothing.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"

namespace numagraph::numa {

template <typename T>
class ReplicatedArray {
 public:
  ReplicatedArray() = default;

  // One copy of `source` per node of the configured topology (one copy when
  // the runtime is not configured).
  explicit ReplicatedArray(std::span<const T> source, PageSize pages = default_page_size()) : size_(source.size()) {
    const Runtime& rt = Runtime::get();
    const int nodes = rt.configured() ? rt.topology().num_nodes() : 1;
    copy_of_node_.assign(static_cast<std::size_t>(nodes), 0);
    for (int k = 0; k < nodes; ++k) {
      if (k > 0 && rt.os_node(k) < 0) continue;  // shares copy 0
      copy_of_node_[static_cast<std::size_t>(k)] = static_cast<int>(copies_.size());
      copies_.emplace_back(size_, rt.configured() ? Placement::replicated(k) : Placement::local(), pages);
      if (size_ > 0) std::memcpy(copies_.back().data(), source.data(), size_ * sizeof(T));
    }
  }

  std::size_t size() const { return size_; }
  int nodes() const { return static_cast<int>(copy_of_node_.size()); }
  // Distinct copies in memory (nodes(), or 1 on a synthetic topology).
  int copies() const { return static_cast<int>(copies_.size()); }
  const T* copy(int node) const { return copies_[static_cast<std::size_t>(copy_of_node_[static_cast<std::size_t>(node)])].data(); }
  // The copy on the calling OpenMP thread's node.
  const T* local_copy() const { return copy(Runtime::get().configured() ? Runtime::get().current_node() : 0); }
  const NumaArray<T>& array(int node) const {
    return copies_[static_cast<std::size_t>(copy_of_node_[static_cast<std::size_t>(node)])];
  }
  std::size_t bytes() const { return copies_.size() * size_ * sizeof(T); }

 private:
  std::size_t size_ = 0;
  std::vector<int> copy_of_node_;
  std::vector<NumaArray<T>> copies_;
};

}  // namespace numagraph::numa
