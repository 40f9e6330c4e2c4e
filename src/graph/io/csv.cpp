// CSV and TSV edge files: "source,target[,weight]" (TSV: tab-separated), an
// optional header line, and vertex ids that are either non-negative integers
// or names (any other text). docs/formats.md states the rules; in short:
//   - fields may be double-quoted (RFC 4180: "" is a quote; a quoted field
//     may hold the separator or a newline); unquoted fields are trimmed of
//     spaces (and tabs in CSV);
//   - blank lines and lines starting with '#' are skipped;
//   - every record has 2 columns (unweighted) or 3 (weighted), as the first
//     data record has;
//   - if any id is not an integer below 2^63, every id is a name, and names
//     get ids 0, 1, ... in order of first appearance (source, then target, line
//     by line); the graph keeps the names (EdgeList::names);
//   - header auto-detection: with integer ids, a first line whose source or
//     target is not an integer is a header; with names, the first line is a
//     header only when both its fields are common column names (source,
//     target, src, dst, from, to, ...).
// The parse is one serial pass (names must be numbered in file order);
// docs/formats.md gives its speed.
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "edge_lines.hpp"
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

// A non-negative integer below 2^63, the whole token.
bool parse_id(std::string_view t, std::uint64_t& v) {
  if (t.empty() || t.size() > 19) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size() && v < (std::uint64_t{1} << 63);
}

bool is_column_name(std::string_view t) {
  // Only words that are unlikely vertex names: a names file whose first edge
  // is "a,b" must not lose it.
  static const char* const kNames[] = {"source", "target", "src", "dst", "dest", "destination", "from", "to",
                                       "u", "v", "node1", "node2", "node_1", "node_2", "id1", "id2", "head",
                                       "tail", "from_id", "to_id", "source_id", "target_id", "src_id", "dst_id",
                                       "vertex1", "vertex2", "fromnodeid", "tonodeid", "origin", "sender",
                                       "receiver"};
  std::string lower(t);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* n : kNames)
    if (lower == n) return true;
  return false;
}

std::string shown(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40) s += "...";
  return "'" + s + "'";
}

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

EdgeList read_csv(const std::string& path, char sep, Header header) {
  TextFile file(path);
  const char* begin = file.data();
  const char* end = begin + file.size();
  if (file.size() >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 byte order mark
  const char* const kind = sep == ',' ? "CSV" : "TSV";
  // Every record, as views into the file (or the tokenizer's store).
  std::vector<std::string_view> a, b, w;
  std::vector<std::int64_t> line;
  std::vector<std::uint8_t> cols;
  Tokenizer tok(begin, end, sep);
  Record r;
  try {
    while (tok.next(r)) {
      const std::size_t c = r.fields.size();
      if (c > 3)
        throw InputError(path, r.line,
                         std::to_string(c) + " columns; numagraph reads source, target and an optional weight, the "
                         "first 3 columns: keep those with `" + std::string(sep == ',' ? "cut -d, -f1,2,3" : "cut -f1,2,3") +
                         " FILE` (or -f1,2 without weights)");
      if (c < 2)
        throw InputError(path, r.line,
                         std::string("one column; a ") + kind + " edge line is source" +
                             (sep == ',' ? "," : "<tab>") + "target, with an optional weight column" +
                             (sep == ',' ? "" : " (TSV columns are separated by tabs)"));
      a.push_back(r.fields[0]);
      b.push_back(r.fields[1]);
      w.push_back(c == 3 ? r.fields[2] : std::string_view{});
      line.push_back(r.line);
      cols.push_back(static_cast<std::uint8_t>(c));
    }
  } catch (const LineError& e) {
    throw InputError(path, tok.line(), e.message);
  }
  if (a.empty())
    throw InputError(path, 1, std::string("no edges: the file is empty (or only blank and '#' lines); a ") + kind +
                                  " edge line is source" + (sep == ',' ? "," : "<tab>") + "target[" +
                                  (sep == ',' ? "," : "<tab>") + "weight]");
  std::uint64_t id;
  auto numeric = [&](std::size_t i) { return parse_id(a[i], id) && parse_id(b[i], id); };
  bool rest_numeric = true;
  for (std::size_t i = 1; i < a.size() && rest_numeric; ++i) rest_numeric = numeric(i);
  const bool first_numeric = numeric(0);
  bool has_header = header == Header::kYes;
  if (header == Header::kAuto) {
    if (first_numeric) has_header = false;
    else if (rest_numeric && a.size() > 1) has_header = true;  // integer ids below a line of text
    else has_header = is_column_name(a[0]) && is_column_name(b[0]);
  }
  EdgeList e;
  e.source_name = path;
  e.header = has_header;
  e.header_detected = header == Header::kAuto;
  const std::size_t first = has_header ? 1 : 0;
  const std::size_t m = a.size() - first;
  if (m == 0)
    throw InputError(path, line[0],
                     "only a header line, no edges (if this line is an edge, read the file with --no-header, "
                     "Python header=False)");
  const std::uint8_t columns = cols[first];
  const bool weighted = columns == 3;
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  if (weighted) e.weights = NumaArray<weight_t>(m);
  bool integral = true;
  for (std::size_t i = first; i < a.size(); ++i) {
    if (cols[i] != columns)
      throw InputError(path, line[i],
                       std::to_string(cols[i]) + " columns where the first edge line (line " +
                           std::to_string(line[first]) + ") has " + std::to_string(columns) +
                           ": every edge line needs the same columns (source, target" +
                           (weighted ? ", weight)" : ")"));
    if (a[i].empty() || b[i].empty())
      throw InputError(path, line[i], std::string("empty ") + (a[i].empty() ? "source" : "target") + " field");
    if (weighted) {
      double x = 0;
      const std::string_view t = w[i];
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
      if (t.empty() || ec != std::errc() || p != t.data() + t.size())
        throw InputError(path, line[i], "expected a weight (a number) in the third column, found " + shown(t));
      try {
        check_weight(x, false, true);
      } catch (const LineError& err) {
        throw InputError(path, line[i], err.message);
      }
      if (x != std::floor(x) || std::fabs(x) > static_cast<double>(kMaxExactIntegerWeight)) integral = false;
      e.weights[i - first] = static_cast<weight_t>(x);
    }
  }
  if (weighted) e.weight_kind = integral ? WeightKind::kInteger : WeightKind::kReal;
  const bool named = !(rest_numeric && (first_numeric || has_header));
  if (!named) {
    for (std::size_t i = first; i < a.size(); ++i) {
      parse_id(a[i], e.src[i - first]);
      parse_id(b[i], e.dst[i - first]);
    }
    return e;
  }
  // Names: numbered in order of first appearance, source then target.
  auto names = std::make_shared<std::vector<std::string>>();
  std::unordered_map<std::string_view, std::uint64_t> index;
  index.reserve(2 * m);
  auto number = [&](std::string_view t) {
    auto [it, fresh] = index.try_emplace(t, names->size());
    if (fresh) names->emplace_back(t);
    return it->second;
  };
  for (std::size_t i = first; i < a.size(); ++i) {
    e.src[i - first] = number(a[i]);
    e.dst[i - first] = number(b[i]);
  }
  e.num_vertices = names->size();
  e.names = std::move(names);
  return e;
}

}  // namespace numagraph::io
