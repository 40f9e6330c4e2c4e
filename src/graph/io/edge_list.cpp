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
// choose the path, and a file whose first bad line holds a name or more
// columns is read as a table.
//
// A file is read in parts (part_readers.hpp; the whole file is one part):
// each part runs the fast path on its lines and records its first bad line,
// and also gathers the facts a table reader would need of its lines (summed
// up from the fast path's result when every line parsed), since a line of a
// later part may make the whole file a table.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "edge_lines.hpp"
#include "edge_table.hpp"
#include "fast_lines.hpp"
#include "part_readers.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

inline bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r' || c == ','; }

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

// The slow path: every line as fields (blanks or commas separate them; a
// field that starts with '{' runs to the end of the line: networkx's dict of
// edge data). Calls row(fields-appended rows) after each data line.
template <typename Row>
void for_each_row(const char* b, const char* end, std::int64_t first_line, TableRows& rows, Row&& row) {
  std::int64_t line = first_line;
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
      row(rows);
    }
    ++line;
    b = nl ? nl + 1 : end;
  }
}

TableRows table_rows(const char* b, const char* end, std::int64_t first_line) {
  TableRows rows;
  for_each_row(b, end, first_line, rows, [](const TableRows&) {});
  return rows;
}

// Gathers a table's facts of the lines of [b, end) one row at a time, without
// keeping the rows.
void gather_lines(const TablePlan& plan, const TableHead& head, const char* b, const char* end,
                  std::int64_t first_line, FactsBody& facts) {
  TableGatherer gatherer(plan, facts);
  TableRows rows;
  for_each_row(b, end, first_line, rows, [&](TableRows& one) {
    if (head.count == 0 || one.line[0] != head.line[0]) gatherer.row(one, 0);
    one.fields.clear();
    one.start.resize(1);
    one.line.clear();
  });
  gatherer.finish();
}

// A line of the chunk: its number and bytes.
struct LineRef {
  std::int64_t line = 0;  // 0: none
  const char* begin = nullptr;
  const char* end = nullptr;
};

// What parse_chunk needs to gather a table's facts of every line when the
// fast path meets a bad line (see OddRows).
struct ChunkPlan {
  const TablePlan& plan;
  const FactsBody& blank;  // new_body of the part's format and options
  std::int64_t row0;       // the file's row 0, which no part gathers
};

// A chunk's rows as a table's facts, exactly as gather_lines would gather
// them, without the tokenizer's cost on the rows the fast path read: those
// rows (integer ids without '+', not row 0) are `uniform_rows` rows of the
// same shape from line `first_uniform` on, summed up by gather_uniform_rows
// (whose facts are all fixed by the first such row); the other rows (bad
// lines, '+' ids) go through the tokenizer one by one, into `before` when
// they come before the first uniform row, else into `after`. Folding
// before, uniform, after in that order gives gather_lines' facts.
struct OddRows {
  std::int64_t uniform_rows = 0, first_uniform = 0;
  std::unique_ptr<FactsBody> before, after;
};

struct ChunkResult {
  bool integral = true;
  LineRef error;  // the chunk's first bad line (without a ChunkPlan the rest of the chunk is not parsed)
  std::string message;
  // Lines with an id written with '+': integers here, names to a table.
  LineRef plus;
  std::int64_t plus_rows = 0;
  OddRows odd;  // with a ChunkPlan
};

// Whether the line's source or target is written with a '+'.
bool plus_id(const char* b, const char* e) {
  if (!memchr(b, '+', static_cast<std::size_t>(e - b))) return false;
  const TableRows row = table_rows(b, e, 1);
  return row.size() == 1 && ((!row.at(0, 0).empty() && row.at(0, 0).front() == '+') ||
                             (!row.at(0, 1).empty() && row.at(0, 1).front() == '+'));
}

