// Internal: parallel two-pass parsing of formats with one edge per data line
// (edge lists, Matrix Market entries, DIMACS arc lines). Pass one counts the
// data lines of each chunk, a prefix sum gives each chunk its slot in the
// output arrays, pass two parses straight into them: no per-thread buffers
// and no copy.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "numagraph/graph/types.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "text_input.hpp"

namespace numagraph::io {

// is_data(begin, end) -> bool: the line holds an edge.
// parse(cursor, line, src&, dst&, weight&): fills one edge, throws LineError.
template <typename IsData, typename Parse>
EdgeList parse_edge_lines(const TextFile& file, const std::vector<Chunk>& chunks, bool weighted,
                          IsData&& is_data, Parse&& parse) {
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
  e.source_name = file.path();
  ErrorSlot error;
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
  error.throw_if_set(file.path());
  return e;
}

// Checks a weight for a format that stores weights as floats: finite, and
// exactly representable when the format says weights are integers.
inline void check_weight(double w, bool integer, bool allow_negative) {
  if (!allow_negative && w < 0) throw LineError{"negative weight " + std::to_string(w) + " is not allowed in this format"};
  if (integer && std::fabs(w) > static_cast<double>(kMaxExactIntegerWeight))
    throw LineError{"integer weight " + std::to_string(static_cast<long long>(w)) +
                    " exceeds 2^24, the largest weight stored exactly (use real weights)"};
}

}  // namespace numagraph::io
