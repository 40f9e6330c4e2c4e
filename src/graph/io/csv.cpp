// CSV and TSV edge files: "source,target[,weight]" (TSV: tab-separated), an
// optional header line, and vertex ids that are either non-negative integers
// or names (any other text). This file tokenizes (RFC 4180):
//   - fields may be double-quoted ("" is a quote; a quoted field may hold the
//     separator or a newline); unquoted fields are trimmed of spaces (and tabs
//     in CSV);
//   - blank lines and lines starting with '#' are skipped.
// edge_table.cpp decides the rest (header, index and weight columns, names)
// and records each decision; docs/formats.md states the rules. Read in parts
// (part_readers.hpp), each part tokenizes its own lines; a quoted field whose
// line breaks run past a part's end cannot be split, and is refused there.
// Files of integer ids take a parallel fast path (csv_fast.hpp) when the
// facts of their rows can be summed up without keeping the rows; any line it
// does not read sends the part back to the tokenizer.
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "csv_fast.hpp"
#include "edge_lines.hpp"
#include "edge_table.hpp"
#include "part_readers.hpp"
#include "readers.hpp"
#include "table_text.hpp"
#include "text_input.hpp"

namespace numagraph::io {

namespace {

// One record's fields; quoted fields with "" escapes are unescaped into `store`.
struct Record {
  std::vector<std::string_view> fields;
  std::int64_t line = 0;  // where the record starts
};

class Tokenizer {
 public:
  Tokenizer(const char* b, const char* e, char sep, std::int64_t first_line = 1)
      : p_(b), end_(e), sep_(sep), line_(first_line) {}