// Pass 2 over one chunk: fills slots [k, ...) of the output arrays. With a
// ChunkPlan the chunk is parsed to its end past bad lines (their edges are
// never used: the file then fails or is read as a table) and result.odd
// holds the table facts of its rows.
void parse_chunk(const Chunk& c, bool weighted, std::uint64_t* src, std::uint64_t* dst, weight_t* wts,
                 std::int64_t k, const ChunkPlan* table, ChunkResult& result) {
  // Fast-path scanning may run to the next newline without bounds checks, so
  // it stops after the chunk's last newline; a final unterminated line is
  // parsed by the checked path.
  const char* safe = after_last_newline(c.begin, c.end);
  std::int64_t line = c.first_line;
  const char* p = c.begin;
  bool integral = true;
  const std::int64_t k0 = k;
  const std::int64_t row0 = table ? table->row0 : 0;
  bool row0_read = false;         // row 0 is a row the fast path read
  std::int64_t first_uniform = 0;  // a local, not odd's: the stores to the slots may alias it
  OddRows& odd = result.odd;
  std::optional<TableGatherer> before, after;
  if (table) {
    odd.before = std::make_unique<FactsBody>(table->blank);
    odd.after = std::make_unique<FactsBody>(table->blank);
    before.emplace(table->plan, *odd.before);
    after.emplace(table->plan, *odd.after);
  }
  auto store = [&](std::uint64_t u, std::uint64_t v, double w) {
    src[k] = u;
    dst[k] = v;
    if (weighted) {
      if (w != std::floor(w) || std::fabs(w) > static_cast<double>(kMaxExactIntegerWeight)) integral = false;
      wts[k] = static_cast<weight_t>(w);
    }
    ++k;
  };
  auto uniform = [&] {
    if (first_uniform == 0) {
      if (line == row0) row0_read = true;
      else first_uniform = line;
    }
  };
  auto gather_odd = [&](const char* b, const char* e) {
    if (!table || line == row0) return;
    const TableRows row = table_rows(b, e, line);
    if (row.size() == 1) (first_uniform ? *after : *before).row(row, 0);
  };
  auto checked = [&](const char* b, const char* e) {
    if (is_blank_or_comment(b, e, "#%")) return true;
    try {
      std::uint64_t u, v;
      double w = 1;
      parse_line_checked(b, e, weighted, u, v, w);
      store(u, v, w);
      if (plus_id(b, e)) {
        if (!result.plus_rows++) result.plus = {line, b, e};
        gather_odd(b, e);
      } else {
        uniform();
      }
      return true;
    } catch (const LineError& err) {
      if (!result.error.line) {
        result.error = {line, b, e};
        result.message = err.message;
      }
      gather_odd(b, e);
      return table != nullptr;
    }
  };
  auto finish = [&] {
    result.integral = integral;
    if (!table) return;
    odd.first_uniform = first_uniform;
    odd.uniform_rows = (k - k0) - result.plus_rows - (row0_read ? 1 : 0);
    before->finish();
    after->finish();
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
              ok = scan_number(p, safe, w) && std::isfinite(w) && fits_float(w);  // else the checked path says why
            }
          }
          if (ok) {
            while (is_sep(*p)) ++p;
            if (*p == '\n') {
              store(u, v, w);
              uniform();
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
      finish();
      return;
    }
    p = nl + 1;
    ++line;
  }
  if (safe < c.end) checked(safe, c.end);
  finish();
}

// What the fast path parsed of a range of lines.
struct FastEdges {
  EdgeList edges;  // one slot per data line
  std::int64_t data_lines = 0;
  bool integral = true;
  LineRef error;  // the first bad line
  std::string message;
  LineRef plus;   // the first line with a '+' id, and how many there are
  std::int64_t plus_rows = 0;
  std::vector<OddRows> odd;  // with a ChunkPlan: each chunk's rows as a table's facts, in line order
};

