// Edge lists: .el (u v), .wel (u v w) and SNAP .txt (u v). Comment lines
// start with '#' or '%'; columns are separated by any blanks (or commas).
// Ids are 0-based and may be any value below 2^63 (sparse ids are compacted
// by the builder's relabelling). Edges are directed unless -s is given.
//
// Files of integer ids are the hot path (benchmarks and most real graphs come
// as edge lists), so they have their own two-pass parser instead of the
// generic parse_edge_lines:
//   pass 1: one branch-free, vectorisable scan per chunk counts newlines and
//           line starts that are not digits; chunks without such lines hold
//           exactly one edge per line, the others are counted line by line;
//   pass 2: a tight scanner parses "digits blanks digits [weight] newline"
//           straight into the output slots. Anything else on a line (comment,
//           indentation, '+', bad token, 19+ digit id) falls back to the
//           checked LineCursor path, which accepts it or explains the error.
// Everything else (names, a header line, more columns, networkx's dict of
// edge data) is read as a table (edge_table.cpp), serially: the first lines
// choose the path, and a file the fast parser refuses is read as a table.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "edge_lines.hpp"
#include "edge_table.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r' || c == ','; }

// Scans the unsigned integer at p (a digit); stops at the first non-digit.
// Callers guarantee a newline before the end of the buffer.
inline std::uint64_t scan_digits(const char*& p) {
  std::uint64_t v = static_cast<std::uint64_t>(*p++ - '0');
  while (is_digit(*p)) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
  return v;
}

struct ChunkStats {
  std::int64_t newlines = 0;
  std::int64_t edges = 0;
};

// Newlines in [b, e) and the number of edge lines (lines that are not blank
// or comments). The common case (every line starts with a digit) is decided
// by the vectorised count alone.
ChunkStats count_chunk(const char* b, const char* e) {
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
    s.edges += !is_blank_or_comment(lb, le, "#%");
  });
  return s;
}

// The checked path for one line: accepts anything the format allows and
// throws LineError with a precise message otherwise.
void parse_line_checked(const char* b, const char* e, bool weighted, std::uint64_t& u, std::uint64_t& v,
                        double& w) {
  LineCursor c(b, e);
  u = c.next_uint("source id");
  v = c.next_uint("target id");
  if (weighted) {
    w = c.next_double("weight");
    check_weight(w, false, true);
    c.expect_end("the weight (a .wel line is: source target weight)");
  } else {
    c.expect_end("the target id (an edge-list line is: source target; use .wel for weights)");
  }
}

struct ChunkResult {
  bool integral = true;
};

// Pass 2 over one chunk: fills slots [k, ...) of the output arrays.
void parse_chunk(const Chunk& c, bool weighted, std::uint64_t* src, std::uint64_t* dst, weight_t* wts,
                 std::int64_t k, ErrorSlot& error, ChunkResult& result) {
  // Fast-path scanning may run to the next newline without bounds checks, so
  // it stops after the chunk's last newline; a final unterminated line is
  // parsed by the checked path.
  const char* safe = c.begin;
  for (const char* q = c.end; q > c.begin; --q)
    if (q[-1] == '\n') {
      safe = q;
      break;
    }
  std::int64_t line = c.first_line;
  const char* p = c.begin;
  bool integral = true;
  auto store = [&](std::uint64_t u, std::uint64_t v, double w) {
    src[k] = u;
    dst[k] = v;
    if (weighted) {
      if (w != std::floor(w) || std::fabs(w) > static_cast<double>(kMaxExactIntegerWeight)) integral = false;
      wts[k] = static_cast<weight_t>(w);
    }
    ++k;
  };
  auto checked = [&](const char* b, const char* e) {
    if (is_blank_or_comment(b, e, "#%")) return true;
    try {
      std::uint64_t u, v;
      double w = 1;
      parse_line_checked(b, e, weighted, u, v, w);
      store(u, v, w);
      return true;
    } catch (const LineError& err) {
      error.offer(line, err.message);
      return false;
    }
  };
  while (p < safe) {
    const char* line_start = p;
    if (is_digit(*p)) {
      const std::uint64_t u = scan_digits(p);
      // Up to 18 digits cannot reach 2^63; longer ids take the checked path.
      if (p - line_start <= 18 && is_sep(*p)) {
        do ++p;
        while (is_sep(*p));
        const char* v_start = p;
        if (is_digit(*p)) {
          const std::uint64_t v = scan_digits(p);
          bool ok = p - v_start <= 18;
          double w = 1;
          if (ok && weighted) {
            ok = is_sep(*p);
            while (is_sep(*p)) ++p;
            if (ok) {
              auto [end, ec] = std::from_chars(p, safe, w);
              ok = ec == std::errc() && std::isfinite(w) && fits_float(w);  // else the checked path says why
              p = end;
            }
          }
          if (ok) {
            while (is_sep(*p)) ++p;
            if (*p == '\n') {
              store(u, v, w);
              ++p;
              ++line;
              continue;
            }
          }
        }
      }
    }
    const char* nl = static_cast<const char*>(memchr(line_start, '\n', static_cast<std::size_t>(safe - line_start)));
    if (!checked(line_start, nl)) {
      result.integral = integral;
      return;
    }
    p = nl + 1;
    ++line;
  }
  if (safe < c.end) checked(safe, c.end);
  result.integral = integral;
}

