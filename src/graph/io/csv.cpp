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
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "edge_lines.hpp"
#include "edge_table.hpp"
#include "part_readers.hpp"
#include "readers.hpp"
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
};

}  // namespace

std::unique_ptr<PartScan> scan_csv_part(const PartScope& part, Format format, const ReadOptions& options) {
  const TableKind kind = kind_of(format);
  const TableHead head = read_head(part.file, kind.sep);
  auto scan = std::make_unique<CsvScan>();
  scan->mine = new_body(format, options);
  const char* begin = part.data_begin() + (part.begin == 0 ? bom_size(part.file) : 0);
  Tokenizer tok(begin, part.data_end(), kind.sep, part.first_line);
  Record r;
  try {
    while (tok.next(r)) {
      scan->rows.fields.insert(scan->rows.fields.end(), r.fields.begin(), r.fields.end());
      scan->rows.end_row(r.line);
    }
  } catch (const LineError& e) {
    scan->tokenizer_error = tok.line();
    scan->tokenizer_message = e.message;
    if (tok.open_quote() && part.end < part.file.size())
      scan->tokenizer_message =
          "the quoted field opened here holds line breaks that run into the next part of the file, which "
          "is read apart: read the file whole (numagraph, not numagraph-mpi), or remove the line breaks "
          "inside quoted fields";
    scan->mine.tokenizer_error = tok.line();
  }
  tok.move_store(scan->store);
  scan->data_lines = static_cast<std::int64_t>(scan->rows.size());
  gather_rows(plan_table(head, kind, options), head, scan->rows, scan->mine);
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
  return read_table_rows(part.path(), head, kind, choice, mine.rows, mine.tokenizer_error, mine.tokenizer_message);
}

}  // namespace numagraph::io