// The integer fast path (see the top of this file) over the lines of
// [begin, end), the first of which is line `first_line`.
FastEdges read_integer_edges(const std::string& path, const char* begin, const char* end, std::int64_t first_line,
                             bool weighted, const ChunkPlan* table) {
  const auto cuts = cut_at_lines(begin, end, 4 * omp_get_max_threads());
  const std::size_t parts = cuts.size() - 1;
  std::vector<ChunkStats> stats(parts);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) stats[i] = count_chunk(cuts[i], cuts[i + 1], "#%");
  std::vector<Chunk> chunks(parts);
  std::vector<std::int64_t> start(parts + 1, 0);
  std::int64_t line = first_line;
  for (std::size_t i = 0; i < parts; ++i) {
    chunks[i] = {cuts[i], cuts[i + 1], line};
    line += stats[i].newlines;
    start[i + 1] = start[i] + stats[i].edges;
  }
  FastEdges out;
  const auto m = static_cast<std::size_t>(start[parts]);
  out.data_lines = start[parts];
  EdgeList& edges = out.edges;
  edges.src = NumaArray<std::uint64_t>(m);
  edges.dst = NumaArray<std::uint64_t>(m);
  if (weighted) edges.weights = NumaArray<weight_t>(m);
  edges.source_name = path;
  if (m == 0) return out;
  std::vector<ChunkResult> results(parts);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i)
    parse_chunk(chunks[i], weighted, edges.src.data(), edges.dst.data(), weighted ? edges.weights.data() : nullptr,
                start[i], table, results[i]);
  for (auto& r : results) {  // in line order: the first chunk's error is the first
    out.integral = out.integral && r.integral;
    if (r.error.line && !out.error.line) {
      out.error = r.error;
      out.message = std::move(r.message);
    }
    if (r.plus_rows && !out.plus_rows) out.plus = r.plus;
    out.plus_rows += r.plus_rows;
    if (table) out.odd.push_back(std::move(r.odd));
  }
  if (weighted) edges.weight_kind = out.integral ? WeightKind::kInteger : WeightKind::kReal;
  return out;
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
      const TableRows row = table_rows(b, e, 1);
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

// Whether a line the fast path refused holds a name (an id that is not an
// integer) or more columns than `three` says: then the file is read as a table.
bool needs_table(const LineRef& at, bool three) {
  const TableRows row = table_rows(at.begin, at.end, at.line);
  if (row.size() != 1) return false;
  return row.columns(0) > (three ? 3u : 2u) || !fast_id(row.at(0, 0)) ||
         (row.columns(0) > 1 && !fast_id(row.at(0, 1)));
}

// What every part reads from the file's head: a byte order mark, the shape
// of the first lines, the first two rows.
struct EdgeListHead {
  bool bom = false;
  Shape shape = Shape::kEmpty;
  TableHead table;
};

EdgeListHead read_head(const TextFile& file) {
  EdgeListHead head;
  const char* b = file.data();
  const char* end = b + file.size();
  if (file.size() >= 3 && std::memcmp(b, "\xEF\xBB\xBF", 3) == 0) {  // UTF-8 byte order mark
    head.bom = true;
    b += 3;
  }
  head.shape = head.bom ? Shape::kTable : sample_shape(b, end);
  std::int64_t line = 1;
  while (b < end && head.table.count < 2) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(b, e, "#%")) {
      const TableRows row = table_rows(b, e, line);
      head.table.add({row.fields.begin(), row.fields.end()}, line);
    }
    ++line;
    b = nl ? nl + 1 : end;
  }
  return head;
}

// How the file is read: on the integer fast path (unless a line needs a
// table), or as a table from the start.
struct EdgeListMode {
  bool fast = false;
  bool three = false;     // the fast path reads a third column as weights
  bool weighted = false;  // the fast path reads weights
};