// The integer fast path (see the top of this file).
EdgeList read_integer_edges(const TextFile& file, bool weighted) {
  const std::string& path = file.path();
  const char* begin = file.data();
  const auto cuts = cut_at_lines(begin, begin + file.size(), 4 * omp_get_max_threads());
  const std::size_t parts = cuts.size() - 1;
  std::vector<ChunkStats> stats(parts);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) stats[i] = count_chunk(cuts[i], cuts[i + 1]);
  std::vector<Chunk> chunks(parts);
  std::vector<std::int64_t> start(parts + 1, 0);
  std::int64_t line = 1;
  for (std::size_t i = 0; i < parts; ++i) {
    chunks[i] = {cuts[i], cuts[i + 1], line};
    line += stats[i].newlines;
    start[i + 1] = start[i] + stats[i].edges;
  }
  const auto m = static_cast<std::size_t>(start[parts]);
  if (m == 0)
    throw InputError(path, std::max<std::int64_t>(1, line - (file.size() > 0 && begin[file.size() - 1] == '\n')),
                     "no edges found (empty file or only comments); an edge list needs lines 'source target'");
  EdgeList edges;
  edges.src = NumaArray<std::uint64_t>(m);
  edges.dst = NumaArray<std::uint64_t>(m);
  if (weighted) edges.weights = NumaArray<weight_t>(m);
  edges.source_name = path;
  ErrorSlot error;
  std::vector<ChunkResult> results(parts);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i)
    parse_chunk(chunks[i], weighted, edges.src.data(), edges.dst.data(), weighted ? edges.weights.data() : nullptr,
                start[i], error, results[i]);
  error.throw_if_set(path);
  if (weighted) {
    bool integral = true;
    for (const auto& r : results) integral = integral && r.integral;
    edges.weight_kind = integral ? WeightKind::kInteger : WeightKind::kReal;
  }
  return edges;
}

// The slow path: every line as fields (blanks or commas separate them; a
// field that starts with '{' runs to the end of the line: networkx's dict of
// edge data).
TableRows table_rows(const char* b, const char* end) {
  TableRows rows;
  std::int64_t line = 1;
  while (b < end) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(b, e, "#%")) {
      const char* p = b;
      for (;;) {
        while (p < e && is_sep(*p)) ++p;
        if (p >= e) break;
        const char* q = p;
        if (*p == '{') {
          q = e;
          while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r')) --q;
        } else {
          while (q < e && !is_sep(*q)) ++q;
        }
        rows.fields.emplace_back(p, static_cast<std::size_t>(q - p));
        if (*p == '{' || q >= e) break;
        p = q;
      }
      rows.end_row(line);
    }
    ++line;
    b = nl ? nl + 1 : end;
  }
  return rows;
}

// An id the fast path reads: an integer below 2^63, '+' allowed.
bool fast_id(std::string_view t) {
  std::uint64_t v = 0;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  return parse_id(t, v);
}

