// Bucket bookkeeping shared by the delta-stepping kernels (flat and NUMA
// engine): a round's frontier is the concatenation of the threads' slots,
// read in place through prefix offsets, and the threads agree on the round's
// bucket, the smallest any of them still holds, with one barrier per round.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <type_traits>
#include <vector>

#include "numagraph/graph/types.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels::sssp_detail {

inline constexpr std::size_t kNoBucket = std::numeric_limits<std::size_t>::max();

// Entries a thread relaxes on its own before synchronising (bin fusion).
inline constexpr std::size_t kFusionLimit = 1000;

// Relaxes arcs [b, end) from a vertex at distance du: an atomic min on each
// target's distance; queue(v, nd) takes each improvement. The one relaxation
// loop of both kernels, over pointers passed by value, always inlined (a
// call, with write_min as another, slows road searches of many short
// rounds; docs/kernels/sssp.md). D
// is the distance type: double, or std::uint32_t where distances.hpp has
// shown that no simple path reaches 2^32 - 1; sums are taken in 64 bits.
// Alone (a search on one thread) stores the smaller distance without the
// atomic: its locked compare-and-swap was a quarter of a one-thread search
// of a small mesh (docs/kernels/sssp.md, "One thread").
template <bool Weighted, bool Alone = false, typename V, typename D, typename Queue>
[[gnu::always_inline]] inline void relax_run(const V* nbr, const weight_t* wt, eid_t b, eid_t end, D du, D* dist,
                                             Queue&& queue) {
  using Sum = std::conditional_t<std::is_integral_v<D>, std::int64_t, double>;
  for (eid_t j = b; j < end; ++j) {
    const V v = nbr[j];
    const Sum nd = static_cast<Sum>(du) + (Weighted ? static_cast<Sum>(wt[j]) : Sum{1});
    if constexpr (Alone) {
      if (nd < static_cast<Sum>(dist[v])) {
        dist[v] = static_cast<D>(nd);
        queue(v, static_cast<D>(nd));
      }
    } else if (nd < static_cast<Sum>(std::atomic_ref<D>(dist[v]).load(std::memory_order_relaxed)) &&
               parallel::write_min(dist[v], static_cast<D>(nd))) {
      queue(v, static_cast<D>(nd));
    }
  }
}

// Software prefetch over a run of queued entries (a round's frontier slot or
// a fused bin), called before relaxing entry `at`: it requests the offsets
// (and, when `dist` is given, the distance) of the entry 2 * kPrefetchAhead
// further on, and the edge list of the entry kPrefetchAhead further on,
// whose offsets were requested earlier. Without it every entry waits for
// three dependent cache misses in turn (offsets, then edges, then the
// targets' distances). Call it in the loop itself: GCC 12 deletes the
// prefetches when they sit alone in a lambda (a call without effects).
inline constexpr std::size_t kPrefetchAhead = 8;

template <bool Weighted, typename Entry, typename V, typename D>
[[gnu::always_inline]] inline void prefetch_ahead(const Entry* run, std::size_t at, std::size_t size, const eid_t* off,
                                                  const V* nbr, const weight_t* wt, const D* dist) {
  if (at + 2 * kPrefetchAhead < size) {
    const V w = run[at + 2 * kPrefetchAhead].vertex;
    __builtin_prefetch(&off[w]);
    if (dist) __builtin_prefetch(&dist[w]);
  }
  if (at + kPrefetchAhead < size) {
    const eid_t b = off[run[at + kPrefetchAhead].vertex];
    __builtin_prefetch(&nbr[b]);
    if constexpr (Weighted)
      if (wt) __builtin_prefetch(&wt[b]);  // the engine passes null for unweighted graphs
  }
}

// The bucket of distance d, floor(d / delta) computed as d * inverse_delta
// (a multiply, several times faster than a division). Every placement and
// every comparison with a bucket goes through this one function: a bound
// computed the other way round (delta * bucket) can round above a distance
// that the multiply put in that bucket (delta 1.1: 55 * (1 / 1.1) gives
// bucket 50, but 1.1 * 50 = 55.000000000000007), and an entry compared that
// way could be skipped as settled, leaving its subtree unreached. Saturates
// at 2^62, so a distance far beyond delta never overflows the cast: the
// saturated bucket is still processed, as one (label-correcting) bucket.
inline std::size_t bucket_of(double d, double inverse_delta) {
  const double q = d * inverse_delta;
  return q < 0x1p62 ? static_cast<std::size_t>(q) : std::size_t{1} << 62;
}

