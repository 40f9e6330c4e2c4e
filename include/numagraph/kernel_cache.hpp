// State a graph keeps between calls of the entry points: the NUMA engine's
// partitioned copy and the kernels' workspaces (queues, bitmaps, scratch
// arrays), whose pages a fresh allocation would fault in again on every call.
// The CLI keeps one for the graph it loaded (its trials and roots); Python
// keeps one per Graph object. Not thread-safe: one call at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <typeindex>
#include <utility>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/profile/timer.hpp"

namespace numagraph {

class KernelCache {
 public:
  KernelCache() = default;
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  // The workspace of type T for `g`, default-constructed on first use. Asked
  // for another graph, the cache drops everything it kept for the last one.
  template <typename T, typename V>
  T& workspace(const CSRGraph<V>& g) {
    bind(&g);
    for (auto& [type, slot] : slots_)
      if (type == std::type_index(typeid(T))) return *static_cast<T*>(slot.get());
    slots_.emplace_back(std::type_index(typeid(T)), std::make_shared<T>());
    return *static_cast<T*>(slots_.back().second.get());
  }

  // The partitioned copy of `g` with `parts` laid out for `m` (rebuilt after
  // the runtime is configured again), built on first use (adds the seconds it took to `built_s`). One copy at a time: it holds
  // a second copy of the edges.
  template <typename V>
  const engine::PartitionedGraph<V>& partitioned(const CSRGraph<V>& g, engine::PartitionOptions parts,
                                                 const MachineView& m, double& built_s) {
    bind(&g);
    Key key{parts.push, parts.out, m.generation, m.thread_node};
    if (!partitioned_ || !(key == key_)) {
      partitioned_.reset();  // free the old copy before building the new one
      profile::Timer timer;
      auto layout = engine::Layout::make(m.nodes, m.thread_node, g.num_vertices(), g.in_arrays().offsets.data());
      partitioned_ = std::make_shared<engine::PartitionedGraph<V>>(g, std::move(layout), parts);
      key_ = std::move(key);
      built_s += timer.seconds();
    }
    return *static_cast<const engine::PartitionedGraph<V>*>(partitioned_.get());
  }

  void clear() {
    slots_.clear();
    partitioned_.reset();
    graph_ = nullptr;
  }

 private:
  struct Key {
    bool push = false, out = false;
    std::uint64_t generation = 0;  // a new runtime configuration may place pages elsewhere
    std::vector<int> thread_node;
    bool operator==(const Key&) const = default;
  };

  void bind(const void* graph) {
    if (graph_ == graph) return;
    clear();
    graph_ = graph;
  }

  const void* graph_ = nullptr;
  std::vector<std::pair<std::type_index, std::shared_ptr<void>>> slots_;
  std::shared_ptr<void> partitioned_;
  Key key_;
};

}  // namespace numagraph
