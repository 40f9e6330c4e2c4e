// When and how finely a pull kernel blocks its sweep for the cache (the
// segmented lists of graph/segmented_lists.hpp): the rule is one function of
// the graph's size, the kernel's sweeps and the machine, so the PageRank and
// SpMV kernels and the CLI's report take the same decision.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "numagraph/numa/machine_resources.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph {

// A blocking request: kAutoBlock decides from the machine, 0 turns blocking
// off, a positive value is the bytes of vertex values per block.
inline constexpr std::int64_t kAutoBlock = -1;

// Segments one blocked copy may have (SegmentedLists keeps a cursor per
// segment on the stack while building, and the sweep passes over the offsets
// once per segment).
inline constexpr int kMaxSegments = 64;

// Average arcs per (vertex, segment) piece below which auto blocking stops
// adding segments: every piece costs an offset read and a short loop with a
// mispredicted exit, and on urand22 SpMV 8 segments (4 arcs per piece) ran
// 2.3x slower than 4 segments (8 arcs per piece); the limit sits between.
inline constexpr std::int64_t kMinArcsPerPiece = 6;

// Sweeps below which auto blocking does not pay for its copy of the edges:
// building it costs about two unblocked sweeps (its pages are faulted in
// fresh: urand22 PageRank 0.37 s against 0.27 s saved per sweep, weighted
// SpMV 1.3 s against 0.6 s).
inline constexpr int kMinBlockedSweeps = 3;

struct CacheBlockRequest {
  std::int64_t vertices = 0;
  std::int64_t arcs = 0;
  std::size_t value_bytes = 0;  // bytes of one vertex value read at random (float or double)
  std::size_t arc_bytes = 0;    // bytes one arc takes in the blocked copy (id, and weight if any)
  int sweeps = 0;               // sweeps the kernel makes at most (its iteration limit)
  std::int64_t block_bytes = kAutoBlock;
};

struct MachineResources {
  std::size_t llc_bytes = 0;        // last-level cache one thread sees
  std::size_t available_bytes = 0;  // memory free for the blocked copy
};

// Vertices per segment (a power of two), or 0 for no blocking.
// Auto: no blocking while the values take at most a quarter of the cache
// (they mostly stay cached: scale-21 graphs, 8 MiB of floats in a 32 MiB L3,
// ran the same blocked or not), for fewer than kMinBlockedSweeps sweeps, or
// when the copy would take more than half the free memory; else blocks of an
// eighth of the cache (PageRank on kron22: 4 MiB blocks 0.52x the unblocked
// time, 8 MiB blocks 0.73x), widened until pieces average kMinArcsPerPiece
// arcs, and no blocking if that leaves one segment. An explicit block size is
// taken as given, widened only to stay within kMaxSegments.
inline std::int64_t cache_block_width(const CacheBlockRequest& r, const MachineResources& m) {
  if (r.vertices <= 0 || r.value_bytes == 0) return 0;
  const auto n = static_cast<std::uint64_t>(r.vertices);
  const auto arcs = static_cast<std::uint64_t>(std::max<std::int64_t>(r.arcs, 0));
  const std::uint64_t values_bytes = n * r.value_bytes;
  const bool automatic = r.block_bytes == kAutoBlock;
  std::uint64_t block = 0;
  if (automatic) {
    if (values_bytes <= m.llc_bytes / 4 || r.sweeps < kMinBlockedSweeps) return 0;
    block = m.llc_bytes / 8;
  } else if (r.block_bytes <= 0) {
    return 0;
  } else {
    block = static_cast<std::uint64_t>(r.block_bytes);
  }
  if (values_bytes <= block) return 0;
  auto segments = [&](std::uint64_t w) { return (n + w - 1) / w; };
  std::uint64_t width = std::bit_floor(std::max<std::uint64_t>(1, block / r.value_bytes));
  std::uint64_t most = kMaxSegments;
  if (automatic) most = std::min(most, std::max<std::uint64_t>(1, arcs / (n * kMinArcsPerPiece)));
  while (segments(width) > most) width *= 2;
  if (segments(width) <= 1) return 0;
  if (automatic) {  // the copy: arcs, offsets per (segment, vertex), a partial sum per vertex
    const std::uint64_t copy = arcs * r.arc_bytes + (segments(width) * n + 1) * 8 + n * 8;
    if (copy > m.available_bytes / 2) return 0;
  }
  return static_cast<std::int64_t>(width);
}

// A blocking request as users write it (CLI --cache-block, Python
// cache_block=): "auto" (kAutoBlock), "off" or "0", or a size in bytes with
// an optional K, M or G suffix (powers of 1024).
inline std::int64_t parse_cache_block(const std::string& text) {
  if (text == "auto") return kAutoBlock;
  if (text == "off") return 0;
  std::size_t pos = 0;
  long long value = -1;
  try {
    value = std::stoll(text, &pos);
  } catch (...) {
    pos = 0;
  }
  int shift = 0;
  if (pos > 0 && pos + 1 == text.size()) {
    const char unit = text[pos];
    shift = unit == 'K' || unit == 'k' ? 10 : unit == 'M' || unit == 'm' ? 20 : unit == 'G' || unit == 'g' ? 30 : -1;
    if (shift >= 0) ++pos;
  }
  if (pos == 0 || pos != text.size() || value < 0 || shift < 0 || value > (std::int64_t{1} << (62 - shift)))
    throw UsageError("a cache block is 'auto', 'off' or a size in bytes such as 4M (got '" + text + "')");
  return static_cast<std::int64_t>(value) << shift;
}

// The same on this machine.
inline std::int64_t cache_block_width(const CacheBlockRequest& r) {
  return cache_block_width(r, {numa::last_level_cache_bytes(), numa::available_memory_bytes()});
}

}  // namespace numagraph
