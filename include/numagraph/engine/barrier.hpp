// HierarchicalBarrier: threads first meet the other threads of their NUMA
// node (a node-local counter), then one leader per node meets the other
// leaders (one global counter), and the release goes back the same way. Only
// one cache line per node and one global line bounce across nodes, instead of
// every thread hammering one global counter (Polymer's hierarchical barrier).
// Waiters spin briefly, then yield: the engine may run more threads than
// cores (synthetic topologies on small machines).
#pragma once

#include <omp.h>
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::engine {

class HierarchicalBarrier {
 public:
  explicit HierarchicalBarrier(const Layout& layout)
      : thread_node_(layout.thread_node), nodes_(static_cast<std::size_t>(layout.nodes)) {
    for (int t = 0; t < layout.threads; ++t) ++nodes_[static_cast<std::size_t>(thread_node_[t])].members;
    for (auto& n : nodes_)
      if (n.members > 0) ++active_nodes_;
  }

  void wait(int tid) {
    NodeSlot& node = nodes_[static_cast<std::size_t>(thread_node_[static_cast<std::size_t>(tid)])];
    const std::uint32_t generation = node.generation.load(std::memory_order_acquire);
    if (node.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == node.members) {
      // Last of its node: the node's leader for the global phase.
      const std::uint32_t global_gen = global_generation_.load(std::memory_order_acquire);
      if (global_arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == active_nodes_) {
        global_arrived_.store(0, std::memory_order_relaxed);
        global_generation_.store(global_gen + 1, std::memory_order_release);
      } else {
        spin_until([&] { return global_generation_.load(std::memory_order_acquire) != global_gen; });
      }
      node.arrived.store(0, std::memory_order_relaxed);
      node.generation.store(generation + 1, std::memory_order_release);
    } else {
      spin_until([&] { return node.generation.load(std::memory_order_acquire) != generation; });
    }
  }

 private:
  struct alignas(parallel::kCacheLine) NodeSlot {
    std::atomic<int> arrived{0};
    std::atomic<std::uint32_t> generation{0};
    int members = 0;
  };

  template <typename F>
  static void spin_until(F&& done) {
    for (int i = 0; !done(); ++i)
      if (i > 64) sched_yield();
  }

  std::vector<int> thread_node_;
  std::vector<NodeSlot> nodes_;
  int active_nodes_ = 0;
  alignas(parallel::kCacheLine) std::atomic<int> global_arrived_{0};
  alignas(parallel::kCacheLine) std::atomic<std::uint32_t> global_generation_{0};
};

// Runs body(tid) on exactly layout.threads OpenMP threads. Engine kernels
// synchronise with barriers sized for that count, so a runtime that hands out
// fewer threads (OMP_THREAD_LIMIT, nesting) is refused instead of deadlocking.
template <typename F>
void run_on_threads(const Layout& layout, F&& body) {
  const int dynamic = omp_get_dynamic();
  omp_set_dynamic(0);
  std::atomic<bool> short_handed{false};
#pragma omp parallel num_threads(layout.threads)
  {
    if (omp_get_num_threads() != layout.threads)
      short_handed.store(true);
    else
      body(parallel::thread_id());
  }
  omp_set_dynamic(dynamic);
  if (short_handed.load())
    throw ResourceError("the NUMA engine needs " + std::to_string(layout.threads) +
                        " threads but OpenMP granted fewer (check OMP_THREAD_LIMIT, or use "
                        "--threads to ask for fewer)");
}

}  // namespace numagraph::engine
