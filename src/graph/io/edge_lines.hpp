// Internal: parallel two-pass parsing of formats with one edge per data line
// (edge lists, Matrix Market entries, DIMACS arc lines). Pass one counts the
// data lines of each chunk, a prefix sum gives each chunk its slot in the
// output arrays, pass two parses straight into them: no per-thread buffers
// and no copy.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "numagraph/graph/types.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "text_input.hpp"

namespace numagraph::io {

// is_data(begin, end) -> bool: the line holds an edge.
// parse(cursor, line, src&, dst&, weight&): fills one edge, throws LineError.
// The edges come back one per data line; the first bad line (smallest line
// number) is left in `error`, and the edges are then incomplete.
template <typename IsData, typename Parse>
EdgeList parse_edge_lines(const std::string& path, const std::vector<Chunk>& chunks, bool weighted,
                          IsData&& is_data, Parse&& parse, ErrorSlot& error) {
  const std::size_t parts = chunks.size();
  std::vector<std::int64_t> count(parts + 1, 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::int64_t c = 0;
    for_each_line(chunks[i], [&](const char* b, const char* e, std::int64_t) { c += is_data(b, e) ? 1 : 0; });
    count[i] = c;
  }
  std::vector<std::int64_t> start(parts + 1, 0);
  for (std::size_t i = 0; i < parts; ++i) start[i + 1] = start[i] + count[i];
  const std::int64_t m = start[parts];
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(static_cast<std::size_t>(m));
  e.dst = NumaArray<std::uint64_t>(static_cast<std::size_t>(m));
  if (weighted) e.weights = NumaArray<weight_t>(static_cast<std::size_t>(m));
  e.source_name = path;
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::int64_t k = start[i];
    try {
      for_each_line(chunks[i], [&](const char* b, const char* end, std::int64_t line) {
        if (!is_data(b, end)) return;
        LineCursor cur(b, end);
        double w = 1;
        try {
          parse(cur, line, e.src[k], e.dst[k], w);
        } catch (const LineError& err) {
          error.offer(line, err.message);
          throw;
        }
        if (weighted) e.weights[k] = static_cast<weight_t>(w);
        ++k;
      });
    } catch (const LineError&) {
      // Recorded in `error`; the rest of this chunk is skipped.
    }
  }
  return e;
}

// The shortest text that gives `w` back, for messages ("1e+40", "16777217").
inline std::string weight_text(double w) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, w);
  return std::string(buf, p);
}

// True when `w` becomes a float without overflowing, and a whole number
// becomes one exactly (16777217 would silently become 16777216).
inline bool fits_float(double w) {
  if (!(std::fabs(w) <= static_cast<double>(std::numeric_limits<float>::max()))) return false;
  return w != std::floor(w) || static_cast<double>(static_cast<float>(w)) == w;
}

// Checks a weight for a format that stores weights as floats: in the float's
// range, exact when it is a whole number, and within 2^24 when the format says
// weights are integers (docs/formats.md).
inline void check_weight(double w, bool integer, bool allow_negative) {
  if (!allow_negative && w < 0) throw LineError{"negative weight " + weight_text(w) + " is not allowed in this format"};
  if (integer && std::fabs(w) > static_cast<double>(kMaxExactIntegerWeight))
    throw LineError{"integer weight " + weight_text(w) +
                    " exceeds 2^24, the largest weight stored exactly (scale the weights down, or use real weights)"};
  if (!(std::fabs(w) <= static_cast<double>(std::numeric_limits<float>::max())))
    throw LineError{"weight " + weight_text(w) +
                    " is beyond the range of a 32-bit float (about 3.4e38), the type weights are stored in; "
                    "scale the weights down"};
  if (!fits_float(w))
    throw LineError{"whole-number weight " + weight_text(w) +
                    " cannot be stored exactly in a 32-bit float (whole numbers are exact up to 2^24 = 16777216); "
                    "scale the weights down"};
}

}  // namespace numagraph::io
