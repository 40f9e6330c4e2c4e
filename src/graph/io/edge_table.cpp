// How a text edge table is decided: header, index column, weight column,
// extra columns, integer ids or names (edge_table.hpp): the plan from the
// file's first rows, the facts of the other rows, the decisions from both.
// edge_table_read.cpp reads the rows with the decisions.
#include "edge_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "edge_lines.hpp"
#include "numagraph/util/error.hpp"
#include "table_text.hpp"

namespace numagraph::io {

bool parse_id(std::string_view t, std::uint64_t& v) {
  if (t.empty() || t.size() > 19) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size() && v < (std::uint64_t{1} << 63);
}

void record_directed(InputDecisions& d) {
  set_decision(d, "directed", "true",
               "edges are read as directed arcs source -> target, as the file does not say "
               "(-s/--symmetrize, Python directed=False, reads them as undirected edges)");
}

void record_directed(EdgeList& e) { record_directed(e.decisions); }

bool parse_python_dict(std::string_view t, const std::string& key, std::string_view& value,
                       std::vector<std::string_view>& keys) {
  keys.clear();
  if (t.size() < 2 || t.front() != '{' || t.back() != '}') return false;
  std::size_t p = 1;
  const std::size_t end = t.size() - 1;
  bool found = false;
  auto skip = [&] {
    while (p < end && (t[p] == ' ' || t[p] == '\t')) ++p;
  };
  for (;;) {
    skip();
    if (p >= end) return true;
    const char q = t[p];
    if (q != '\'' && q != '"') return false;
    const std::size_t close = t.find(q, p + 1);
    if (close == std::string_view::npos || close >= end) return false;
    const std::string_view k = t.substr(p + 1, close - p - 1);
    keys.push_back(k);
    p = close + 1;
    skip();
    if (p >= end || t[p] != ':') return false;
    ++p;
    skip();
    // The value: a quoted string, or text up to the next comma.
    std::size_t vb = p, ve;
    if (p < end && (t[p] == '\'' || t[p] == '"')) {
      const std::size_t c = t.find(t[p], p + 1);
      if (c == std::string_view::npos || c >= end) return false;
      ve = c + 1;
      p = c + 1;
    } else {
      while (p < end && t[p] != ',') ++p;
      ve = p;
      while (ve > vb && t[ve - 1] == ' ') --ve;
    }
    if (k == key && !found) {
      value = t.substr(vb, ve - vb);
      found = true;
    }
    skip();
    if (p < end && t[p] == ',') ++p;
  }
}

namespace {

// Words a header uses for the source and target columns. Only words unlikely
// as vertex names: a names file whose first edge is "a,b" must not lose it.
bool is_column_name(std::string_view t) {
  static const char* const kNames[] = {
      "source", "target", "src", "dst", "dest", "destination", "from", "to", "u", "v", "node1", "node2",
      "node_1", "node_2", "id1", "id2", "head", "tail", "from_id", "to_id", "source_id", "target_id",
      "src_id", "dst_id", "vertex1", "vertex2", "fromnodeid", "tonodeid", "origin", "sender", "receiver",
      "source_node", "target_node", "from_node", "to_node", "node_from", "node_to", "start_node", "end_node"};
  const std::string l = lower(t);
  for (const char* n : kNames)
    if (l == n) return true;
  return false;
}

bool is_identifier(std::string_view t) {
  if (t.empty() || !((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z'))) return false;
  for (char c : t)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// A pair of column names for the two ends of an edge: both listed above, or
// one word with two endings (node1/node2, user_a/user_b, person_1/person_2).
bool is_column_name_pair(std::string_view a, std::string_view b) {
  if (is_column_name(a) && is_column_name(b)) return true;
  if (!is_identifier(a) || !is_identifier(b) || a.size() != b.size() || a.size() < 3) return false;
  const std::string x = lower(a), y = lower(b);
  const std::size_t k = x.size() - 1;
  const bool pair_end = (x[k] == '1' && y[k] == '2') || (x[k] == 'a' && y[k] == 'b') || (x[k] == '0' && y[k] == '1');
  return x.compare(0, k, y, 0, k) == 0 && pair_end && (x[k - 1] == '_' || x[k] <= '9');
}

bool has_suffix(const std::string& s, const char* tail) {
  const std::string t(tail);
  return s.size() > t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}
bool has_prefix(const std::string& s, const char* head) {
  const std::string h(head);
  return s.size() > h.size() && s.compare(0, h.size(), h) == 0;
}

// A header name that says the column holds weights.
bool weight_like(std::string_view name) {
  static const char* const kWords[] = {"weight", "weights", "w", "wt", "cost", "costs", "distance", "dist",
                                       "length", "len", "capacity", "cap", "value", "val", "strength",
                                       "similarity", "sim", "flow", "amount"};
  const std::string l = lower(name);
  for (const char* n : kWords)
    if (l == n) return true;
  return has_suffix(l, "_weight") || has_prefix(l, "weight_") || has_suffix(l, "_cost") ||
         has_suffix(l, "_distance") || has_suffix(l, "_length");
}

// What a name that is not a weight says the column is, or null.
const char* not_weight_kind(std::string_view name) {
  static const char* const kTimes[] = {"since", "year", "years", "date", "datetime", "time", "timestamp", "ts",
                                       "epoch", "unix_time", "created", "updated", "modified", "day", "month",
                                       "week", "hour", "start", "end", "begin", "until"};
  static const char* const kIds[] = {"id", "index", "idx", "key", "uid", "edge_id", "eid"};
  static const char* const kLabels[] = {"label", "type", "kind", "category", "class", "name"};
  const std::string l = lower(name);
  for (const char* n : kTimes)
    if (l == n) return "a date or a time";
  for (const char* n : kIds)
    if (l == n) return "an id";
  for (const char* n : kLabels)
    if (l == n) return "a label";
  if (has_suffix(l, "_at") || has_suffix(l, "_date") || has_suffix(l, "_time") || has_suffix(l, "_ts") ||
      has_suffix(l, "_year") || has_suffix(l, "_on"))
    return "a date or a time";
  if (has_suffix(l, "_id") || has_prefix(l, "id_")) return "an id";
  return nullptr;
}

// "3" or "3 ('since')": a column as a message names it.
struct Columns {
  const TableRows& rows;
  bool header;
  std::string id(std::size_t c) const {  // the header name, or the 1-based number
    if (header && !rows.at(0, c).empty()) return std::string(rows.at(0, c));
    return std::to_string(c + 1);
  }
  std::string named(std::size_t c) const {
    std::string s = "column " + std::to_string(c + 1);
    if (header && !rows.at(0, c).empty()) s += " (" + shown(rows.at(0, c)) + ")";
    return s;
  }
  std::string name(std::size_t c) const { return header ? std::string(rows.at(0, c)) : std::string(); }
};

// Python's spelling of a weight column choice, for notes.
std::string python_column(const std::string& id) {
  return all_digits(id) ? id : "\"" + id + "\"";
}

}  // namespace

std::pair<bool, std::string> weight_column_name_verdict(std::string_view name) {
  if (weight_like(name)) return {true, "its name says weights"};
  if (const char* kind = not_weight_kind(name)) return {false, std::string("its name says ") + kind};
  return {true, "a column of numbers"};
}


TableShape::TableShape(const TableKind& kind)
    : sep_text(kind.sep == ',' ? "," : kind.sep == '\t' ? "<tab>" : " "),
      shape(kind.sep == ' ' ? "source target [weight]" : "source" + sep_text + "target[" + sep_text + "weight]"),
      a_line(kind.sep == ' ' ? std::string("an edge-list line") : std::string("a ") + kind.name + " edge line") {}

TableRows TableHead::rows() const {
  TableRows r;
  for (std::size_t i = 0; i < count; ++i) {
    r.fields.insert(r.fields.end(), fields[i].begin(), fields[i].end());
    r.end_row(line[i]);
  }
  return r;
}

int TablePlan::candidate(std::size_t column) const {
  for (int k = 0; k < kWeightCandidates; ++k)
    if (candidates[k] >= 0 && static_cast<std::size_t>(candidates[k]) == column) return k;
  return -1;
}

TablePlan plan_table(const TableHead& head, const TableKind& kind, const ReadOptions& options) {
  TablePlan plan;
  std::fill(std::begin(plan.candidates), std::end(plan.candidates), -1);
  const TableRows h = head.rows();
  if (head.count == 0) return plan;
  const Header asked = options.header;
  for (std::size_t i = 0; i < head.count; ++i) plan.columns[i] = h.columns(i);
  plan.index_possible = asked != Header::kNo && h.columns(0) >= 3 && h.at(0, 0).empty();
  plan.a0 = std::string(h.at(0, 0));
  plan.b0 = std::string(h.at(0, 1));
  std::uint64_t id = 0;
  const bool first_integers = parse_id(plan.a0, id) && parse_id(plan.b0, id);
  plan.judge = asked == Header::kAuto && !first_integers && !(all_digits(plan.a0) && all_digits(plan.b0)) &&
               !is_column_name_pair(plan.a0, plan.b0);
  for (std::size_t i = 0; i < head.count; ++i)
    plan.dicts_possible = plan.dicts_possible || (kind.python_dicts && !h.at(i, 2).empty() && h.at(i, 2).front() == '{');
  const std::string& wanted = options.weight_column;
  plan.dict_key = wanted == "none" || wanted.empty() ? "weight" : wanted;

  // Weight columns decide_table may choose: the third after the ends, the
  // asked one (by number or by header name), the first weight-like name.
  int used = 0;
  auto add = [&](std::size_t c) {
    if (plan.candidate(c) < 0 && used < kWeightCandidates) plan.candidates[used++] = static_cast<int>(c);
  };
  const std::size_t sides = plan.index_possible ? 2 : 1;
  for (std::size_t s = 0; s < sides; ++s) add(s + 2);
  std::uint64_t k = 0;
  if (wanted != "none" && !wanted.empty()) {
    if (parse_id(wanted, k) && k >= 1 && k <= (std::uint64_t{1} << 20)) add(static_cast<std::size_t>(k - 1));
    for (std::size_t c = 0; c < h.columns(0); ++c)
      if (h.at(0, c) == wanted) {
        add(c);
        break;
      }
    for (std::size_t c = 0; c < h.columns(0); ++c)
      if (lower(h.at(0, c)) == lower(wanted)) {
        add(c);
        break;
      }
  }
  for (std::size_t s = 0; s < sides; ++s)
    for (std::size_t c = s + 2; c < h.columns(0); ++c)
      if (weight_like(h.at(0, c))) {
        add(c);
        break;
      }
  plan.uniform_ok = first_integers && !plan.index_possible && !plan.judge && !plan.dicts_possible && used == 1 &&
                    plan.candidates[0] == 2;
  return plan;
}

namespace {

// A name's hash for HeaderFacts (FNV-1a, mixed: the same in every process).
std::uint64_t name_hash(std::string_view t) {
  std::uint64_t x = 1469598103934665603ULL;
  for (char c : t) x = (x ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ULL;
  return x ^ (x >> 29);
}

}  // namespace

void TableGatherer::row(const TableRows& rows, std::size_t i) {
  const std::int64_t line = rows.line[i];
  const std::size_t c = rows.columns(i);
  std::uint64_t id = 0;
  const std::size_t sides = plan_.index_possible ? 2 : 1;
  for (std::size_t s = 0; s < sides; ++s) {
    IdFacts& f = facts_.ids[s];
    const std::string_view x = rows.at(i, s), y = rows.at(i, s + 1);
    for (std::size_t j = 0; j < 2; ++j)
      if (c < s + 2 || c != plan_.columns[j] || x.empty() || y.empty()) first_line(f.column_error[j], line);
    const bool ints = parse_id(x, id) && parse_id(y, id);
    f.all_integer = f.all_integer && ints;
    f.any_integer = f.any_integer || ints;
    if (!ints) {
      const bool big = (all_digits(x) || all_digits(y)) && (all_digits(x) || parse_id(x, id)) &&
                       (all_digits(y) || parse_id(y, id));
      if (big) first_line(f.big_line, line);
      else f.text.offer(line, parse_id(x, id) ? y : x);
    }
  }
  if (plan_.index_possible) {
    IndexFacts& f = facts_.index;
    std::uint64_t v = 0;
    if (!parse_id(rows.at(i, 0), v)) {
      f.counting = 0;
    } else if (!f.rows) {
      f.rows = 1;
      f.first = f.last = v;
    } else {
      f.counting = f.counting && v == f.last + 1;
      f.last = v;
    }
  }
  if (plan_.judge) {
    HeaderFacts& f = facts_.header_facts;
    const std::string_view x = rows.at(i, 0), y = rows.at(i, 1);
    f.elsewhere = f.elsewhere || x == plan_.a0 || x == plan_.b0 || y == plan_.a0 || y == plan_.b0;
    if (line <= kRepeatSampleLines) {
      for (std::string_view t : {x, y}) {
        if (!seen_.insert(t).second) {
          f.repeat = 1;
          continue;
        }
        const std::uint64_t h = name_hash(t);
        const std::size_t bit = static_cast<std::size_t>(h % (kSeenWords * 64));
        f.seen[bit / 64] |= std::uint64_t{1} << (bit % 64);
        if (hashes_.size() <= kNameHashes) hashes_.push_back(h);
      }
    }
  }
  for (int k = 0; k < kWeightCandidates; ++k) {
    if (plan_.candidates[k] < 0) continue;
    NumberFacts& f = facts_.numbers[k];
    const std::string_view t = rows.at(i, static_cast<std::size_t>(plan_.candidates[k]));
    double x = 0;
    if (!parse_number(t, x)) {
      f.not_number.offer(line, t);
      continue;
    }
    try {
      check_weight(x, false, true);
      f.integral = f.integral && integral_weight(x);
    } catch (const LineError&) {
      first_line(f.bad_weight, line);
    }
  }
  if (plan_.dicts_possible) {
    DictFacts& f = facts_.dicts;
    std::string_view value;
    std::vector<std::string_view> keys;
    if (!parse_python_dict(rows.at(i, 2), plan_.dict_key, value, keys)) {
      first_line(f.bad, line);
      return;
    }
    for (auto k : keys)
      if (k != plan_.dict_key) f.add_key(k);
    if (value.empty()) {
      ++f.without;
      return;
    }
    ++f.with;
    double x = 0;
    bool ok = parse_number(value, x);
    if (ok) {
      try {
        check_weight(x, false, true);
      } catch (const LineError&) {
        ok = false;
      }
    }
    if (!ok) first_line(f.bad_weight, line);
    else f.integral = f.integral && integral_weight(x);
  }
}

void TableGatherer::finish() {
  HeaderFacts& f = facts_.header_facts;
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  if (hashes_.size() > kNameHashes) {
    f.hashes_complete = 0;
    return;
  }
  std::copy(hashes_.begin(), hashes_.end(), f.hashes);
  f.hash_count = static_cast<std::uint16_t>(hashes_.size());
}

void gather_rows(const TablePlan& plan, const TableHead& head, const TableRows& rows, FactsBody& facts) {
  TableGatherer g(plan, facts);
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (head.count == 0 || rows.line[i] != head.line[0]) g.row(rows, i);
  g.finish();
}

void gather_uniform_rows(const TablePlan& plan, const UniformRows& rows, FactsBody& facts) {
  if (rows.count == 0) return;
  IdFacts& f = facts.ids[0];
  for (std::size_t j = 0; j < 2; ++j)
    if (rows.columns != plan.columns[j]) first_line(f.column_error[j], rows.first_line);
  f.all_integer = f.all_integer && rows.plus_rows == 0;
  f.any_integer = f.any_integer || rows.count > rows.plus_rows;
  if (rows.plus.line) f.text.offer(rows.plus.line, rows.plus.text.view());
  NumberFacts& w = facts.numbers[plan.candidate(2)];
  if (rows.columns < 3) {
    w.not_number.offer(rows.first_line, {});
  } else {
    w.integral = w.integral && rows.integral;
  }
}

TableChoice decide_table(const std::string& path, const TableHead& head, const TableKind& kind, const TablePlan& plan,
                         const ReadOptions& options, const FactsBody& rest, std::int64_t n) {
  const TableShape words(kind);
  const std::string& shape = words.shape;
  const std::string& a_line = words.a_line;
  TableChoice ch;
  auto line_error = [&](TableError kind_of_error, std::int64_t line) {
    ch.error = kind_of_error;
    ch.error_line = line;
    return ch;
  };
  if (rest.tokenizer_error) return line_error(TableError::kTokenizer, rest.tokenizer_error);
  if (n == 0)
    throw InputError(path, 1, std::string("no edges: the file is empty (or only blank and comment lines); ") +
                                  a_line + " is " + shape);
  record_directed(ch.decisions);
  const Header asked = options.header;
  const TableRows h = head.rows();

  // A row index (pandas' to_csv, R's write.csv): a header whose first field is
  // empty above a first column that counts 0, 1, 2, ... or 1, 2, 3, ...
  bool index = false;
  if (asked != Header::kNo && n >= 2 && h.columns(0) >= 3 && h.at(0, 0).empty()) {
    std::uint64_t base = 0;
    index = parse_id(h.at(1, 0), base) && base <= 1 && rest.index.rows && rest.index.counting && rest.index.first == base;
  }
  const std::size_t s = index ? 1 : 0;  // the source column; the target is s + 1
  const std::string counting = index && h.at(1, 0) == "1" ? "1, 2, 3, ..." : "0, 1, 2, ...";

  // Header.
  bool header = asked == Header::kYes || index;
  std::string why;  // why a header was detected, or why line 1 was kept
  const std::string a0(h.at(0, s)), b0(h.at(0, s + 1));
  std::uint64_t id = 0;
  const bool first_integers = parse_id(h.at(0, s), id) && parse_id(h.at(0, s + 1), id);
  const bool rest_integers = rest.ids[s].all_integer;
  bool judged = false;  // line 1 had to be judged (not plainly an edge of integers)
  if (index) {
    why = "its first field is empty above a first column counting " + counting +
          " (a row index, as pandas and R write)";
  } else if (asked == Header::kAuto && !first_integers && !(all_digits(a0) && all_digits(b0))) {
    // (A line of digits is data, even with ids beyond 2^63: no header is numbers.)
    judged = true;
    if (n > 1 && rest_integers) {
      header = true;
      why = "its source and target are not integers, unlike every other line's";
    } else if (is_column_name_pair(a0, b0)) {
      header = true;
      why = "its fields are column names";
    } else if (n > 1) {
      // Line 1's ends appear nowhere else, and either its third field is
      // text above numbers, or the rest of the file has shared vertices
      // (an edge of two vertices nothing else touches is unusual in a file
      // whose other edges meet).
      const HeaderFacts& names = rest.header_facts;
      double x = 0;
      const bool text_over_numbers = h.columns(0) > s + 2 && !parse_number(h.at(0, s + 2), x) &&
                                     rest.numbers[plan.candidate(s + 2)].not_number.line == 0;
      const bool repeats = names.repeat;
      if (!names.elsewhere && !text_over_numbers && !repeats && !names.hashes_complete && names.maybe_repeat)
        throw UsageError(path + ": whether line 1 (" + shown(a0) + ", " + shown(b0) +
                         ") is a header depends on whether the other lines' vertices meet, which the parts of the "
                         "file cannot tell apart: give --header or --no-header (Python header=True or False)");
      if (!names.elsewhere && (text_over_numbers || repeats)) {
        header = true;
        why = text_over_numbers ? "its fields are not in any edge, and its third field is text above numbers"
                                : "its fields are not in any edge, while the other lines' vertices meet";
      }
    }
  }
  ch.index = index;
  ch.s = s;
  ch.header = header;
  ch.header_detected = asked == Header::kAuto;
  if (asked == Header::kAuto && index) {
    set_decision(ch.decisions, "header", "true");  // the index note says it
  } else if (asked == Header::kAuto && header) {
    set_decision(ch.decisions, "header", "true",
                 "line 1 (" + shown(a0) + ", " + shown(b0) + ") is read as a header, not an edge: " + why +
                     " (--no-header, Python header=False, reads it as an edge)");
  } else if (asked == Header::kAuto && judged) {
    set_decision(ch.decisions, "header", "false",
                 "line 1 (" + shown(a0) + ", " + shown(b0) +
                     ") is read as an edge, not a header (--header, Python header=True, reads it as column names)");
  } else {
    set_decision(ch.decisions, "header", header ? "true" : "false");
  }
  const Columns col{h, header};
  if (index)
    set_decision(ch.decisions, "index_column", col.id(0),
                 "line 1 is a header and column 1 a row index (no name, counting " + counting +
                     "), skipped (--no-header, Python header=False, reads both as data); write the file without it (pandas: to_csv(index=False); R: "
                     "write.csv(row.names=FALSE)) if it is not one");

  const std::size_t first = header ? 1 : 0;
  if (n - static_cast<std::int64_t>(first) == 0)
    throw InputError(path, head.line[0],
                     "only a header line, no edges (if this line is an edge, read the file with --no-header, "
                     "Python header=False)");
  // The facts of every edge row: row 0's too when it is one.
  FactsBody all = rest;
  if (!header) {
    FactsBody row0 = new_body(static_cast<Format>(rest.format), options);
    TableGatherer(plan, row0).row(h, 0);
    combine_bodies(row0, rest);
    all = row0;
  }
  const std::size_t columns = h.columns(first);
  ch.columns = columns;
  ch.first_edge_line = head.line[first];
  if (all.ids[s].column_error[first]) return line_error(TableError::kColumns, all.ids[s].column_error[first]);

  if (kind.weight_required && options.weight_column != "none" && columns < s + 3)
    throw InputError(path, head.line[first],
                     std::string("no weight: a .wel line is source target weight (read it as .el with --format el, "
                                 "or give --weight-column none)"));
  // The weight column: asked for, or chosen (a weight-like name first, else
  // the third column when it is numeric and its name does not say otherwise).
  const std::string& wanted = options.weight_column;
  const bool none = wanted == "none";
  const bool dicts = kind.python_dicts && columns == s + 3 && !h.at(first, s + 2).empty() &&
                     h.at(first, s + 2).front() == '{';
  std::ptrdiff_t wc = -1;
  std::string weight_note;
  if (!none && !wanted.empty() && !dicts) {
    std::uint64_t k = 0;
    if (parse_id(wanted, k) && k >= 1 && k <= columns) {
      wc = static_cast<std::ptrdiff_t>(k - 1);
    } else {
      for (std::size_t c = 0; c < columns && wc < 0; ++c)
        if (header && h.at(0, c) == wanted) wc = static_cast<std::ptrdiff_t>(c);
      for (std::size_t c = 0; c < columns && wc < 0; ++c)
        if (header && lower(h.at(0, c)) == lower(wanted)) wc = static_cast<std::ptrdiff_t>(c);
    }
    if (wc < 0) {
      std::string have;
      for (std::size_t c = 0; c < columns; ++c) have += (c ? ", " : "") + col.named(c);
      throw UsageError(path + ": --weight-column " + wanted + " is not a column of the file (it has " + have +
                       "); give a column number from 1, a header name, or none");
    }
    if (static_cast<std::size_t>(wc) < s + 2)
      throw UsageError(path + ": --weight-column " + wanted + " is " + col.named(static_cast<std::size_t>(wc)) +
                       ", which holds the " + (wc == 0 && index ? "row index" : wc == static_cast<std::ptrdiff_t>(s) ? "sources" : "targets") +
                       "; weights come from a later column");
  } else if (!none && !dicts && columns > s + 2) {
    if (kind.weight_required) {
      wc = static_cast<std::ptrdiff_t>(s + 2);
    } else {
      for (std::size_t c = s + 2; c < columns && wc < 0 && header; ++c)
        if (weight_like(h.at(0, c))) wc = static_cast<std::ptrdiff_t>(c);
      if (wc >= 0) {
        weight_note = col.named(static_cast<std::size_t>(wc)) + " is read as edge weights, as its name says";
      } else {
        const std::size_t c = s + 2;
        const LineText& bad = all.numbers[plan.candidate(c)].not_number;
        if (header && not_weight_kind(h.at(0, c))) {
          weight_note = col.named(c) + " is not read as weights: its name says " + not_weight_kind(h.at(0, c)) +
                        " (--weight-column " +
                        col.id(c) + ", Python weight=" + python_column(col.id(c)) + ", reads it as weights)";
        } else if (bad.line) {
          weight_note = col.named(c) + " is not read as weights: line " + std::to_string(bad.line) +
                        " has " + shown(bad.text.view()) + ", not a number";
        } else {
          wc = static_cast<std::ptrdiff_t>(c);
          weight_note = col.named(c) + " holds numbers and is read as edge weights";
        }
      }
      if (wc >= 0)
        weight_note += " (--weight-column none, Python weight=None, reads the graph unweighted)";
    }
  }
  if (wc >= 0) {
    set_decision(ch.decisions, "weight_column", col.id(static_cast<std::size_t>(wc)), weight_note);
  } else if (!dicts && (none || columns > s + 2)) {
    set_decision(ch.decisions, "weight_column", "none", weight_note);
  }
  // Columns read by nobody.
  if (!dicts) {
    std::string ids, names;
    std::size_t count = 0;
    for (std::size_t c = s + 2; c < columns; ++c) {
      if (static_cast<std::ptrdiff_t>(c) == wc) continue;
      if (!none && wc < 0 && c == s + 2 && !weight_note.empty()) continue;  // its note says why already
      ids += (count ? "," : "") + col.id(c);
      names += (count ? ", " : "") + col.named(c).substr(7);  // "4 ('x')"
      ++count;
    }
    if (count)  // no note when --weight-column chose: the rest is ignored as asked
      set_decision(ch.decisions, "extra_columns", ids,
                   !wanted.empty() ? std::string()
                                   : (count == 1 ? "column " + names + " is" : "columns " + names + " are") +
                                         " ignored: numagraph reads a source, a target and at most one weight "
                                         "column (--weight-column COL, Python weight=COL, picks the "
                                         "weights)");
  }

  // Weights.
  ch.wc = wc;
  ch.dicts = dicts;
  if (wc >= 0) {
    const NumberFacts& w = all.numbers[plan.candidate(static_cast<std::size_t>(wc))];
    ch.weight_where = col.named(static_cast<std::size_t>(wc));
    const std::int64_t bad = w.not_number.line && (!w.bad_weight || w.not_number.line < w.bad_weight)
                                 ? w.not_number.line : w.bad_weight;
    if (bad) return line_error(TableError::kWeight, bad);
    ch.weight_kind = w.integral ? WeightKind::kInteger : WeightKind::kReal;
  } else if (dicts) {
    // networkx's write_edgelist: {} or {'weight': 3.0, ...} after the ends.
    const DictFacts& d = all.dicts;
    const std::string& key = plan.dict_key;
    ch.dict_key = key;
    ch.weight_where = "the edge data's '" + key + "'";
    if (d.bad) return line_error(TableError::kDict, d.bad);
    if (d.with > 0 && !none) {
      if (d.bad_weight) return line_error(TableError::kDictWeight, d.bad_weight);
      ch.dict_weights = true;
      ch.weight_kind = d.integral ? WeightKind::kInteger : WeightKind::kReal;
      set_decision(ch.decisions, "weight_column", key,
                   "the edge data's '" + key + "' is read as edge weights" +
                       (d.without ? " (" + std::to_string(d.without) + " edges without one weigh 1)" : std::string()) +
                       " (--weight-column none, Python weight=None, reads the graph unweighted)");
    } else {
      set_decision(ch.decisions, "weight_column", "none");
    }
    if (d.key_too_long)
      throw UsageError(path + ": an edge data key is longer than " + std::to_string(kDictKeyBytes) +
                       " characters, which numagraph does not read: shorten the keys");
    if (d.key_count) {
      std::string list;
      for (int k = 0; k < d.key_count; ++k) list += (k ? "," : "") + std::string(d.key(k));
      set_decision(ch.decisions, "extra_columns", list,
                   "edge data other than the weight is ignored ('" + list + "')" +
                       (none ? std::string() : " (--weight-column KEY, Python weight=KEY, picks the weight key)"));
    }
  }

  // Ids: integers when every source and target is one below 2^63, else names.
  ch.integers = rest_integers && (first_integers || header);
  if (ch.integers) {
    set_decision(ch.decisions, "ids", "integers");
    return ch;
  }
  // Which line made the ids names, when others look like integers.
  const IdFacts& f = all.ids[s];
  std::string ids_note;
  if (!f.text.line && f.big_line) {
    ids_note = "ids are read as names (text), as line " + std::to_string(f.big_line) +
               " has an integer id of 2^63 or more; results name vertices by their ids as written";
  } else if (f.any_integer && f.text.line) {
    ids_note = "every id is read as a name (text), as line " + std::to_string(f.text.line) + " has " +
               shown(f.text.text.view()) + " where other lines have integer ids";
  }
  set_decision(ch.decisions, "ids", "names", ids_note);
  return ch;
}

}  // namespace numagraph::io
