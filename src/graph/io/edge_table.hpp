// Internal: a text edge table (CSV, TSV, or a blank-separated edge list with
// names) read as rows of fields, and the one place that decides how to read
// it: whether line 1 is a header, whether column 1 is a row index, which
// column holds weights, which columns are ignored, whether ids are integers
// or names. Every decision is recorded in EdgeList::decisions with a note
// naming the flag that changes it; docs/formats.md states the rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::io {

// Every row's fields, as views into the file (or a tokenizer's store).
struct TableRows {
  std::vector<std::string_view> fields;  // the rows' fields, one row after another
  std::vector<std::size_t> start{0};     // row i is fields[start[i] .. start[i + 1])
  std::vector<std::int64_t> line;        // the 1-based line row i starts on

  std::size_t size() const { return line.size(); }
  std::size_t columns(std::size_t i) const { return start[i + 1] - start[i]; }
  // Field c of row i; empty past the row's end.
  std::string_view at(std::size_t i, std::size_t c) const {
    return c < columns(i) ? fields[start[i] + c] : std::string_view{};
  }
  void end_row(std::int64_t first_line) {
    start.push_back(fields.size());
    line.push_back(first_line);
  }
};

struct TableKind {
  const char* name;        // "CSV", "TSV", "edge list": for messages
  char sep;                // ',' '\t', or ' ' (blanks) for edge lists
  bool weight_required;    // .wel: the third column is the weight, always
  bool python_dicts;       // a third field may be a Python dict (networkx's write_edgelist)
};

EdgeList edges_from_table(const std::string& path, const TableRows& rows, const TableKind& kind,
                          const ReadOptions& options);

// A non-negative integer below 2^63, the whole token.
bool parse_id(std::string_view t, std::uint64_t& v);

// The decision every text edge format shares: the file does not say whether
// its edges are directed.
void record_directed(EdgeList& e);

}  // namespace numagraph::io
