// State a graph keeps between calls of the entry points: the renumbered copy
// a reordered call runs on, the NUMA engine's partitioned copy and the
// kernels' workspaces (queues, bitmaps, scratch arrays), whose pages a fresh
// allocation would fault in again on every call. The CLI keeps one for the
// graph it loaded (its trials and roots); Python keeps one per Graph object.
// Not thread-safe: one call at a time.
//
// The cache belongs to one caller's graph (the source). The partitioned
// copy and the workspaces belong to the graph the kernel ran on: the source
// itself, or its renumbered copy; they are rebuilt when a call runs on the
// other one. Asked about any other graph, the cache drops everything.
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
#include "numagraph/reorder/order.hpp"

namespace numagraph {

class KernelCache {
 public:
  KernelCache() = default;
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  // The workspace of type T for a kernel running on `g` (the source or its
  // renumbered copy), default-constructed on first use.
  template <typename T, typename V>
  T& workspace(const CSRGraph<V>& g) {
    bind_kernel_graph(&g);
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
    bind_kernel_graph(&g);
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

  // The copy of `g` renumbered in `spec`'s order: made by build() (which
  // returns the CSRGraph<V>) on first use, kept until another order is asked.
  // One copy at a time: it holds a second copy of the edges.
  template <typename V, typename Build>
  const CSRGraph<V>& reordered(const CSRGraph<V>& g, const reorder::Spec& spec, Build&& build) {
    bind_source(&g);
    if (!reordered_ || !(spec == spec_)) {
      if (reordered_ && kernel_graph_ == reordered_.get()) drop_kernel_state();
      reordered_.reset();  // free the old copy before building the new one
      reordered_ = std::make_shared<CSRGraph<V>>(build());
      spec_ = spec;
    }
    return *static_cast<const CSRGraph<V>*>(reordered_.get());
  }

  void clear() {
    drop_kernel_state();
    reordered_.reset();
    spec_ = {};
    source_ = nullptr;
  }

 private:
  struct Key {
    bool push = false, out = false;
    std::uint64_t generation = 0;  // a new runtime configuration may place pages elsewhere
    std::vector<int> thread_node;
    bool operator==(const Key&) const = default;
  };

  // A call on `graph` as the caller's graph: anything else drops everything.
  void bind_source(const void* graph) {
    if (source_ == graph) return;
    clear();
    source_ = graph;
  }

  // A kernel running on `graph`: the source, its renumbered copy, or (for
  // any other graph) a new source.
  void bind_kernel_graph(const void* graph) {
    if (graph != source_ && graph != reordered_.get()) bind_source(graph);
    if (kernel_graph_ == graph) return;
    drop_kernel_state();
    kernel_graph_ = graph;
  }

  void drop_kernel_state() {
    slots_.clear();
    partitioned_.reset();
    kernel_graph_ = nullptr;
  }

  const void* source_ = nullptr;        // the caller's graph
  const void* kernel_graph_ = nullptr;  // the graph slots_ and partitioned_ were made for
  std::shared_ptr<void> reordered_;     // a CSRGraph<V>: source_ renumbered in spec_'s order
  reorder::Spec spec_;
  std::vector<std::pair<std::type_index, std::shared_ptr<void>>> slots_;
  std::shared_ptr<void> partitioned_;
  Key key_;
};

}  // namespace numagraph