// One thread's bins by bucket. Buckets within kWindow of the oldest live one
// sit in a ring of vectors that keep their capacity; later ones (weights far
// above delta) wait in a sorted map and move into the ring as the search
// catches up. A dense vector indexed by bucket would grow to the largest
// bucket ever queued: a weight of 1e12 with delta 1 would ask for 10^12 bins.
template <typename Entry>
class BucketBins {
 public:
  static constexpr std::size_t kWindow = 4096;

  BucketBins() : ring_(kWindow) {}

  // The bin of bucket b >= base() (the bucket of the last advance()).
  std::vector<Entry>& operator[](std::size_t b) {
    if (b >= base_ + kWindow) return far_[b];
    top_ = std::max(top_, b);
    return ring_[b % kWindow];
  }

  // Every bucket before `bucket` is empty (the search has moved on): slide
  // the ring forward, pulling in the map's buckets it now covers.
  void advance(std::size_t bucket) {
    if (bucket <= base_) return;
    base_ = bucket;
    for (auto it = far_.begin(); it != far_.end() && it->first < base_ + kWindow; it = far_.erase(it)) {
      ring_[it->first % kWindow].swap(it->second);
      top_ = std::max(top_, it->first);
    }
  }

  // The first non-empty bin at or after `from` (>= base()), or kNoBucket.
  // The scan of the ring stops at the highest bucket it was asked for.
  std::size_t first_nonempty(std::size_t from) const {
    for (std::size_t b = from; b <= top_ && b < base_ + kWindow; ++b)
      if (!ring_[b % kWindow].empty()) return b;
    for (auto it = far_.lower_bound(from); it != far_.end(); ++it)
      if (!it->second.empty()) return it->first;
    return kNoBucket;
  }

  std::size_t base() const { return base_; }

  // Empty again, from bucket 0, keeping every bin's capacity (a new search).
  void reset() {
    for (std::size_t b = base_; b <= top_ && b < base_ + kWindow; ++b) ring_[b % kWindow].clear();
    far_.clear();
    base_ = 0;
    top_ = 0;
  }

 private:
  std::vector<std::vector<Entry>> ring_;  // bucket b at b % kWindow, for b in [base_, base_ + kWindow)
  std::map<std::size_t, std::vector<Entry>> far_;  // buckets from base_ + kWindow on
  std::size_t base_ = 0;
  std::size_t top_ = 0;  // no ring bucket above it was ever handed out
};

// The frontier of a delta-stepping search, round by round. At the end of a
// round each thread puts its smallest non-empty bin in its slot (a swap, no
// copy), tagged with the bin's bucket, and meets the others at the round's
// one barrier; then every thread takes the smallest tag as the next round's
// bucket and reads the slots tagged with it in place. Slots and tags are
// double-buffered by round parity, so a thread fills the next round's slot
// while slower threads still read this round's, and a buffer is refilled
// only after the barrier that ended the last round reading it. A slot tagged
// with a later bucket goes back to its owner's bins.
//
// Road graphs with a small delta run thousands of short rounds, where the
// barriers are the cost: hence one barrier per round, not one to agree on
// the bucket and another to publish the slots.
// Measured: docs/kernels/sssp.md (road-NY at delta 32).
template <typename Entry>
class RoundSlots {
 public:
  explicit RoundSlots(int threads) {
    for (int p = 0; p < 2; ++p) slots_[p].resize(static_cast<std::size_t>(threads));
  }

  int threads() const { return static_cast<int>(slots_[0].size()); }

  // Every slot empty and untagged, keeping its capacity (a new search).
  void reset() {
    for (int p = 0; p < 2; ++p)
      for (auto& slot : slots_[p]) {
        slot.entries.clear();
        slot.bucket = kNoBucket;
      }
  }

  // Before the search: round 0's frontier is `e`, in `bucket`.
  void seed(const Entry& e, std::size_t bucket) {
    slots_[0][0].entries.push_back(e);
    slots_[0][0].bucket = bucket;
  }

