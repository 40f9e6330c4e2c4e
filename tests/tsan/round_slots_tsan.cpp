// ThreadSanitizer check of delta-stepping's round bookkeeping
// (sssp_detail::RoundSlots): 4 std::threads play the kernels' protocol with
// one barrier per round. Every thread reads its share of the round's slots,
// all threads' slots in place, while threads that are done already fill their
// slot of the next round; every entry read spawns two children into the
// reader's bins, one to three buckets later. Each id is created once, so each
// must be read exactly once, and TSan must report no data race between the
// readers of one parity and the writers of the other. (std::thread and
// std::barrier, not OpenMP: libgomp is not TSan-instrumented.)
#include <atomic>
#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>

#include "numagraph/kernels/sssp/buckets.hpp"

int main() {
  using numagraph::kernels::sssp_detail::kNoBucket;
  using numagraph::kernels::sssp_detail::RoundSlots;
  constexpr int kThreads = 4;
  constexpr int kIds = 50000;  // ids 0 .. kIds - 1: a binary tree rooted at 0
  constexpr int kSearches = 40;
  std::vector<std::atomic<int>> seen(kIds);
  std::atomic<int> rounds{0};
  for (int search = 0; search < kSearches; ++search) {
    RoundSlots<int> slots(kThreads);
    slots.seed(0, 0);
    std::barrier sync(kThreads);
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t)
      pool.emplace_back([&, t] {
        numagraph::kernels::sssp_detail::BucketBins<int> bins;
        std::vector<std::int64_t> start;
        for (int round = 0;; ++round) {
          const std::size_t bucket = slots.begin(round, t, bins, start);
          if (bucket == kNoBucket) break;
          if (t == 0) rounds.fetch_add(1, std::memory_order_relaxed);
          // This thread's share of the round: every kThreads-th entry.
          for (std::int64_t i = t; i < start.back(); i += kThreads) {
            const std::size_t k = slots.slot_of(start, i);
            const int id = slots.slot(round, k)[static_cast<std::size_t>(i - start[k])];
            seen[static_cast<std::size_t>(id)].fetch_add(1, std::memory_order_relaxed);
            for (const int child : {2 * id + 1, 2 * id + 2}) {
              if (child >= kIds) continue;
              const std::size_t b = bucket + 1 + static_cast<std::size_t>(child % 3);
              bins[b].push_back(child);
            }
          }
          slots.end(round, t, bins, bucket);
          sync.arrive_and_wait();
        }
      });
    for (auto& th : pool) th.join();
  }
  for (int id = 0; id < kIds; ++id)
    if (seen[static_cast<std::size_t>(id)].load() != kSearches) {
      std::printf("FAIL: id %d read %d times in %d searches\n", id, seen[static_cast<std::size_t>(id)].load(), kSearches);
      return 1;
    }
  std::printf("PASS: %d searches over %d ids, each id read once per search, %d rounds in all\n", kSearches, kIds,
              rounds.load());
  return 0;
}