EdgeListMode mode_of(const EdgeListHead& head, bool weighted, const ReadOptions& options) {
  const std::string& wc = options.weight_column;
  const Shape shape = head.shape;
  EdgeListMode mode;
  mode.fast = options.header != Header::kYes && (wc.empty() || wc == "none" || wc == "3") &&
              (shape == Shape::kEmpty || shape == Shape::kThreeNumbers ||
               (shape == Shape::kTwoIntegers && !weighted && wc != "3"));
  mode.three = shape == Shape::kThreeNumbers;
  mode.weighted = mode.three || (shape == Shape::kEmpty && weighted);
  return mode;
}

// Whether the combined facts keep the file on the fast path: no bad line, or
// a first bad line that is the line's own error, not a name or more columns.
bool stays_fast(const EdgeListHead& head, const EdgeListMode& mode, const FactsBody& whole) {
  return mode.fast && (!whole.edge_error || head.shape == Shape::kEmpty || !whole.edge_error_needs_table);
}

TableKind kind_of(Format format) { return {"edge list", ' ', format == Format::kWeightedEdgeList, true}; }

struct EdgeListScan : PartScan {
  std::optional<FastEdges> fast;
  std::optional<TableRows> rows;  // the part's rows, when the file is a table from its first lines
};

// The part's lines, without the byte order mark.
const char* lines_begin(const PartScope& part, const EdgeListHead& head) {
  return part.data_begin() + (part.begin == 0 && head.bom ? 3 : 0);
}

// The facts of the part's rows after row 0, summed up from what the fast path
// parsed (every row holds integers and, with `three`, a number).
UniformRows uniform_rows(const PartScope& part, const EdgeListHead& head, const FastEdges& fast, bool three) {
  UniformRows u;
  u.columns = three ? 3 : 2;
  u.integral = fast.integral;
  u.count = fast.data_lines;
  u.plus_rows = fast.plus_rows;
  if (fast.plus_rows) {
    const TableRows row = table_rows(fast.plus.begin, fast.plus.end, fast.plus.line);
    std::uint64_t id = 0;
    u.plus.offer(fast.plus.line, parse_id(row.at(0, 0), id) ? row.at(0, 1) : row.at(0, 0));
  }
  // The first data line, and whether it is row 0.
  const char* b = part.data_begin();
  const char* end = part.data_end();
  std::int64_t line = part.first_line;
  while (b < end) {
    const char* nl = static_cast<const char*>(memchr(b, '\n', static_cast<std::size_t>(end - b)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(b, e, "#%")) {
      if (head.table.count == 0 || line != head.table.line[0]) {
        u.first_line = line;
        break;
      }
      --u.count;  // row 0
    }
    ++line;
    b = nl ? nl + 1 : end;
  }
  return u;
}

}  // namespace

std::unique_ptr<PartScan> scan_edge_list_part(const PartScope& part, Format format, const ReadOptions& options) {
  const EdgeListHead head = read_head(part.file);
  const TableKind kind = kind_of(format);
  const EdgeListMode mode = mode_of(head, kind.weight_required, options);
  auto scan = std::make_unique<EdgeListScan>();
  scan->mine = new_body(format, options);
  FactsBody& mine = scan->mine;
  const char* begin = lines_begin(part, head);
  if (mode.fast) {
    // A line anywhere may make the file a table: unless the head leaves no
    // room for that, gather a table's facts of the part's rows.
    const bool gather = head.shape != Shape::kEmpty;
    const TablePlan plan = gather ? plan_table(head.table, kind, options) : TablePlan();
    const FactsBody blank = mine;
    const ChunkPlan chunk_plan{plan, blank, head.table.line[0]};
    FastEdges fast = read_integer_edges(part.path(), begin, part.data_end(), part.first_line, mode.weighted,
                                        gather && plan.uniform_ok ? &chunk_plan : nullptr);
    scan->data_lines = fast.data_lines;
    mine.edge_integral = fast.integral;
    if (fast.error.line) {
      mine.edge_error = fast.error.line;
      mine.edge_error_needs_table = gather && needs_table(fast.error, mode.three);
    }
    if (gather && plan.uniform_ok && !fast.error.line) {
      gather_uniform_rows(plan, uniform_rows(part, head, fast, mode.three), mine);
    } else if (gather && plan.uniform_ok) {  // the chunks' facts, folded in line order
      for (const OddRows& c : fast.odd) {
        combine_bodies(mine, *c.before);
        UniformRows u;
        u.columns = mode.three ? 3 : 2;
        u.integral = fast.integral;
        u.count = c.uniform_rows;
        u.first_line = c.first_uniform;
        gather_uniform_rows(plan, u, mine);
        combine_bodies(mine, *c.after);
      }
    } else if (gather) {
      gather_lines(plan, head.table, begin, part.data_end(), part.first_line, mine);
    }
    scan->fast = std::move(fast);
    return scan;
  }
  scan->rows = table_rows(begin, part.data_end(), part.first_line);
  scan->data_lines = static_cast<std::int64_t>(scan->rows->size());
  gather_rows(plan_table(head.table, kind, options), head.table, *scan->rows, mine);
  return scan;
}