  // Start of `round` on thread t (after the barrier): the round's bucket,
  // the same on every thread (kNoBucket: the search is over), with the
  // offsets of the slots the round reads in `start` (start.back(): their
  // total). `bins` are the thread's.
  std::size_t begin(int round, int t, BucketBins<Entry>& bins, std::vector<std::int64_t>& start) {
    const std::vector<Slot>& slots = slots_[static_cast<std::size_t>(round & 1)];
    std::size_t bucket = kNoBucket;
    for (const Slot& slot : slots) bucket = std::min(bucket, slot.bucket);
    Slot& own = slots_[static_cast<std::size_t>(round & 1)][static_cast<std::size_t>(t)];
    if (bucket != kNoBucket) bins.advance(bucket);  // rounds' buckets never decrease
    // Not this round's: back to the bin it came from (emptied by the swap).
    if (own.bucket != bucket && own.bucket != kNoBucket) bins[own.bucket].swap(own.entries);
    start.assign(slots.size() + 1, 0);
    if (bucket == kNoBucket) return bucket;
    for (std::size_t k = 0; k < slots.size(); ++k)
      start[k + 1] = start[k] + (slots[k].bucket == bucket ? static_cast<std::int64_t>(slots[k].entries.size()) : 0);
    return bucket;
  }

  // Slot k's entries in `round` (read only when tagged with the round's
  // bucket; the engine marks stale entries in place, through atomic_ref).
  const std::vector<Entry>& slot(int round, std::size_t k) const {
    return slots_[static_cast<std::size_t>(round & 1)][k].entries;
  }
  std::vector<Entry>& slot(int round, std::size_t k) { return slots_[static_cast<std::size_t>(round & 1)][k].entries; }

  // The slot of the first entry at offset i >= 0 of the round, given the
  // offsets from begin() (empty slots share their offset with the next one).
  static std::size_t slot_of(const std::vector<std::int64_t>& start, std::int64_t i) {
    return static_cast<std::size_t>(std::upper_bound(start.begin(), start.end(), i) - start.begin() - 1);
  }

  // End of `round` on thread t (before the barrier): hands t's smallest
  // non-empty bin at or after `bucket` to the next round and returns the
  // slot it went to (the caller may still drop entries from it).
  std::vector<Entry>& end(int round, int t, BucketBins<Entry>& bins, std::size_t bucket) {
    Slot& next = slots_[static_cast<std::size_t>((round + 1) & 1)][static_cast<std::size_t>(t)];
    next.entries.clear();
    const std::size_t b = bins.first_nonempty(bucket);
    if (b != kNoBucket) next.entries.swap(bins[b]);
    next.bucket = b;
    return next.entries;
  }

 private:
  // A thread's slot and its tag, a cache line of their own: the threads
  // write them at the end of every round, and on 16 threads the packed
  // vectors and tags put every writer on the same few lines.
  struct alignas(64) Slot {
    std::vector<Entry> entries;
    std::size_t bucket = kNoBucket;
  };
  std::vector<Slot> slots_[2];
};

// What one search of the flat kernel allocates, kept between searches on one
// graph (SsspWorkspace): the bins of every thread, which hold their capacity,
// and the round slots. Built afresh, each search allocated a ring of 4096
// bins per thread and grew every bin again: PGPgiantcompo took 0.37 ms
// against 0.33 ms with them kept (docs/kernels/sssp.md).
template <typename Entry>
struct SearchScratch {
  struct alignas(64) PerThread {
    BucketBins<Entry> bins;
    std::vector<Entry> fused;          // the bin being relaxed by bin fusion
    std::vector<std::int64_t> start;   // slot offsets of the round's frontier
  };
  std::vector<PerThread> threads;
  RoundSlots<Entry> frontier{0};
  // Of the last search: the round from which the team ran it (0: all of it;
  // -1: none, it ran alone throughout).
  int team_from_round = -1;

  // Ready for a search on `n` threads: every bin and slot empty.
  void prepare(int n) {
    if (frontier.threads() != n) {
      threads = std::vector<PerThread>(static_cast<std::size_t>(n));
      frontier = RoundSlots<Entry>(n);
      return;
    }
    for (auto& t : threads) t.bins.reset();
    frontier.reset();
  }
};

}  // namespace numagraph::kernels::sssp_detail
