// CSV and TSV edge files: "source,target[,weight]" (TSV: tab-separated), an
// optional header line, and vertex ids that are either non-negative integers
// or names (any other text). This file tokenizes (RFC 4180):
//   - fields may be double-quoted ("" is a quote; a quoted field may hold the
//     separator or a newline); unquoted fields are trimmed of spaces (and tabs
//     in CSV);
//   - blank lines and lines starting with '#' are skipped.
// edge_table.cpp decides the rest (header, index and weight columns, names)
// and records each decision; docs/formats.md states the rules.
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
  Tokenizer(const char* b, const char* e, char sep) : p_(b), end_(e), sep_(sep) {}

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

 private:
  const char* p_;
  const char* end_;
  char sep_;
  std::int64_t line_ = 1;
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

EdgeList read_csv(const std::string& path, char sep, const ReadOptions& options) {
  TextFile file(path);
  const char* begin = file.data();
  const char* end = begin + file.size();
  if (file.size() >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 byte order mark
  TableRows rows;
  Tokenizer tok(begin, end, sep);
  Record r;
  try {
    while (tok.next(r)) {
      rows.fields.insert(rows.fields.end(), r.fields.begin(), r.fields.end());
      rows.end_row(r.line);
    }
  } catch (const LineError& e) {
    throw InputError(path, tok.line(), e.message);
  }
  const TableKind kind{sep == ',' ? "CSV" : "TSV", sep, false, false};
  return edges_from_table(path, rows, kind, options);
}

}  // namespace numagraph::io