  // Reads the next data record (skipping blank and '#' lines); false at the end.
  bool next(Record& r) {
    for (;;) {
      if (p_ >= end_) return false;
      const char* q = p_;
      while (q < end_ && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
      if (q == end_ || *q == '\n' || *q == '#') {  // blank or comment line
        const char* nl = static_cast<const char*>(memchr(q, '\n', static_cast<std::size_t>(end_ - q)));
        p_ = nl ? nl + 1 : end_;
        ++line_;
        continue;
      }
      break;
    }
    r.fields.clear();
    r.line = line_;
    for (;;) {
      r.fields.push_back(field());
      if (p_ >= end_) return true;
      if (*p_ == sep_) {
        ++p_;
        continue;
      }
      // *p_ == '\n' (field() stops only at the separator, a newline or the end)
      ++p_;
      ++line_;
      return true;
    }
  }

 private:
  bool blank(char c) const { return c == ' ' || c == '\r' || (c == '\t' && sep_ != '\t'); }

  std::string_view field() {
    const char* b = p_;
    while (b < end_ && blank(*b)) ++b;
    if (b < end_ && *b == '"') return quoted(b);
    const char* e = b;
    while (e < end_ && *e != sep_ && *e != '\n') {
      if (*e == '"')
        throw LineError{"a quote inside an unquoted field: quote the whole field (\"a \"\"b\"\" c\") or remove the quote"};
      ++e;
    }
    p_ = e;
    while (e > b && blank(e[-1])) --e;
    return {b, static_cast<std::size_t>(e - b)};
  }

  std::string_view quoted(const char* open) {
    const std::int64_t start_line = line_;
    const char* q = open + 1;
    std::string* copy = nullptr;  // made only when the field holds "" escapes
    const char* run = q;
    for (;;) {
      if (q >= end_) {
        line_ = start_line;
        open_quote_ = true;
        throw LineError{"the quoted field opened here has no closing quote"};
      }
      if (*q == '\n') ++line_;
      if (*q != '"') {
        ++q;
        continue;
      }
      if (q + 1 < end_ && q[1] == '"') {  // "" stands for one quote
        if (!copy) copy = &store_.emplace_back();
        copy->append(run, q + 1);
        q += 2;
        run = q;
        continue;
      }
      break;
    }
    std::string_view value;
    if (copy) {
      copy->append(run, q);
      value = *copy;
    } else {
      value = {open + 1, static_cast<std::size_t>(q - open - 1)};
    }
    p_ = q + 1;
    while (p_ < end_ && blank(*p_)) ++p_;
    if (p_ < end_ && *p_ != sep_ && *p_ != '\n')
      throw LineError{"text after the closing quote of a field: put the whole field inside the quotes"};
    return value;
  }

 public:
  std::int64_t line() const { return line_; }
  // Where the next record starts.
  const char* position() const { return p_; }
  // Whether the last error is a quoted field that runs past the end.
  bool open_quote() const { return open_quote_; }
  // Hands over the unescaped fields (records point into them).
  void move_store(std::deque<std::string>& to) { to = std::move(store_); }

 private:
  const char* p_;
  const char* end_;
  char sep_;
  std::int64_t line_ = 1;
  bool open_quote_ = false;
  std::deque<std::string> store_;  // stable addresses for unescaped fields
};

}  // namespace

std::string csv_field_text(std::string_view name, char sep) {
  bool quote = name.empty() || name.front() == ' ' || name.back() == ' ' || name.front() == '#' ||
               name.front() == '\t' || name.back() == '\t';
  for (char c : name) quote = quote || c == sep || c == '"' || c == '\n' || c == '\r' || c == ',' || c == '\t';
  if (!quote) return std::string(name);
  std::string s = "\"";
  for (char c : name) {
    if (c == '"') s += '"';
    s += c;
  }
  return s + '"';
}

namespace {

TableKind kind_of(Format format) {
  return format == Format::kCsv ? TableKind{"CSV", ',', false, false} : TableKind{"TSV", '\t', false, false};
}

// The byte order mark's length at the file's start (UTF-8: 3), or 0.
std::size_t bom_size(const TextFile& file) {
  return file.size() >= 3 && std::memcmp(file.data(), "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

// The file's first two rows, which every part reads from the file's head.
TableHead read_head(const TextFile& file, char sep) {
  TableHead head;
  Tokenizer tok(file.data() + bom_size(file), file.data() + file.size(), sep);
  Record r;
  try {
    while (head.count < 2 && tok.next(r)) head.add(r.fields, r.line);
  } catch (const LineError& e) {
    throw InputError(file.path(), tok.line(), e.message);
  }
  return head;
}

struct CsvScan : PartScan {
  TableRows rows;
  std::deque<std::string> store;  // unescaped quoted fields the rows point into
  std::int64_t tokenizer_error = 0;
  std::string tokenizer_message;
  bool tokenized = false;            // `rows` holds the part's rows
  std::optional<CsvFastRows> fast;   // else what the fast path parsed
  bool holds_row0 = false;           // the part holds the file's row 0 (then fast rows follow it)
};

// The part's rows through the tokenizer (the part's first tokenizer error
// ends them, and is recorded).
void tokenize_part(const PartScope& part, const TableKind& kind, CsvScan& scan) {
  const char* begin = part.data_begin() + (part.begin == 0 ? bom_size(part.file) : 0);
  Tokenizer tok(begin, part.data_end(), kind.sep, part.first_line);
  Record r;
  try {
    while (tok.next(r)) {
      scan.rows.fields.insert(scan.rows.fields.end(), r.fields.begin(), r.fields.end());
      scan.rows.end_row(r.line);
    }
  } catch (const LineError& e) {
    scan.tokenizer_error = tok.line();
    scan.tokenizer_message = e.message;
    if (tok.open_quote() && part.end < part.file.size())
      scan.tokenizer_message =
          "the quoted field opened here holds line breaks that run into the next part of the file, which "
          "is read apart: read the file whole (numagraph, not numagraph-mpi), or remove the line breaks "
          "inside quoted fields";
    scan.mine.tokenizer_error = tok.line();
  }
  tok.move_store(scan.store);
  scan.tokenized = true;
}

// Whether the facts of the rows after row 0 are those gather_uniform_rows
// sums up from rows of integer ids: the plan gathers nothing but the ids and
// column 3's numbers (no row index, no header to judge by names).
bool summable(const TablePlan& plan) {
  return !plan.index_possible && !plan.judge && !plan.dicts_possible && plan.candidates[0] == 2 &&
         plan.candidates[1] < 0;
}

// The fast path over the part (csv_fast.hpp); false when it does not apply,
// and the tokenizer reads the part.
bool scan_fast(const PartScope& part, const TableKind& kind, const TableHead& head, const TablePlan& plan,
               const ReadOptions& options, CsvScan& scan) {
  if (!summable(plan)) return false;
  const char* begin = part.data_begin() + (part.begin == 0 ? bom_size(part.file) : 0);
  std::int64_t line = part.first_line;
  bool row0_slot = false;
  if (head.line[0] >= part.first_line) {  // row 0 is in this part, or (rare) a later one
    if (part.begin != 0) return false;
    Tokenizer tok(begin, part.data_end(), kind.sep, line);
    Record r;
    try {
      if (!tok.next(r) || r.line != head.line[0]) return false;
    } catch (const LineError&) {
      return false;
    }
    begin = tok.position();
    line = tok.line();
    scan.holds_row0 = true;
    // Row 0 of integers is an edge unless --header says otherwise; else it
    // is a header (or the ids are names, which the tokenizer reads).
    std::uint64_t id = 0;
    row0_slot = parse_id(head.fields[0][0], id) && head.fields[0].size() > 1 && parse_id(head.fields[0][1], id) &&
                options.header != Header::kYes;
  }
  scan.fast = read_csv_integer_rows(begin, part.data_end(), line, kind.sep, row0_slot);
  if (!scan.fast) {
    scan.holds_row0 = false;
    return false;
  }
  const CsvFastRows& fast = *scan.fast;
  scan.data_lines = fast.rows + (scan.holds_row0 ? 1 : 0);
  UniformRows uniform;
  uniform.count = fast.rows;
  uniform.first_line = fast.first_line;
  uniform.columns = fast.columns;
  uniform.integral = fast.integral;
  gather_uniform_rows(plan, uniform, scan.mine);
  return true;
}

// Whether the decisions let the fast path's edges stand: integer ids, no
// index, weights (if any) from column 3, row 0 an edge exactly when it was
// given a slot. Otherwise (errors, names) the tokenizer reads the part again.
bool fast_fits(const CsvScan& scan, const TableChoice& choice) {
  if (!scan.fast || choice.error != TableError::kNone || !choice.integers || choice.index || choice.s != 0 ||
      choice.dicts || choice.dict_weights)
    return false;
  if (choice.wc >= 0 && !(choice.wc == 2 && scan.fast->columns == 3)) return false;
  return !scan.holds_row0 || choice.header == !scan.fast->row0_slot;
}

PartEdges fast_edges(const std::string& path, const TableHead& head, const TableChoice& choice, CsvScan& scan) {
  CsvFastRows& fast = *scan.fast;
  PartEdges out;
  EdgeList& e = out.edges;
  e = std::move(fast.edges);
  e.source_name = path;
  e.decisions = choice.decisions;
  e.header = choice.header;
  e.header_detected = choice.header_detected;
  e.weight_kind = choice.weight_kind;
  if (choice.wc < 0) e.weights = {};
  if (fast.row0_slot) {  // row 0 is this part's first edge
    const std::vector<std::string>& row0 = head.fields[0];
    parse_id(row0[0], e.src[0]);
    parse_id(row0[1], e.dst[0]);
    double x = 0;
    if (choice.wc == 2 && row0.size() > 2 && parse_number(row0[2], x)) e.weights[0] = static_cast<weight_t>(x);
  }
  scan.fast.reset();
  return out;
}

}  // namespace

std::unique_ptr<PartScan> scan_csv_part(const PartScope& part, Format format, const ReadOptions& options) {
  const TableKind kind = kind_of(format);
  const TableHead head = read_head(part.file, kind.sep);
  auto scan = std::make_unique<CsvScan>();
  scan->mine = new_body(format, options);
  const TablePlan plan = plan_table(head, kind, options);
  if (scan_fast(part, kind, head, plan, options, *scan)) return scan;
  tokenize_part(part, kind, *scan);
  scan->data_lines = static_cast<std::int64_t>(scan->rows.size());
  gather_rows(plan, head, scan->rows, scan->mine);
  return scan;
}

void check_csv_file(const TextFile& file, Format format, const FactsBody& whole, std::int64_t data_lines) {
  const TableKind kind = kind_of(format);
  const TableHead head = read_head(file, kind.sep);
  const ReadOptions options = whole.options();
  decide_table(file.path(), head, kind, plan_table(head, kind, options), options, whole, data_lines);
}

PartEdges read_csv_part(const PartScope& part, Format format, PartScan& scan, const FactsBody& whole,
                        std::int64_t data_lines, const ReadOptions& options) {
  const TableKind kind = kind_of(format);
  const TableHead head = read_head(part.file, kind.sep);
  auto& mine = static_cast<CsvScan&>(scan);
  const TableChoice choice =
      decide_table(part.path(), head, kind, plan_table(head, kind, options), options, whole, data_lines);
  if (fast_fits(mine, choice)) return fast_edges(part.path(), head, choice, mine);
  if (!mine.tokenized) {
    mine.fast.reset();  // its arrays go before the rows come
    tokenize_part(part, kind, mine);
  }
  return read_table_rows(part.path(), head, kind, choice, mine.rows, mine.tokenizer_error, mine.tokenizer_message);
}

}  // namespace numagraph::io
