// Matrix Market coordinate files: "%%MatrixMarket matrix coordinate <field>
// <symmetry>", '%' comments, a size line "rows cols entries", then one
// 1-based entry per line. Fields pattern/integer/real; symmetry general
// (directed arcs row -> col) or symmetric (undirected edges). Dense (array)
// and complex/hermitian/skew-symmetric matrices are refused.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "edge_lines.hpp"
#include "part_readers.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The banner and the size line, which every part reads from the file's head.
struct MatrixHead {
  bool weighted = false, integer = false, symmetric = false;
  std::uint64_t rows = 0, cols = 0, entries = 0;
  std::int64_t size_line = 0;  // the size line's number
  std::size_t data = 0;        // the byte after the size line: the entries start there
};

MatrixHead read_head(const TextFile& file) {
  const std::string& path = file.path();
  const char* const start = file.data();
  const char* p = start;
  const char* end = p + file.size();
  std::int64_t line = 1;
  auto next_line = [&](const char*& b, const char*& e) {
    if (p >= end) return false;
    b = p;
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    e = nl ? nl : end;
    p = nl ? nl + 1 : end;
    return true;
  };
  const char *b, *e;
  if (!next_line(b, e) || std::string_view(b, static_cast<std::size_t>(e - b)).rfind("%%MatrixMarket", 0) != 0)
    throw InputError(path, 1, "missing the '%%MatrixMarket matrix coordinate <field> <symmetry>' header");
  std::string field, symmetry;
  try {
    LineCursor c(b, e);
    c.next_word("banner");
    if (lower(c.next_word("object")) != "matrix") throw LineError{"only 'matrix' objects are supported"};
    if (lower(c.next_word("format")) != "coordinate")
      throw LineError{"only 'coordinate' (sparse) matrices are supported, not dense 'array' ones"};
    field = lower(c.next_word("field (pattern, integer or real)"));
    symmetry = lower(c.next_word("symmetry (general or symmetric)"));
  } catch (const LineError& err) {
    throw InputError(path, 1, err.message);
  }
  if (field != "pattern" && field != "integer" && field != "real")
    throw InputError(path, 1, "field '" + field + "' is not supported (use pattern, integer or real)");
  if (symmetry != "general" && symmetry != "symmetric")
    throw InputError(path, 1, "symmetry '" + symmetry + "' is not supported (use general or symmetric)");
  MatrixHead head;
  for (;;) {
    ++line;
    if (!next_line(b, e)) throw InputError(path, line, "missing the size line 'rows cols entries'");
    if (is_blank_or_comment(b, e, "%")) continue;
    try {
      LineCursor c(b, e);
      head.rows = c.next_uint("row count");
      head.cols = c.next_uint("column count");
      head.entries = c.next_uint("entry count");
      c.expect_end("the entry count");
    } catch (const LineError& err) {
      throw InputError(path, line, err.message + " (the size line is 'rows cols entries')");
    }
    break;
  }
  head.size_line = line;
  head.data = static_cast<std::size_t>(p - start);
  head.weighted = field != "pattern";
  head.integer = field == "integer";
  head.symmetric = symmetry == "symmetric";
  return head;
}

struct MatrixScan : PartScan {
  EdgeList edges;
  std::string error_message;
};

}  // namespace

std::unique_ptr<PartScan> scan_matrix_market_part(const PartScope& part, const ReadOptions& options) {
  const MatrixHead head = read_head(part.file);
  auto scan = std::make_unique<MatrixScan>();
  scan->mine = new_body(Format::kMatrixMarket, options);
  // The part's entries: its lines after the size line.
  const std::size_t begin = std::max(part.begin, head.data);
  const std::int64_t first_line = part.begin >= head.data ? part.first_line : head.size_line + 1;
  const char* b = part.file.data() + std::min(begin, part.end);
  const auto chunks = split_lines(b, part.data_end(), first_line, 4 * omp_get_max_threads());
  const bool integer = head.integer;
  const std::uint64_t rows = head.rows, cols = head.cols;
  ErrorSlot error;
  scan->edges = parse_edge_lines(
      part.path(), chunks, head.weighted, [](const char* lb, const char* le) { return !is_blank_or_comment(lb, le, "%"); },
      [&](LineCursor& c, std::int64_t, std::uint64_t& u, std::uint64_t& v, double& w) {
        const std::uint64_t i = c.next_uint("row index"), j = c.next_uint("column index");
        if (i < 1 || i > rows)
          throw LineError{"row index " + std::to_string(i) + " is out of range 1.." + std::to_string(rows)};
        if (j < 1 || j > cols)
          throw LineError{"column index " + std::to_string(j) + " is out of range 1.." + std::to_string(cols)};
        u = i - 1;
        v = j - 1;
        if (head.weighted) {
          w = integer ? static_cast<double>(c.next_int("integer value")) : c.next_double("value");
          check_weight(w, integer, true);
        }
        c.expect_end(head.weighted ? "the value" : "the column index (a pattern entry is: row col)");
      },
      error);
  scan->data_lines = static_cast<std::int64_t>(scan->edges.size());
  if (error.set()) {
    scan->mine.edge_error = error.line();
    scan->error_message = error.message();
  }
  return scan;
}

void check_matrix_market_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines) {
  const MatrixHead head = read_head(file);
  if (whole.edge_error) return;  // a bad entry comes first: read_matrix_market_part reports it
  const auto entries = static_cast<std::uint64_t>(data_lines);
  if (entries != head.entries)
    throw InputError(file.path(), head.size_line,
                     "the size line declares " + std::to_string(head.entries) + " entries but the file has " +
                         std::to_string(entries) + " (truncated file?)");
  if (head.entries == 0)
    throw InputError(file.path(), head.size_line, "the matrix has no entries: a graph needs at least one edge");
}

PartEdges read_matrix_market_part(const PartScope& part, PartScan& scan, const FactsBody& whole) {
  const MatrixHead head = read_head(part.file);
  auto& mine = static_cast<MatrixScan&>(scan);
  PartEdges out;
  if (whole.edge_error) {
    if (mine.mine.edge_error == whole.edge_error) throw InputError(part.path(), whole.edge_error, mine.error_message);
    out.edges.source_name = part.path();
    return out;
  }
  out.edges = std::move(mine.edges);
  out.edges.num_vertices = std::max(head.rows, head.cols);
  out.edges.undirected = head.symmetric;
  out.edges.weight_kind = !head.weighted ? WeightKind::kNone : head.integer ? WeightKind::kInteger : WeightKind::kReal;
  return out;
}

}  // namespace numagraph::io
