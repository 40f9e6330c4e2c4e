// Reading a part's table rows with the decisions of decide_table
// (edge_table.hpp): ids as integers or names (numbered in order of first
// appearance in the part), weights from the chosen column or dict key. When
// the file's first error is a line of this part, the line is examined again
// here to say what is wrong with it.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "edge_lines.hpp"
#include "edge_table.hpp"
#include "numagraph/util/error.hpp"
#include "table_text.hpp"

namespace numagraph::io {

namespace {

// A weight field: a number that a float holds (store_weight's checks).
double checked_weight(const std::string& path, std::int64_t line, std::string_view t, const std::string& where) {
  double x = 0;
  if (!parse_number(t, x))
    throw InputError(path, line,
                     "expected a weight (a number) in " + where + ", found " + shown(t) +
                         " (--weight-column none, Python weight=None, reads the graph unweighted)");
  try {
    check_weight(x, false, true);
  } catch (const LineError& err) {
    throw InputError(path, line, err.message);
  }
  return x;
}

// Throws the error decide_table found on row i.
[[noreturn]] void explain(const std::string& path, const TableKind& kind, const TableChoice& ch, const TableRows& rows,
                          std::size_t i) {
  const std::int64_t line = rows.line[i];
  const std::size_t s = ch.s;
  switch (ch.error) {
    case TableError::kColumns: {
      const TableShape words(kind);
      const std::size_t c = rows.columns(i);
      if (c < s + 2)
        throw InputError(path, line,
                         std::string(c == 1 ? "one column" : std::to_string(c) + " columns") + "; " + words.a_line +
                             " is " + (ch.index ? "index" + words.sep_text : std::string()) + words.shape +
                             (kind.sep == '\t' ? " (TSV columns are separated by tabs)" : ""));
      if (c != ch.columns)
        throw InputError(path, line,
                         std::to_string(c) + " columns where the first edge line (line " +
                             std::to_string(ch.first_edge_line) + ") has " + std::to_string(ch.columns) +
                             ": every edge line needs the same columns");
      throw InputError(path, line, std::string("empty ") + (rows.at(i, s).empty() ? "source" : "target") + " field");
    }
    case TableError::kWeight:
      checked_weight(path, line, rows.at(i, static_cast<std::size_t>(ch.wc)), ch.weight_where);
      break;
    case TableError::kDict:
    case TableError::kDictWeight: {
      std::string_view value;
      std::vector<std::string_view> keys;
      const std::string_view t = rows.at(i, s + 2);
      if (!parse_python_dict(t, ch.dict_key, value, keys))
        throw InputError(path, line,
                         "expected a Python dict of edge data (as networkx's write_edgelist writes: {} or "
                         "{'weight': 3.0}) in the third field, found " + shown(t));
      checked_weight(path, line, value, ch.weight_where);
      break;
    }
    default:
      break;
  }
  throw InputError(path, line, "internal error: this line was found bad but passes every check");
}

}  // namespace

PartEdges read_table_rows(const std::string& path, const TableHead& head, const TableKind& kind,
                          const TableChoice& choice, const TableRows& rows, std::int64_t tokenizer_error,
                          const std::string& tokenizer_message) {
  PartEdges out;
  EdgeList& e = out.edges;
  e.source_name = path;
  if (choice.error == TableError::kTokenizer) {
    if (tokenizer_error == choice.error_line) throw InputError(path, tokenizer_error, tokenizer_message);
    return out;
  }
  if (choice.error != TableError::kNone) {
    const auto at = std::lower_bound(rows.line.begin(), rows.line.end(), choice.error_line);
    if (at != rows.line.end() && *at == choice.error_line)
      explain(path, kind, choice, rows, static_cast<std::size_t>(at - rows.line.begin()));
    return out;  // another part's line
  }
  e.decisions = choice.decisions;
  e.header = choice.header;
  e.header_detected = choice.header_detected;
  e.weight_kind = choice.weight_kind;

  // This part's edge rows: all but the header.
  std::vector<std::size_t> edge_rows;
  edge_rows.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (!(choice.header && head.count && rows.line[i] == head.line[0])) edge_rows.push_back(i);
  const std::size_t m = edge_rows.size();
  const std::size_t s = choice.s;
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  if (choice.wc >= 0 || choice.dict_weights) e.weights = NumaArray<weight_t>(m);
  double x = 0;
  std::string_view value;
  std::vector<std::string_view> keys;
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t i = edge_rows[k];
    if (choice.wc >= 0) {
      parse_number(rows.at(i, static_cast<std::size_t>(choice.wc)), x);
      e.weights[k] = static_cast<weight_t>(x);
    } else if (choice.dict_weights) {
      value = {};
      parse_python_dict(rows.at(i, s + 2), choice.dict_key, value, keys);
      x = 1;
      if (!value.empty()) parse_number(value, x);
      e.weights[k] = static_cast<weight_t>(x);
    }
  }
  if (choice.integers) {
    for (std::size_t k = 0; k < m; ++k) {
      parse_id(rows.at(edge_rows[k], s), e.src[k]);
      parse_id(rows.at(edge_rows[k], s + 1), e.dst[k]);
    }
    return out;
  }
  std::unordered_map<std::string_view, std::uint64_t> number;
  number.reserve(2 * m);
  auto id_of = [&](std::string_view t) {
    auto [it, fresh] = number.try_emplace(t, out.names.size());
    if (fresh) out.names.emplace_back(t);
    return it->second;
  };
  for (std::size_t k = 0; k < m; ++k) {
    e.src[k] = id_of(rows.at(edge_rows[k], s));
    e.dst[k] = id_of(rows.at(edge_rows[k], s + 1));
  }
  return out;
}

}  // namespace numagraph::io
