// Internal: a text edge table (CSV, TSV, or a blank-separated edge list with
// names) read as rows of fields, and the one place that decides how to read
// it: whether line 1 is a header, whether column 1 is a row index, which
// column holds weights, which columns are ignored, whether ids are integers
// or names. Every decision is recorded in EdgeList::decisions with a note
// naming the flag that changes it; docs/formats.md states the rules.
//
// A table is read in parts (io_range.hpp; the whole file is one part) in
// three steps:
//   plan_table:   from the file's first two rows (every part reads them from
//                 the file's head) and the options: which facts to gather;
//   TableGatherer: the facts of a part's rows after row 0 (part_facts.hpp),
//                 combined over the parts in order;
//   decide_table: the decisions, from the head and the combined facts, and
//                 the file's first error (thrown when it belongs to no one
//                 line, else left to the part that holds the line);
//   read_table_rows: the part's edges with those decisions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/io_range.hpp"
#include "numagraph/graph/types.hpp"
#include "part_facts.hpp"

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

// How messages spell a kind's line: "source,target[,weight]", "a CSV edge line".
struct TableShape {
  std::string sep_text, shape, a_line;
  explicit TableShape(const TableKind& kind);
};

// The file's first two rows (fewer when it has fewer), owned.
struct TableHead {
  std::vector<std::string> fields[2];
  std::int64_t line[2] = {0, 0};
  std::size_t count = 0;
  void add(const std::vector<std::string_view>& row, std::int64_t at) {
    fields[count].assign(row.begin(), row.end());
    line[count++] = at;
  }
  TableRows rows() const;  // views into this head
};

// What the head and the options leave open, and so which facts to gather.
struct TablePlan {
  bool index_possible = false;  // column 1 may be a row index (then ids start in column 2)
  bool judge = false;           // whether line 1 is a header may depend on the other rows' names
  std::string a0, b0;           // row 0's source and target (ids from column 1)
  bool dicts_possible = false;  // a third field may hold dicts of edge data
  std::string dict_key;         // the weight's key in them
  std::size_t columns[2] = {0, 0};  // rows 0 and 1's column counts
  int candidates[kWeightCandidates] = {};  // columns (0-based) that may hold weights; -1: unused
  int candidate(std::size_t column) const;  // its slot in FactsBody::numbers, or -1
  bool uniform_ok = false;  // integer rows of the fast path may be summed up by gather_uniform_rows
};

TablePlan plan_table(const TableHead& head, const TableKind& kind, const ReadOptions& options);

// Gathers the facts of rows after row 0 (one part's rows, in order).
class TableGatherer {
 public:
  TableGatherer(const TablePlan& plan, FactsBody& facts) : plan_(plan), facts_(facts) {}
  void row(const TableRows& rows, std::size_t i);
  void finish();  // after the part's last row

 private:
  const TablePlan& plan_;
  FactsBody& facts_;
  std::unordered_set<std::string_view> seen_;
  std::vector<std::uint64_t> hashes_;  // of the names in seen_, while few
};

// Gathers the rows of `rows` that are not row 0 of the file.
void gather_rows(const TablePlan& plan, const TableHead& head, const TableRows& rows, FactsBody& facts);

// The facts of rows the edge lists' integer fast path parsed: `count` rows
// (after row 0) of `columns` integer-and-number fields, the first on line
// `first_line`, weights `integral`; `plus` the first of those whose id has a
// '+' (a name to a table) and `plus_rows` how many have one.
struct UniformRows {
  std::int64_t count = 0, first_line = 0, plus_rows = 0;
  std::size_t columns = 2;
  bool integral = true;
  LineText plus;
};
void gather_uniform_rows(const TablePlan& plan, const UniformRows& rows, FactsBody& facts);

// The file's first line error, which only the part holding the line can
// describe (read_table_rows throws it there).
enum class TableError { kNone, kTokenizer, kColumns, kWeight, kDict, kDictWeight };

struct TableChoice {
  bool index = false;
  std::size_t s = 0;  // the source column; the target is s + 1
  bool header = false;
  std::ptrdiff_t wc = -1;  // the weight column, or -1
  bool dicts = false, dict_weights = false;
  bool integers = true;
  std::size_t columns = 0;          // the edge rows' column count
  std::int64_t first_edge_line = 0;  // the line of the first edge row
  std::string weight_where;         // the weights' column (or dict key) as messages name it
  std::string dict_key;
  WeightKind weight_kind = WeightKind::kNone;
  InputDecisions decisions;
  bool header_detected = false;
  TableError error = TableError::kNone;
  std::int64_t error_line = 0;
};

// Decides from the head and the facts of every row after row 0 (`rest`)
// over `rows` rows (row 0 included). Throws the errors that belong to no one
// line (no rows, only a header, a --weight-column that is no column...)
// unless a line error comes first in read_edge_list's order.
TableChoice decide_table(const std::string& path, const TableHead& head, const TableKind& kind, const TablePlan& plan,
                         const ReadOptions& options, const FactsBody& rest, std::int64_t rows);

// One part's edges: its rows (row 0 among them when the part holds it).
// When choice.error is a line of this part, throws its InputError; when it
// is another part's, returns no edges. `tokenizer_error`/`_message`: the
// part's own first tokenizer error (line 0: none).
PartEdges read_table_rows(const std::string& path, const TableHead& head, const TableKind& kind,
                          const TableChoice& choice, const TableRows& rows, std::int64_t tokenizer_error,
                          const std::string& tokenizer_message);

// A non-negative integer below 2^63, the whole token.
bool parse_id(std::string_view t, std::uint64_t& v);

// The decision every text edge format shares: the file does not say whether
// its edges are directed.
void record_directed(EdgeList& e);
void record_directed(InputDecisions& d);

}  // namespace numagraph::io
