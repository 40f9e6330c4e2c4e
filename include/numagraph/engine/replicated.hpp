// Replicas<T>: one copy of a vertex array per NUMA node, each bound to its
// node. Readers on node k read copy k (local random reads); writers update
// every copy of the entries they own ("rolling update": remote writes are
// sequential runs of the writer's own range, never random).
#pragma once

#include <cstddef>
#include <vector>

#include "numagraph/engine/mode.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::engine {

// How many copies a kernel keeps: one per node in the numa engine, none in
// flat mode, and none on a single node either, where the master array is
// already local and a copy would only double every write (with the one-pass
// iterations of PR and SpMV, engine/flat on one node went from 1.15 to 1.05
// for PR and from 1.29 to about 1.0 for SpMV on kron20).
inline int replica_copies(EngineMode mode, int nodes) { return mode == EngineMode::kNuma && nodes > 1 ? nodes : 0; }

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
  // The array a thread on `node` reads: its node's copy, or the master
  // array when there are no copies (flat mode, or a single node).
  const T* copy_or(int node, const T* master) const { return copies_.empty() ? master : copy(node); }
  // This object when it holds copies, else null (what publish() takes).
  Replicas* if_any() { return copies_.empty() ? nullptr : this; }
  // Writes value at index i in every copy.
  void set(std::size_t i, T value) {
    for (auto& c : copies_) c[i] = value;
  }
  std::size_t bytes() const { return copies_.empty() ? 0 : copies_.size() * copies_[0].bytes(); }

 private:
  std::vector<NumaArray<T>> copies_;
};

}  // namespace numagraph::engine
