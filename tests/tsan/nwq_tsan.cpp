// ThreadSanitizer check of the NUMA-aware work queues: 8 std::threads drain
// and steal over many rounds; every item must be handed out exactly once and
// TSan must report no data race. (std::thread, not OpenMP: GCC's libgomp is
// not TSan-instrumented, so its barriers would be reported as false races.)
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "numagraph/parallel/work_queue.hpp"

int main() {
  using numagraph::parallel::WorkQueues;
  const std::vector<int> thread_node{0, 0, 1, 1, 2, 2, 3, 3};
  const std::vector<int> owner{0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<std::vector<int>> dist{
      {10, 20, 30, 30}, {20, 10, 30, 30}, {30, 30, 10, 20}, {30, 30, 20, 10}};
  WorkQueues queues(owner,
                    numagraph::parallel::steal_order_by_distance(thread_node, owner, thread_node, dist),
                    16);
  const std::int64_t items = 20000;
  std::vector<std::atomic<int>> seen(items);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
    for (int t = 0; t < 8; ++t) {
      // Uneven queues, so threads must steal.
      const std::int64_t lo = t == 0 ? 0 : items / 2 + (items / 2) * (t - 1) / 7;
      const std::int64_t hi = t == 0 ? items / 2 : items / 2 + (items / 2) * t / 7;
      ranges.emplace_back(lo, hi);
    }
    queues.reset(ranges);
    std::vector<std::thread> pool;
    for (int t = 0; t < 8; ++t)
      pool.emplace_back([&, t] {
        queues.drain(t, [&](std::int64_t b, std::int64_t e, int) {
          for (std::int64_t i = b; i < e; ++i) seen[static_cast<std::size_t>(i)].fetch_add(1);
        });
      });
    for (auto& th : pool) th.join();
  }
  for (std::int64_t i = 0; i < items; ++i)
    if (seen[static_cast<std::size_t>(i)].load() != 20) {
      std::printf("FAIL: item %lld handed out %d times in 20 rounds\n", static_cast<long long>(i),
                  seen[static_cast<std::size_t>(i)].load());
      return 1;
    }
  std::int64_t stolen = 0;
  for (int t = 0; t < 8; ++t) stolen += queues.stolen(t);
  std::printf("PASS: every item once per round; %lld tasks stolen\n", static_cast<long long>(stolen));
  return 0;
}
