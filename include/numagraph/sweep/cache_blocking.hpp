// When and how finely a pull kernel blocks its sweep for the cache (the
// segmented lists of sweep/segmented_lists.hpp, the tiles of
// sweep/tiled_arcs.hpp): each rule is one function of the graph's size, the
// kernel's sweeps and the machine, so the PageRank and SpMV kernels and the
// CLI's report take the same decision.
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
// mispredicted exit.
// Measured: docs/kernels/pr.md, "Segments".
inline constexpr std::int64_t kMinArcsPerPiece = 6;

// Sweeps below which auto blocking does not pay for its copy of the edges:
// building it costs about two unblocked sweeps (its pages are faulted in
// fresh).
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
  std::size_t l2_bytes = 0;         // one core's L2 cache (0: numa::kFallbackL2Bytes)
};

// Vertices per segment (a power of two), or 0 for no blocking.
// Auto: no blocking while the values take at most a quarter of the cache
// (they mostly stay cached), for fewer than kMinBlockedSweeps sweeps, or
// when the copy would take more than half the free memory; else blocks of an
// eighth of the cache, widened until pieces average kMinArcsPerPiece arcs,
// and no blocking if that leaves one segment. An explicit block size is
// taken as given, widened only to stay within kMaxSegments.
// Measured: docs/kernels/pr.md, "Segments".
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

// The shape of a tiling (sweep/tiled_arcs.hpp): tiles of 2^col_bits columns
// by 2^row_bits rows; col_bits < 0 means no tiling.
struct TileShape {
  int col_bits = -1;
  int row_bits = 0;
  bool tiled() const { return col_bits >= 0; }
};

// Arcs per tile on average below which a tiling is refused, unless it has
// at most kFewTiles tiles (each tile costs an offset and a loop start; the
// tile count grows with the square of the vertices, so this only refuses
// graphs of billions of vertices with few arcs, or tiny explicit blocks on
// large graphs).
inline constexpr std::int64_t kMinArcsPerTile = 16;
inline constexpr std::int64_t kFewTiles = 65536;

// Row bits below which the rule does not go to give every thread several row
// blocks (a buffer of 1024 sums is already a small task).
inline constexpr int kMinTileRowBits = 10;

// The smallest row buffer of a tiling whose values stream from memory once
// per row block (see cache_tile_shape).
inline constexpr std::uint64_t kMinStreamingRowBuffer = std::uint64_t{1} << 20;

// Values of at most this many L2s are "near the L2": tiling them saves less
// per sweep (their random reads mostly hit the L3), so the copy needs
// kMinNearL2TiledSweeps sweeps to pay for itself (see cache_tile_shape).
inline constexpr std::uint64_t kNearL2Values = 4;
inline constexpr int kMinNearL2TiledSweeps = 5;

