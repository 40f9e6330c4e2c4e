// NUMA-aware work queues (NWQ, seed 000): one queue per thread; a thread
// drains its own queue in tasks of `task_size` items, then steals tasks from
// the other threads' queues in increasing NUMA distance, so stolen work is
// taken from the nearest memory first.
//
// A queue is a range of item indices [head, end). Owner and thieves claim a
// task with one atomic fetch_add on the head: lock-free, and no item is
// handed out twice. The queues are refilled for every parallel step (a BFS
// level) with reset().
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "numagraph/parallel/parallel.hpp"

namespace numagraph::parallel {

// For each thread t, the queues it may steal from (all but its own), by
// increasing distance between t's node and the queue's node, ties broken by
// t XOR queue (on power-of-two machines that walks a complete binary tree
// level by level, as seed 000's victim = tid XOR d).
inline std::vector<std::vector<int>> steal_order_by_distance(
    const std::vector<int>& thread_node, const std::vector<int>& queue_owner,
    const std::vector<int>& queue_node, const std::vector<std::vector<int>>& node_distance) {
  const int threads = static_cast<int>(thread_node.size());
  const int queues = static_cast<int>(queue_owner.size());
  std::vector<std::vector<int>> order(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    auto& o = order[static_cast<std::size_t>(t)];
    for (int q = 0; q < queues; ++q)
      if (queue_owner[static_cast<std::size_t>(q)] != t) o.push_back(q);
    const auto& dist = node_distance[static_cast<std::size_t>(thread_node[t])];
    std::stable_sort(o.begin(), o.end(), [&](int a, int b) {
      const int da = dist[static_cast<std::size_t>(queue_node[a])];
      const int db = dist[static_cast<std::size_t>(queue_node[b])];
      return da != db ? da < db : (t ^ a) < (t ^ b);
    });
  }
  return order;
}

class WorkQueues {
 public:
  // Queue q belongs to thread queue_owner[q] (a thread may own several, e.g.
  // the queues of a NUMA node that has no thread). steal_order[t] lists the
  // queues thread t may steal from, nearest first.
  WorkQueues(std::vector<int> queue_owner, std::vector<std::vector<int>> steal_order,
             std::int64_t task_size)
      : owner_(std::move(queue_owner)),
        order_(std::move(steal_order)),
        queues_(owner_.size()),
        stolen_(static_cast<int>(order_.size())),
        task_(std::max<std::int64_t>(1, task_size)) {}

  int num_queues() const { return static_cast<int>(queues_.size()); }

  // Gives queue q the items [ranges[q].first, ranges[q].second). Call from
  // one thread between parallel steps.
  void reset(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges) {
    for (std::size_t q = 0; q < queues_.size(); ++q) {
      queues_[q].head.store(ranges[q].first, std::memory_order_relaxed);
      queues_[q].end = ranges[q].second;
    }
  }

  // Gives queue q the items [begin, end): for kernels whose queues are
  // refilled inside one parallel region, each by its owner (a thread's own
  // discoveries, kernels/bc/brandes_work_queues.hpp). Call between barriers:
  // nobody may drain while a queue is refilled.
  void refill(int q, std::int64_t begin, std::int64_t end) {
    queues_[static_cast<std::size_t>(q)].head.store(begin, std::memory_order_relaxed);
    queues_[static_cast<std::size_t>(q)].end = end;
  }

  // Runs body(begin, end, queue) for every task thread `tid` gets: from its
  // own queues first, then stolen ones (`queue` is where the task came from).
  template <typename F>
  void drain(int tid, F&& body) {
    for (int q = 0; q < num_queues(); ++q)
      if (owner_[static_cast<std::size_t>(q)] == tid) take_all(tid, q, body);
    for (int victim : order_[static_cast<std::size_t>(tid)]) take_all(tid, victim, body);
  }

  // Tasks thread t stole in all steps so far.
  std::int64_t stolen(int t) const { return stolen_[static_cast<std::size_t>(t)]; }

 private:
  template <typename F>
  void take_all(int tid, int queue, F& body) {
    Queue& q = queues_[static_cast<std::size_t>(queue)];
    while (q.head.load(std::memory_order_relaxed) < q.end) {
      const std::int64_t b = q.head.fetch_add(task_, std::memory_order_relaxed);
      if (b >= q.end) break;
      if (owner_[static_cast<std::size_t>(queue)] != tid) ++stolen_[static_cast<std::size_t>(tid)];
      body(b, std::min(q.end, b + task_), queue);
    }
  }

  struct alignas(kCacheLine) Queue {
    std::atomic<std::int64_t> head{0};
    std::int64_t end = 0;
  };

  std::vector<int> owner_;
  std::vector<std::vector<int>> order_;
  std::vector<Queue> queues_;
  PerThread<std::int64_t> stolen_;
  std::int64_t task_;
};

}  // namespace numagraph::parallel
