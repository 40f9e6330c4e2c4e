// The fast path of CSV and TSV files of integer ids (csv_fast.hpp). Two
// passes over chunks of the part's lines, as for edge lists: a vectorised
// count of each chunk's rows gives each chunk its slots, then each chunk
// parses its rows into them. A line the tokenizer could read as anything
// other than one record of such fields fails the scanner: a quote (which may
// open a field that spans lines) is not a digit, separator or newline, so a
// part whose every row passes holds one record per data line.
#include "csv_fast.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "edge_lines.hpp"
#include "fast_lines.hpp"
#include "table_text.hpp"
#include "text_input.hpp"

namespace numagraph::io {

namespace {

// CSV skips blank lines and lines starting with '#' (csv.cpp's tokenizer).
constexpr std::string_view kComment = "#";

// One row "digits SEP digits [SEP number] [\r] \n" at p (a digit), the
// newline included; false for anything else. A newline lies before `limit`.
inline bool scan_row(const char*& p, const char* limit, char sep, bool three, std::uint64_t& u, std::uint64_t& v,
                     double& w) {
  const char* at = p;
  u = scan_digits(p);
  if (p - at > 18 || *p != sep) return false;  // 19 digits may reach 2^63: the tokenizer's parse_id decides
  at = ++p;
  if (!is_digit(*p)) return false;
  v = scan_digits(p);
  if (p - at > 18) return false;
  if (three) {
    if (*p != sep) return false;
    ++p;
    // A weight the float holds (check_weight's rules), else the facts of the
    // tokenizer's rows say which line is bad.
    if (!scan_number(p, limit, w) || !std::isfinite(w) || !fits_float(w)) return false;
  }
  if (*p == '\r') ++p;  // the tokenizer trims it from the last field
  if (*p != '\n') return false;
  ++p;
  return true;
}

struct Slots {
  std::uint64_t* src;
  std::uint64_t* dst;
  weight_t* weights;  // null for two columns
};

// Pass 2 over one chunk: its rows into slots [k, ...); false at the first
// line the fast path does not read.
bool parse_chunk(const char* begin, const char* end, char sep, const Slots& out, std::int64_t k, bool& integral) {
  const bool three = out.weights != nullptr;
  auto store = [&](std::uint64_t u, std::uint64_t v, double w) {
    out.src[k] = u;
    out.dst[k] = v;
    if (three) {
      integral = integral && integral_weight(w);
      out.weights[k] = static_cast<weight_t>(w);
    }
    ++k;
  };
  const char* safe = after_last_newline(begin, end);
  const char* p = begin;
  while (p < safe) {
    if (!is_digit(*p)) {
      const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(safe - p)));
      if (!is_blank_or_comment(p, nl, kComment)) return false;
      p = nl + 1;
      continue;
    }
    std::uint64_t u, v;
    double w = 1;
    if (!scan_row(p, safe, sep, three, u, v, w)) return false;
    store(u, v, w);
  }
  if (safe == end) return true;
  // The file's last line, without a newline: scanned from a copy that has one.
  if (!is_digit(*safe)) return is_blank_or_comment(safe, end, kComment);
  std::string last(safe, end);
  last += '\n';
  const char* q = last.data();
  std::uint64_t u, v;
  double w = 1;
  if (!scan_row(q, last.data() + last.size(), sep, three, u, v, w) || q != last.data() + last.size()) return false;
  store(u, v, w);
  return true;
}

// The first row's line number and columns (2 or 3; 0 when there is none, -1
// when it is not for the fast path).
int first_row(const char* b, const char* end, std::int64_t line, char sep, std::int64_t& at) {
  while (b < end) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(b, e, kComment)) {
      at = line;
      const auto seps = std::count(b, e, sep);
      return is_digit(*b) && (seps == 1 || seps == 2) ? static_cast<int>(seps) + 1 : -1;
    }
    ++line;
    b = nl ? nl + 1 : end;
  }
  return 0;
}

}  // namespace

std::optional<CsvFastRows> read_csv_integer_rows(const char* begin, const char* end, std::int64_t first_line, char sep,
                                                 bool row0_slot) {
  CsvFastRows out;
  out.row0_slot = row0_slot;
  const int columns = first_row(begin, end, first_line, sep, out.first_line);
  if (columns < 0) return std::nullopt;
  out.columns = static_cast<std::size_t>(columns);
  const auto cuts = cut_at_lines(begin, end, 4 * omp_get_max_threads());
  const std::size_t parts = cuts.size() - 1;
  std::vector<std::int64_t> start(parts + 1, row0_slot ? 1 : 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) start[i + 1] = count_chunk(cuts[i], cuts[i + 1], kComment).edges;
  for (std::size_t i = 0; i < parts; ++i) start[i + 1] += start[i];
  const auto m = static_cast<std::size_t>(start[parts]);
  out.rows = start[parts] - start[0];
  EdgeList& e = out.edges;
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  if (columns == 3) e.weights = NumaArray<weight_t>(m);
  if (out.rows == 0) return out;
  const Slots slots{e.src.data(), e.dst.data(), columns == 3 ? e.weights.data() : nullptr};
  std::vector<char> ok(parts, 1), integral(parts, 1);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    bool whole = true;
    ok[i] = parse_chunk(cuts[i], cuts[i + 1], sep, slots, start[i], whole);
    integral[i] = whole;
  }
  for (std::size_t i = 0; i < parts; ++i) {
    if (!ok[i]) return std::nullopt;
    out.integral = out.integral && integral[i];
  }
  return out;
}

}  // namespace numagraph::io