void check_edge_list_file(const TextFile& file, Format format, const FactsBody& whole, std::int64_t data_lines,
                          std::int64_t total_newlines) {
  const EdgeListHead head = read_head(file);
  const TableKind kind = kind_of(format);
  const ReadOptions options = whole.options();
  const EdgeListMode mode = mode_of(head, kind.weight_required, options);
  if (stays_fast(head, mode, whole)) {
    if (data_lines > 0) return;
    const std::int64_t line = 1 + count_newlines(file, total_newlines);
    const bool final_newline = file.size() > 0 && file.data()[file.size() - 1] == '\n';
    throw InputError(file.path(), std::max<std::int64_t>(1, line - final_newline),
                     "no edges found (empty file or only comments); an edge list needs lines 'source target'");
  }
  decide_table(file.path(), head.table, kind, plan_table(head.table, kind, options), options, whole, data_lines);
}

PartEdges read_edge_list_part(const PartScope& part, Format format, PartScan& scan, const FactsBody& whole,
                              std::int64_t data_lines, const ReadOptions& options) {
  const EdgeListHead head = read_head(part.file);
  const TableKind kind = kind_of(format);
  const EdgeListMode mode = mode_of(head, kind.weight_required, options);
  auto& mine = static_cast<EdgeListScan&>(scan);
  PartEdges out;
  if (stays_fast(head, mode, whole)) {
    FastEdges& fast = *mine.fast;
    if (whole.edge_error) {
      if (fast.error.line == whole.edge_error) throw InputError(part.path(), fast.error.line, fast.message);
      out.edges.source_name = part.path();
      return out;  // another part's line
    }
    EdgeList& e = out.edges;
    e = std::move(fast.edges);
    if (mode.weighted) e.weight_kind = whole.edge_integral ? WeightKind::kInteger : WeightKind::kReal;
    record_directed(e);
    set_decision(e.decisions, "header", "false");
    set_decision(e.decisions, "ids", "integers");
    const std::string& wc = options.weight_column;
    if (mode.three && wc == "none") {
      e.weights = {};
      e.weight_kind = WeightKind::kNone;
      set_decision(e.decisions, "weight_column", "none");
    } else if (mode.three) {
      set_decision(e.decisions, "weight_column", "3",
                   kind.weight_required || wc == "3"
                       ? std::string()
                       : "column 3 holds numbers and is read as edge weights (--weight-column "
                         "none, Python weight=None, reads the graph unweighted)");
    }
    return out;
  }
  if (!mine.rows) mine.rows = table_rows(lines_begin(part, head), part.data_end(), part.first_line);
  const TablePlan plan = plan_table(head.table, kind, options);
  const TableChoice choice = decide_table(part.path(), head.table, kind, plan, options, whole, data_lines);
  return read_table_rows(part.path(), head.table, kind, choice, *mine.rows, 0, std::string());
}

}  // namespace numagraph::io
