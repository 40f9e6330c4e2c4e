// Replicas<T>: one copy of a vertex array per NUMA node, each bound to its
// node (nodes that do not exist on this machine share one). Readers on node k
// read copy k (local random reads); writers update every copy of the entries
// they own: remote writes are sequential runs of the writer's own range,
// never random, and set_range() fills the copies in a rolling order that
// differs per node (Polymer's rolling update).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "numagraph/engine/mode.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"

namespace numagraph::engine {

// How many copies a kernel keeps: one per node in the numa engine, none in
// flat mode, and none on a single node either, where the master array is
// already local and a copy would only double every write.
// Measured: docs/numa-engine.md (engine/flat of PR and SpMV on one node).
inline int replica_copies(EngineMode mode, int nodes) { return mode == EngineMode::kNuma && nodes > 1 ? nodes : 0; }

// Whether copy `node` of `nodes` would get memory of its own: not on a
// synthetic topology larger than this machine, where placement on the missing
// nodes is a no-op (numa::Runtime::os_node), so every copy would land in the
// same memory. Without a configured runtime for this node count (a layout
// built by hand, as in the unit tests) every node gets its copy.
inline bool replica_has_own_memory(int node, int nodes) {
  const numa::Runtime& rt = numa::Runtime::get();
  return !rt.configured() || rt.topology().num_nodes() != nodes || rt.os_node(node) >= 0;
}

// Nodes without memory of their own read and write copy 0, as in
// numa::ReplicatedArray: the code path and the access accounting stay those
// of one copy per node, while the memory and the cache footprint are one
// copy's: on one machine a second copy only doubles the random-read
// footprint in the one L3 both "nodes" share.
// Measured: docs/numa-engine.md, "Shared copies on synthetic nodes".
template <typename T>
class Replicas {
 public:
  Replicas() = default;
  // Copies for `nodes` nodes (0: none), copy k bound to node k.
  Replicas(int nodes, std::size_t n) {
    copy_of_node_.assign(static_cast<std::size_t>(std::max(nodes, 0)), 0);
    for (int k = 0; k < nodes; ++k) {
      if (k > 0 && !replica_has_own_memory(k, nodes)) continue;  // shares copy 0
      copy_of_node_[static_cast<std::size_t>(k)] = static_cast<int>(copies_.size());
      copies_.emplace_back(n, numa::Placement::replicated(k));
    }
  }
  // Nodes served (each reads copy(node)); distinct_copies() may be fewer.
  int nodes() const { return static_cast<int>(copy_of_node_.size()); }
  int distinct_copies() const { return static_cast<int>(copies_.size()); }
  T* copy(int node) { return distinct_copy(copy_of_node_[static_cast<std::size_t>(node)]); }
  const T* copy(int node) const {
    return copies_[static_cast<std::size_t>(copy_of_node_[static_cast<std::size_t>(node)])].data();
  }
  T* distinct_copy(int c) { return copies_[static_cast<std::size_t>(c)].data(); }
  // The array a thread on `node` reads: its node's copy, or the master
  // array when there are no copies (flat mode, or a single node).
  const T* copy_or(int node, const T* master) const { return copies_.empty() ? master : copy(node); }
  // This object when it holds copies, else null (what publish() takes).
  Replicas* if_any() { return copies_.empty() ? nullptr : this; }
  // Writes value at index i in every distinct copy.
  void set(std::size_t i, T value) {
    for (auto& c : copies_) c[i] = value;
  }
  // The distinct copies in the order a writer on `node` fills them (Polymer's
  // rolling update): its own node's copy, then those of nodes node+1,
  // node+2, ... (mod nodes()). At step j the writers of different nodes fill
  // different nodes' copies, so no node's memory takes every writer's stream
  // at once. A shared copy (always copy 0) comes once, at its first node.
  std::vector<int> rolling_order(int node) const {
    std::vector<int> order;
    const int n = nodes();
    bool shared_done = false;
    for (int j = 0; j < n; ++j) {
      const int c = copy_of_node_[static_cast<std::size_t>((node + j) % n)];
      if (c == 0 && std::exchange(shared_done, true)) continue;
      order.push_back(c);
    }
    return order;
  }
  // Copies source[lo, hi) into every distinct copy, one copy after the
  // other in `node`'s rolling order: sequential runs, one node at a time.
  void set_range(std::size_t lo, std::size_t hi, const T* source, int node) {
    if (hi <= lo) return;
    for (int c : rolling_order(node)) std::memcpy(distinct_copy(c) + lo, source + lo, (hi - lo) * sizeof(T));
  }
  std::size_t bytes() const { return copies_.empty() ? 0 : copies_.size() * copies_[0].bytes(); }

 private:
  std::vector<int> copy_of_node_;
  std::vector<NumaArray<T>> copies_;
};

}  // namespace numagraph::engine
