// Bucket bookkeeping shared by the delta-stepping kernels (flat and NUMA
// engine): a round's frontier is the concatenation of the threads' slots,
// read in place through prefix offsets, and the threads agree on the round's
// bucket, the smallest any of them still holds, with one barrier per round.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace numagraph::kernels::sssp_detail {

inline constexpr std::size_t kNoBucket = std::numeric_limits<std::size_t>::max();

// The first non-empty bin at or after `from`, or kNoBucket.
template <typename Bins>
std::size_t first_nonempty_bin(const Bins& bins, std::size_t from) {
  for (std::size_t b = from; b < bins.size(); ++b)
    if (!bins[b].empty()) return b;
  return kNoBucket;
}

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
// barriers are the cost: with two per round (one to agree on the bucket, one
// to publish the slots) 45 % of road-NY's samples at delta 32 were libgomp
// spinning; one barrier made that search 0.79-0.90x as long (A/B, 4 runs).
template <typename Entry>
class RoundSlots {
 public:
  explicit RoundSlots(int threads) {
    for (int p = 0; p < 2; ++p) {
      slots_[p].resize(static_cast<std::size_t>(threads));
      tags_[p].assign(static_cast<std::size_t>(threads), kNoBucket);
    }
  }

  // Before the search: round 0's frontier is `e`, in `bucket`.
  void seed(const Entry& e, std::size_t bucket) {
    slots_[0][0].push_back(e);
    tags_[0][0] = bucket;
  }

  // Start of `round` on thread t (after the barrier): the round's bucket,
  // the same on every thread (kNoBucket: the search is over), with the
  // offsets of the slots the round reads in `start` (start.back(): their
  // total). `bins[b]` is the thread's bin of bucket b.
  template <typename Bins>
  std::size_t begin(int round, int t, Bins& bins, std::vector<std::int64_t>& start) {
    const std::size_t p = static_cast<std::size_t>(round & 1);
    const std::vector<std::size_t>& tags = tags_[p];
    const std::size_t bucket = *std::min_element(tags.begin(), tags.end());
    const std::size_t mine = tags[static_cast<std::size_t>(t)];
    // Not this round's: back to the bin it came from (emptied by the swap).
    if (mine != bucket && mine != kNoBucket) bins[mine].swap(slots_[p][static_cast<std::size_t>(t)]);
    start.assign(tags.size() + 1, 0);
    if (bucket == kNoBucket) return bucket;
    for (std::size_t k = 0; k < tags.size(); ++k)
      start[k + 1] = start[k] + (tags[k] == bucket ? static_cast<std::int64_t>(slots_[p][k].size()) : 0);
    return bucket;
  }

  // Slot k's entries in `round` (read only when tagged with the round's bucket).
  const std::vector<Entry>& slot(int round, std::size_t k) const { return slots_[static_cast<std::size_t>(round & 1)][k]; }

  // The slot of the first entry at offset i >= 0 of the round, given the
  // offsets from begin() (empty slots share their offset with the next one).
  static std::size_t slot_of(const std::vector<std::int64_t>& start, std::int64_t i) {
    return static_cast<std::size_t>(std::upper_bound(start.begin(), start.end(), i) - start.begin() - 1);
  }

  // End of `round` on thread t (before the barrier): hands t's smallest
  // non-empty bin at or after `bucket` to the next round and returns the
  // slot it went to (the caller may still drop entries from it).
  template <typename Bins>
  std::vector<Entry>& end(int round, int t, Bins& bins, std::size_t bucket) {
    const std::size_t q = static_cast<std::size_t>((round + 1) & 1);
    std::vector<Entry>& next = slots_[q][static_cast<std::size_t>(t)];
    next.clear();
    const std::size_t b = first_nonempty_bin(bins, bucket);
    if (b != kNoBucket) next.swap(bins[b]);
    tags_[q][static_cast<std::size_t>(t)] = b;
    return next;
  }

 private:
  std::vector<std::vector<Entry>> slots_[2];
  std::vector<std::size_t> tags_[2];
};

}  // namespace numagraph::kernels::sssp_detail