// The tiling of a pull sweep whose random reads would overflow the cache, or
// none. Auto tiles once the values outgrow one core's L2, where the tiles'
// reads hit: at least kMinBlockedSweeps sweeps, kMinNearL2TiledSweeps while
// the values take at most kNearL2Values L2s, and the copy in half the free
// memory; an explicit size always tiles unless every value fits in one
// range. Tiles pay from the L2 on, copy included (measured: docs/kernels/pr.md,
// "When"). The segmented sweeps (cache_block_width) keep their own rule:
// their pieces cost more per arc than tiles. The shape:
// - rows first: a buffer of doubles of half the L2, since its updates are the
//   random accesses. When the values take more than half the last-level
//   cache, every row block reads them from memory again and fewer blocks pay
//   more: then the whole L2, at least kMinStreamingRowBuffer.
// - then narrower row blocks until every thread has 4 (not below 2^10 rows).
// - columns: a window of values of half the L2 (an explicit size replaces
//   it), narrowed so that an arc's row and column fit in 32 bits: the tile
//   reads its window forward, so its width hardly matters, while every row
//   block costs a pass over the values. An explicit window is kept as asked
//   and the rows give way instead.
// - then wider row blocks while there would be more than kFewTiles tiles
//   averaging fewer than kMinArcsPerTile arcs (none if 32 bits cannot reach
//   that).
// Measured: docs/kernels/pr.md, "Tile shape".
inline TileShape cache_tile_shape(const CacheBlockRequest& r, const MachineResources& m, int threads) {
  if (r.vertices <= 0 || r.value_bytes == 0) return {};
  const auto n = static_cast<std::uint64_t>(r.vertices);
  const auto arcs = static_cast<std::uint64_t>(std::max<std::int64_t>(r.arcs, 0));
  const std::uint64_t values_bytes = n * r.value_bytes;
  const std::uint64_t l2 = m.l2_bytes ? m.l2_bytes : numa::kFallbackL2Bytes;
  const bool automatic = r.block_bytes == kAutoBlock;
  std::uint64_t window = 0;
  if (automatic) {
    if (values_bytes <= l2 || r.sweeps < kMinBlockedSweeps) return {};
    if (values_bytes <= kNearL2Values * l2 && r.sweeps < kMinNearL2TiledSweeps) return {};
    window = l2 / 2;
  } else if (r.block_bytes <= 0) {
    return {};
  } else {
    window = static_cast<std::uint64_t>(r.block_bytes);
  }
  if (values_bytes <= window) return {};
  auto floor_log2 = [](std::uint64_t x) { return static_cast<int>(std::bit_width(std::max<std::uint64_t>(x, 1))) - 1; };
  auto blocks = [&](int bits) { return ((n - 1) >> bits) + 1; };
  TileShape t;
  t.col_bits = std::min(floor_log2(window / r.value_bytes), 31);
  const bool values_stream = values_bytes > m.llc_bytes / 2;
  const std::uint64_t buffer = values_stream ? std::max<std::uint64_t>(l2, kMinStreamingRowBuffer) : l2 / 2;
  t.row_bits = floor_log2(buffer / sizeof(double));
  while (t.row_bits > kMinTileRowBits && blocks(t.row_bits) < 4 * static_cast<std::uint64_t>(std::max(threads, 1)))
    --t.row_bits;
  // Both fit in one 32-bit arc (see above: rows win unless the window was asked for).
  if (automatic)
    t.col_bits = std::min(t.col_bits, 32 - t.row_bits);
  else
    t.row_bits = std::min(t.row_bits, 32 - t.col_bits);
  const std::uint64_t most_tiles = std::max<std::uint64_t>(kFewTiles, arcs / kMinArcsPerTile);
  auto tiles = [&] { return blocks(t.row_bits) * blocks(t.col_bits); };
  while (tiles() > most_tiles && t.col_bits + t.row_bits < 32) ++t.row_bits;
  if (tiles() > most_tiles) return {};
  if (automatic) {  // the copy: arcs (a 32-bit word each, plus the weight if any) and an offset per tile
    const std::uint64_t copy = arcs * r.arc_bytes + (tiles() + 1) * 8;
    if (copy > m.available_bytes / 2) return {};
  }
  return t;
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

// Whether a rule's answer blocks the sweep.
inline bool blocks(std::int64_t width) { return width > 0; }
inline bool blocks(const TileShape& t) { return t.tiled(); }

// Runs a blocking rule on this machine's resources. The free memory only
// ever turns blocking off, so /proc/meminfo is read only when the rule blocks
// with unlimited memory (a read costs about 80 us: docs/kernels/pr.md).
// `rule(m)` returns a width (0: none) or a TileShape.
template <typename Rule>
auto decide_on_this_machine(Rule&& rule) {
  MachineResources m{numa::last_level_cache_bytes(), SIZE_MAX, numa::l2_cache_bytes()};
  const auto unlimited = rule(m);
  if (!blocks(unlimited)) return unlimited;
  m.available_bytes = numa::available_memory_bytes();
  return rule(m);
}

// The same on this machine.
inline std::int64_t cache_block_width(const CacheBlockRequest& r) {
  return decide_on_this_machine([&](const MachineResources& m) { return cache_block_width(r, m); });
}

// The same on this machine, for this many threads.
inline TileShape cache_tile_shape(const CacheBlockRequest& r, int threads) {
  return decide_on_this_machine([&](const MachineResources& m) { return cache_tile_shape(r, m, threads); });
}

}  // namespace numagraph
