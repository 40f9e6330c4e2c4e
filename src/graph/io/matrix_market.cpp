// Matrix Market coordinate files: "%%MatrixMarket matrix coordinate <field>
// <symmetry>", '%' comments, a size line "rows cols entries", then one
// 1-based entry per line. Fields pattern/integer/real; symmetry general
// (directed arcs row -> col) or symmetric (undirected edges). Dense (array)
// and complex/hermitian/skew-symmetric matrices are refused.
#include <omp.h>

#include <atomic>
#include <cmath>
#include <string>

#include "edge_lines.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

EdgeList read_matrix_market(const std::string& path) {
  TextFile file(path);
  const char* p = file.data();
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
  std::uint64_t rows = 0, cols = 0, entries = 0;
  for (;;) {
    ++line;
    if (!next_line(b, e)) throw InputError(path, line, "missing the size line 'rows cols entries'");
    if (is_blank_or_comment(b, e, "%")) continue;
    try {
      LineCursor c(b, e);
      rows = c.next_uint("row count");
      cols = c.next_uint("column count");
      entries = c.next_uint("entry count");
      c.expect_end("the entry count");
    } catch (const LineError& err) {
      throw InputError(path, line, err.message + " (the size line is 'rows cols entries')");
    }
    break;
  }
  const std::int64_t size_line = line;
  const bool weighted = field != "pattern";
  const bool integer = field == "integer";
  const auto chunks = split_lines(p, end, line + 1, 4 * omp_get_max_threads());
  EdgeList edges = parse_edge_lines(
      file, chunks, weighted, [](const char* lb, const char* le) { return !is_blank_or_comment(lb, le, "%"); },
      [&](LineCursor& c, std::int64_t, std::uint64_t& u, std::uint64_t& v, double& w) {
        const std::uint64_t i = c.next_uint("row index"), j = c.next_uint("column index");
        if (i < 1 || i > rows)
          throw LineError{"row index " + std::to_string(i) + " is out of range 1.." + std::to_string(rows)};
        if (j < 1 || j > cols)
          throw LineError{"column index " + std::to_string(j) + " is out of range 1.." + std::to_string(cols)};
        u = i - 1;
        v = j - 1;
        if (weighted) {
          w = integer ? static_cast<double>(c.next_int("integer value")) : c.next_double("value");
          check_weight(w, integer, true);
        }
        c.expect_end(weighted ? "the value" : "the column index (a pattern entry is: row col)");
      });
  if (edges.size() != entries)
    throw InputError(path, size_line,
                     "the size line declares " + std::to_string(entries) + " entries but the file has " +
                         std::to_string(edges.size()) + " (truncated file?)");
  if (entries == 0) throw InputError(path, size_line, "the matrix has no entries: a graph needs at least one edge");
  edges.num_vertices = std::max(rows, cols);
  edges.undirected = symmetry == "symmetric";
  edges.weight_kind = !weighted ? WeightKind::kNone : integer ? WeightKind::kInteger : WeightKind::kReal;
  return edges;
}

}  // namespace numagraph::io
