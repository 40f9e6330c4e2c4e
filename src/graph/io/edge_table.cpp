// How a text edge table is read: header, index column, weight column, extra
// columns, integer ids or names (edge_table.hpp). One serial pass: names are
// numbered in order of first appearance, so the numbering does not depend on
// the thread count.
#include "edge_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "edge_lines.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::io {

bool parse_id(std::string_view t, std::uint64_t& v) {
  if (t.empty() || t.size() > 19) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size() && v < (std::uint64_t{1} << 63);
}

void record_directed(EdgeList& e) {
  set_decision(e.decisions, "directed", "true",
               "edges are read as directed arcs source -> target, as the file does not say "
               "(-s/--symmetrize, Python directed=False, reads them as undirected edges)");
}

namespace {

std::string lower(std::string_view t) {
  std::string s(t);
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

std::string shown(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40) s += "...";
  return "'" + s + "'";
}

bool all_digits(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  return true;
}

// A whole token that is a finite number.
bool parse_number(std::string_view t, double& x) {
  if (t.empty()) return false;
  const char* b = t.data();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, t.data() + t.size(), x);
  return ec == std::errc() && p == t.data() + t.size() && std::isfinite(x);
}

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

// The value of `key` in a Python dict literal as networkx writes it
// ({'weight': 3.0, 'color': 'red'}), and every key; false when it is not one.
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