enum class Shape { kEmpty, kTwoIntegers, kThreeNumbers, kTable };

// What the first data lines (up to 64, in the first 64 KiB) hold: two
// integer ids, two ids and a number, or anything else.
Shape sample_shape(const char* b, const char* end) {
  end = std::min(end, b + (1 << 16));
  Shape shape = Shape::kEmpty;
  int lines = 0;
  while (b < end && lines < 64) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (!nl && end - b == (1 << 16)) break;  // a cut line
    if (!is_blank_or_comment(b, e, "#%")) {
      ++lines;
      const TableRows row = table_rows(b, e);
      Shape here = Shape::kTable;
      double x = 0;
      const std::size_t k = row.size() == 1 ? row.columns(0) : 0;
      const bool ints = k >= 1 && fast_id(row.at(0, 0)) && (k == 1 || fast_id(row.at(0, 1)));
      if (ints && k <= 2) {
        here = Shape::kTwoIntegers;  // (one column: the parser says what is missing)
      } else if (ints && k == 3) {
        const std::string_view w = row.at(0, 2);
        auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), x);
        if (ec == std::errc() && p == w.data() + w.size()) here = Shape::kThreeNumbers;
      }
      // Names or other columns make a table; integer lines of 2 and 3
      // columns mixed are the first line's shape (the parser then says
      // which line differs).
      if (here == Shape::kTable) return Shape::kTable;
      if (shape == Shape::kEmpty) shape = here;
    }
    b = nl ? nl + 1 : end;
  }
  return shape;
}

// Whether 1-based line `line` of [b, end) holds a name (an id that is not an
// integer) or more columns than `three` says: then the file is read as a table.
bool needs_table(const char* b, const char* end, std::int64_t line, bool three) {
  for (std::int64_t k = 1; k < line && b < end; ++k) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    b = nl ? nl + 1 : end;
  }
  const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
  const TableRows row = table_rows(b, nl ? nl : end);
  if (row.size() != 1) return false;
  return row.columns(0) > (three ? 3u : 2u) || !fast_id(row.at(0, 0)) ||
         (row.columns(0) > 1 && !fast_id(row.at(0, 1)));
}

}  // namespace

EdgeList read_edge_list_text(const std::string& path, bool weighted, const ReadOptions& options) {
  TextFile file(path);
  const char* begin = file.data();
  const char* end = begin + file.size();
  if (file.size() >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 byte order mark
  const Shape shape = begin == file.data() ? sample_shape(begin, end) : Shape::kTable;
  const std::string& wc = options.weight_column;
  const bool none = wc == "none";
  const bool fast = options.header != Header::kYes && (wc.empty() || none || wc == "3") &&
                    (shape == Shape::kEmpty || shape == Shape::kThreeNumbers ||
                     (shape == Shape::kTwoIntegers && !weighted && wc != "3"));
  if (fast) {
    const bool three = shape == Shape::kThreeNumbers;
    std::optional<EdgeList> e;
    try {
      e = read_integer_edges(file, three || (shape == Shape::kEmpty && weighted));
    } catch (const InputError& err) {
      // A line with a name or more columns makes the file a table; any other
      // error (a weight out of range, ...) is the line's own.
      if (shape == Shape::kEmpty || !needs_table(begin, end, err.line(), three)) throw;
    }
    if (e) {
      record_directed(*e);
      set_decision(e->decisions, "header", "false");
      set_decision(e->decisions, "ids", "integers");
      if (three && none) {
        e->weights = {};
        e->weight_kind = WeightKind::kNone;
        set_decision(e->decisions, "weight_column", "none");
      } else if (three) {
        set_decision(e->decisions, "weight_column", "3",
                     weighted || wc == "3" ? std::string()
                                           : "column 3 holds numbers and is read as edge weights (--weight-column "
                                             "none, Python weight=None, reads the graph unweighted)");
      }
      return std::move(*e);
    }
  }
  const TableRows rows = table_rows(begin, end);
  const TableKind kind{"edge list", ' ', weighted, true};
  return edges_from_table(path, rows, kind, options);
}

}  // namespace numagraph::io
