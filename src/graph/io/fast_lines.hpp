// Internal: the pieces the integer fast paths of edge lists (edge_list.cpp)
// and CSV/TSV (csv_fast.cpp) share: a digit scanner that relies on a newline
// ahead instead of bounds checks, and a vectorised count of a chunk's lines.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "text_input.hpp"

namespace numagraph::io {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// Scans the unsigned integer at p (a digit); stops at the first non-digit.
// Callers guarantee a newline before the end of the buffer. Up to 18 digits
// cannot reach 2^63; callers send longer ids to their checked path.
inline std::uint64_t scan_digits(const char*& p) {
  std::uint64_t v = static_cast<std::uint64_t>(*p++ - '0');
  while (is_digit(*p)) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
  return v;
}

// Parses the number at p as std::from_chars does (p moves to its end; false
// when there is none), with a shortcut for whole numbers of up to 15 digits,
// which a double holds exactly: weights are mostly such.
inline bool scan_number(const char*& p, const char* end, double& w) {
  const char* q = p;
  std::uint64_t v = 0;
  while (q < end && is_digit(*q) && q - p < 16) v = v * 10 + static_cast<std::uint64_t>(*q++ - '0');
  if (q > p && q - p <= 15 && (q == end || !(is_digit(*q) || *q == '.' || *q == 'e' || *q == 'E'))) {
    w = static_cast<double>(v);
    p = q;
    return true;
  }
  auto [stop, ec] = std::from_chars(p, end, w);
  if (ec != std::errc()) return false;
  p = stop;
  return true;
}

struct ChunkStats {
  std::int64_t newlines = 0;
  std::int64_t edges = 0;  // lines that are not blank or comments
};

// Newlines in [b, e) and the lines that are not blank or comments (a comment
// starts with one of `comment_chars` after optional blanks). The common case
// (every line starts with a digit) is decided by the vectorised count alone.
inline ChunkStats count_chunk(const char* b, const char* e, std::string_view comment_chars) {
  ChunkStats s;
  const std::size_t n = static_cast<std::size_t>(e - b);
  if (n == 0) return s;
  std::int64_t newlines = 0, odd_starts = !is_digit(b[0]);
  constexpr std::size_t kBlock = 1 << 16;  // 32-bit counters per block: they vectorise well
  for (std::size_t lo = 0; lo + 1 < n; lo += kBlock) {
    const std::size_t hi = std::min(n - 1, lo + kBlock);
    std::uint32_t nl = 0, odd = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint32_t is_nl = b[i] == '\n';
      nl += is_nl;
      odd += is_nl & static_cast<std::uint32_t>(static_cast<unsigned char>(b[i + 1] - '0') > 9);
    }
    newlines += nl;
    odd_starts += odd;
  }
  newlines += b[n - 1] == '\n';
  s.newlines = newlines;
  const bool unterminated = b[n - 1] != '\n';
  if (odd_starts == 0) {
    s.edges = newlines + unterminated;
    return s;
  }
  for_each_line(Chunk{b, e, 0}, [&](const char* lb, const char* le, std::int64_t) {
    s.edges += !is_blank_or_comment(lb, le, comment_chars);
  });
  return s;
}

// The end of the chunk's last newline (its first byte when it has none): the
// fast scanners run up to it without bounds checks.
inline const char* after_last_newline(const char* b, const char* e) {
  for (const char* q = e; q > b; --q)
    if (q[-1] == '\n') return q;
  return b;
}

}  // namespace numagraph::io