EdgeList edges_from_table(const std::string& path, const TableRows& rows, const TableKind& kind,
                          const ReadOptions& options) {
  const std::string sep_text = kind.sep == ',' ? "," : kind.sep == '\t' ? "<tab>" : " ";
  const std::string shape = kind.sep == ' ' ? "source target [weight]" : "source" + sep_text + "target[" + sep_text + "weight]";
  const std::string a_line = kind.sep == ' ' ? std::string("an edge-list line") : std::string("a ") + kind.name + " edge line";
  const std::size_t n = rows.size();
  if (n == 0)
    throw InputError(path, 1, std::string("no edges: the file is empty (or only blank and comment lines); ") +
                                  a_line + " is " + shape);
  EdgeList e;
  e.source_name = path;
  record_directed(e);
  const Header asked = options.header;

  // A row index (pandas' to_csv, R's write.csv): a header whose first field is
  // empty above a first column that counts 0, 1, 2, ... or 1, 2, 3, ...
  bool index = false;
  if (asked != Header::kNo && n >= 2 && rows.columns(0) >= 3 && rows.at(0, 0).empty()) {
    std::uint64_t base = 0, v = 0;
    index = parse_id(rows.at(1, 0), base) && base <= 1;
    for (std::size_t i = 1; i < n && index; ++i) index = parse_id(rows.at(i, 0), v) && v == base + (i - 1);
  }
  const std::size_t s = index ? 1 : 0;  // the source column; the target is s + 1
  const std::string counting = index && rows.at(1, 0) == "1" ? "1, 2, 3, ..." : "0, 1, 2, ...";

  // Header.
  bool header = asked == Header::kYes || index;
  std::string why;  // why a header was detected, or why line 1 was kept
  const std::string a0(rows.at(0, s)), b0(rows.at(0, s + 1));
  std::uint64_t id = 0;
  auto integer_ends = [&](std::size_t i) { return parse_id(rows.at(i, s), id) && parse_id(rows.at(i, s + 1), id); };
  const bool first_integers = integer_ends(0);
  bool rest_integers = true;
  for (std::size_t i = 1; i < n && rest_integers; ++i) rest_integers = integer_ends(i);
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
      bool elsewhere = false, repeats = false;
      std::unordered_set<std::string_view> seen;
      const std::size_t sample = std::min<std::size_t>(n, 1000000);
      for (std::size_t i = 1; i < n && !elsewhere; ++i) {
        const std::string_view x = rows.at(i, s), y = rows.at(i, s + 1);
        elsewhere = x == a0 || x == b0 || y == a0 || y == b0;
        if (i < sample && !repeats) {
          repeats = !seen.insert(x).second;
          repeats = !seen.insert(y).second || repeats;
        }
      }
      bool text_over_numbers = rows.columns(0) > s + 2;
      double x = 0;
      text_over_numbers = text_over_numbers && !parse_number(rows.at(0, s + 2), x);
      for (std::size_t i = 1; i < n && text_over_numbers; ++i)
        text_over_numbers = parse_number(rows.at(i, s + 2), x);
      if (!elsewhere && (text_over_numbers || repeats)) {
        header = true;
        why = text_over_numbers ? "its fields are not in any edge, and its third field is text above numbers"
                                : "its fields are not in any edge, while the other lines' vertices meet";
      }
    }
  }
  e.header = header;
  e.header_detected = asked == Header::kAuto;
  if (asked == Header::kAuto && index) {
    set_decision(e.decisions, "header", "true");  // the index note says it
  } else if (asked == Header::kAuto && header) {
    set_decision(e.decisions, "header", "true",
                 "line 1 (" + shown(a0) + ", " + shown(b0) + ") is read as a header, not an edge: " + why +
                     " (--no-header, Python header=False, reads it as an edge)");
  } else if (asked == Header::kAuto && judged) {
    set_decision(e.decisions, "header", "false",
                 "line 1 (" + shown(a0) + ", " + shown(b0) +
                     ") is read as an edge, not a header (--header, Python header=True, reads it as column names)");
  } else {
    set_decision(e.decisions, "header", header ? "true" : "false");
  }
  const Columns col{rows, header};
  if (index)
    set_decision(e.decisions, "index_column", col.id(0),
                 "line 1 is a header and column 1 a row index (no name, counting " + counting +
                     "), skipped (--no-header, Python header=False, reads both as data); write the file without it (pandas: to_csv(index=False); R: "
                     "write.csv(row.names=FALSE)) if it is not one");

  const std::size_t first = header ? 1 : 0;
  const std::size_t m = n - first;
  if (m == 0)
    throw InputError(path, rows.line[0],
                     "only a header line, no edges (if this line is an edge, read the file with --no-header, "
                     "Python header=False)");
  const std::size_t columns = rows.columns(first);
  for (std::size_t i = first; i < n; ++i) {
    const std::size_t c = rows.columns(i);
    if (c < s + 2)
      throw InputError(path, rows.line[i],
                       std::string(c == 1 ? "one column" : std::to_string(c) + " columns") + "; " + a_line +
                           " is " + (index ? "index" + sep_text : std::string()) + shape +
                           (kind.sep == '\t' ? " (TSV columns are separated by tabs)" : ""));
    if (c != columns)
      throw InputError(path, rows.line[i],
                       std::to_string(c) + " columns where the first edge line (line " +
                           std::to_string(rows.line[first]) + ") has " + std::to_string(columns) +
                           ": every edge line needs the same columns");
    if (rows.at(i, s).empty() || rows.at(i, s + 1).empty())
      throw InputError(path, rows.line[i],
                       std::string("empty ") + (rows.at(i, s).empty() ? "source" : "target") + " field");
  }

  if (kind.weight_required && options.weight_column != "none" && columns < s + 3)
    throw InputError(path, rows.line[first],
                     std::string("no weight: a .wel line is source target weight (read it as .el with --format el, "
                                 "or give --weight-column none)"));
  // The weight column: asked for, or chosen (a weight-like name first, else
  // the third column when it is numeric and its name does not say otherwise).
  const std::string& wanted = options.weight_column;
  const bool none = wanted == "none";
  const bool dicts = kind.python_dicts && columns == s + 3 && !rows.at(first, s + 2).empty() &&
                     rows.at(first, s + 2).front() == '{';
  std::ptrdiff_t wc = -1;
  std::string weight_note;
  auto numeric_column = [&](std::size_t c, std::size_t& bad) {
    double x = 0;
    for (std::size_t i = first; i < n; ++i)
      if (!parse_number(rows.at(i, c), x)) {
        bad = i;
        return false;
      }
    return true;
  };
  if (!none && !wanted.empty() && !dicts) {
    std::uint64_t k = 0;
    if (parse_id(wanted, k) && k >= 1 && k <= columns) {
      wc = static_cast<std::ptrdiff_t>(k - 1);
    } else {
      for (std::size_t c = 0; c < columns && wc < 0; ++c)
        if (header && rows.at(0, c) == wanted) wc = static_cast<std::ptrdiff_t>(c);
      for (std::size_t c = 0; c < columns && wc < 0; ++c)
        if (header && lower(rows.at(0, c)) == lower(wanted)) wc = static_cast<std::ptrdiff_t>(c);
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
        if (weight_like(rows.at(0, c))) wc = static_cast<std::ptrdiff_t>(c);
      if (wc >= 0) {
        weight_note = col.named(static_cast<std::size_t>(wc)) + " is read as edge weights, as its name says";
      } else {
        const std::size_t c = s + 2;
        std::size_t bad = 0;
        if (header && not_weight_kind(rows.at(0, c))) {
          weight_note = col.named(c) + " is not read as weights: its name says " + not_weight_kind(rows.at(0, c)) +
                        " (--weight-column " +
                        col.id(c) + ", Python weight=" + python_column(col.id(c)) + ", reads it as weights)";
        } else if (!numeric_column(c, bad)) {
          weight_note = col.named(c) + " is not read as weights: line " + std::to_string(rows.line[bad]) +
                        " has " + shown(rows.at(bad, c)) + ", not a number";
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
    set_decision(e.decisions, "weight_column", col.id(static_cast<std::size_t>(wc)), weight_note);
  } else if (!dicts && (none || columns > s + 2)) {
    set_decision(e.decisions, "weight_column", "none", weight_note);
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
      set_decision(e.decisions, "extra_columns", ids,
                   !wanted.empty() ? std::string()
                                   : (count == 1 ? "column " + names + " is" : "columns " + names + " are") +
                                         " ignored: numagraph reads a source, a target and at most one weight "
                                         "column (--weight-column COL, Python weight=COL, picks the "
                                         "weights)");
  }

  // Weights.
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  bool integral = true;
  auto store_weight = [&](std::size_t i, std::string_view t, const std::string& where) {
    double x = 0;
    if (!parse_number(t, x))
      throw InputError(path, rows.line[i],
                       "expected a weight (a number) in " + where + ", found " + shown(t) +
                           " (--weight-column none, Python weight=None, reads the graph unweighted)");
    try {
      check_weight(x, false, true);
    } catch (const LineError& err) {
      throw InputError(path, rows.line[i], err.message);
    }
    if (x != std::floor(x) || std::fabs(x) > static_cast<double>(kMaxExactIntegerWeight)) integral = false;
    e.weights[i - first] = static_cast<weight_t>(x);
  };
  if (wc >= 0) {
    e.weights = NumaArray<weight_t>(m);
    const std::string where = col.named(static_cast<std::size_t>(wc));
    for (std::size_t i = first; i < n; ++i) store_weight(i, rows.at(i, static_cast<std::size_t>(wc)), where);
    e.weight_kind = integral ? WeightKind::kInteger : WeightKind::kReal;
  } else if (dicts) {
    // networkx's write_edgelist: {} or {'weight': 3.0, ...} after the ends.
    const std::string key = none || wanted.empty() ? "weight" : wanted;
    std::vector<std::string_view> keys;
    std::vector<std::string> other;
    std::size_t with = 0, without = 0;
    std::string_view value;
    std::vector<std::int8_t> has(m, 0);
    for (std::size_t i = first; i < n; ++i) {
      value = {};
      const std::string_view t = rows.at(i, s + 2);
      if (!parse_python_dict(t, key, value, keys))
        throw InputError(path, rows.line[i],
                         "expected a Python dict of edge data (as networkx's write_edgelist writes: {} or "
                         "{'weight': 3.0}) in the third field, found " + shown(t));
      for (auto k : keys)
        if (k != key && other.size() < 8 && std::find(other.begin(), other.end(), std::string(k)) == other.end())
          other.emplace_back(k);
      has[i - first] = !value.empty();
      with += !value.empty();
      without += value.empty();
    }
    if (with > 0 && !none) {
      e.weights = NumaArray<weight_t>(m);
      for (std::size_t i = first; i < n; ++i) {
        if (has[i - first]) {
          value = {};
          parse_python_dict(rows.at(i, s + 2), key, value, keys);
          store_weight(i, value, "the edge data's '" + key + "'");
        } else {
          e.weights[i - first] = 1;
        }
      }
      e.weight_kind = integral ? WeightKind::kInteger : WeightKind::kReal;
      set_decision(e.decisions, "weight_column", key,
                   "the edge data's '" + key + "' is read as edge weights" +
                       (without ? " (" + std::to_string(without) + " edges without one weigh 1)" : std::string()) +
                       " (--weight-column none, Python weight=None, reads the graph unweighted)");
    } else {
      set_decision(e.decisions, "weight_column", "none");
    }
    if (!other.empty()) {
      std::string list;
      for (std::size_t k = 0; k < other.size(); ++k) list += (k ? "," : "") + other[k];
      set_decision(e.decisions, "extra_columns", list,
                   "edge data other than the weight is ignored ('" + list + "')" +
                       (none ? std::string() : " (--weight-column KEY, Python weight=KEY, picks the weight key)"));
    }
  }

  // Ids: integers when every source and target is one below 2^63, else names.
  const bool integers = rest_integers && (first_integers || header);
  if (integers) {
    for (std::size_t i = first; i < n; ++i) {
      parse_id(rows.at(i, s), e.src[i - first]);
      parse_id(rows.at(i, s + 1), e.dst[i - first]);
    }
    set_decision(e.decisions, "ids", "integers");
    return e;
  }
  // Which line made the ids names, when others look like integers.
  std::size_t text_row = n, big_row = n, int_rows = 0;
  for (std::size_t i = first; i < n; ++i) {
    const bool ints = integer_ends(i);
    int_rows += ints;
    if (!ints && text_row == n) {
      const std::string_view x = rows.at(i, s), y = rows.at(i, s + 1);
      const bool big = (all_digits(x) || all_digits(y)) && (all_digits(x) || parse_id(x, id)) &&
                       (all_digits(y) || parse_id(y, id));
      if (big && big_row == n) big_row = i;
      if (!big) text_row = i;
    }
  }
  std::string ids_note;
  if (text_row == n && big_row < n) {
    ids_note = "ids are read as names (text), as line " + std::to_string(rows.line[big_row]) +
               " has an integer id of 2^63 or more; results name vertices by their ids as written";
  } else if (int_rows > 0 && text_row < n) {
    const std::string_view x = rows.at(text_row, s), y = rows.at(text_row, s + 1);
    ids_note = "every id is read as a name (text), as line " + std::to_string(rows.line[text_row]) + " has " +
               shown(parse_id(x, id) ? y : x) + " where other lines have integer ids";
  }
  set_decision(e.decisions, "ids", "names", ids_note);
  auto names = std::make_shared<std::vector<std::string>>();
  std::unordered_map<std::string_view, std::uint64_t> number;
  number.reserve(2 * m);
  auto id_of = [&](std::string_view t) {
    auto [it, fresh] = number.try_emplace(t, names->size());
    if (fresh) names->emplace_back(t);
    return it->second;
  };
  for (std::size_t i = first; i < n; ++i) {
    e.src[i - first] = id_of(rows.at(i, s));
    e.dst[i - first] = id_of(rows.at(i, s + 1));
  }
  e.num_vertices = names->size();
  e.names = std::move(names);
  return e;
}

}  // namespace numagraph::io
