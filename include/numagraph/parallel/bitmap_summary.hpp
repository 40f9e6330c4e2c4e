// The summary level of a two-level bitmap: one bit per 2^shift bits of the
// base (shift >= 6), set when any base word it covers is nonzero. The BFS
// bitmaps (the flat kernel's and the engine's frontiers) set base bits
// without touching the summary while a step runs, since summary words are
// shared by every thread, and rebuild it afterwards with this pass.
#pragma once

#include <algorithm>
#include <cstdint>

#include "numagraph/parallel/parallel.hpp"

namespace numagraph::parallel {

inline void rebuild_bitmap_summary(const std::uint64_t* words, std::int64_t num_words, int shift,
                                   std::uint64_t* summary, std::int64_t num_summary_words) {
  const std::int64_t words_per_bit = std::int64_t{1} << (shift - 6);
  const std::int64_t words_per_summary_word = 64 * words_per_bit;
  for_static(std::int64_t{0}, num_summary_words, [&](std::int64_t sw) {
    std::uint64_t bits = 0;
    const std::int64_t first = sw * words_per_summary_word;
    const std::int64_t last = std::min(num_words, first + words_per_summary_word);
    for (std::int64_t w = first; w < last; ++w)
      if (words[w]) bits |= std::uint64_t{1} << ((w - first) / words_per_bit);
    summary[sw] = bits;
  });
}

}  // namespace numagraph::parallel
