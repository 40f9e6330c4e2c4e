// DIMACS shortest-path files (9th challenge, .gr): 'c' comment lines, one
// problem line 'p sp <nodes> <arcs>', then arc lines 'a <u> <v> <w>' with
// 1-based ids and non-negative integer weights (zero allowed, as in the
// challenge's generators). Arcs are directed. Count mismatches are reported
// at the problem line that declares the counts.
#include <omp.h>

#include "edge_lines.hpp"
#include "readers.hpp"

namespace numagraph::io {

EdgeList read_dimacs(const std::string& path) {
  TextFile file(path);
  const char* p = file.data();
  const char* end = p + file.size();
  std::int64_t line = 0;
  std::uint64_t nodes = 0, arcs = 0;
  bool found = false;
  while (p < end && !found) {
    ++line;
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(p, e, "c")) {
      try {
        LineCursor c(p, e);
        if (c.next_word("line type") != "p")
          throw LineError{"expected the problem line 'p sp <nodes> <arcs>' before any arc"};
        if (c.next_word("problem type") != "sp") throw LineError{"only shortest-path ('p sp') files are supported"};
        nodes = c.next_uint("node count");
        arcs = c.next_uint("arc count");
        c.expect_end("the arc count");
      } catch (const LineError& err) {
        throw InputError(path, line, err.message);
      }
      found = true;
    }
    p = nl ? nl + 1 : end;
  }
  if (!found) throw InputError(path, 0, "no problem line 'p sp <nodes> <arcs>' (empty file?)");
  const auto chunks = split_lines(p, end, line + 1, 4 * omp_get_max_threads());
  EdgeList edges = parse_edge_lines(
      file, chunks, true, [](const char* b, const char* e) { return !is_blank_or_comment(b, e, "c"); },
      [&](LineCursor& c, std::int64_t, std::uint64_t& u, std::uint64_t& v, double& w) {
        const std::string_view type = c.next_word("line type");
        if (type == "p") throw LineError{"a second problem line: a .gr file has exactly one"};
        if (type != "a") throw LineError{"expected an arc line 'a <u> <v> <w>', found '" + std::string(type) + "'"};
        const std::uint64_t a = c.next_uint("tail id"), b = c.next_uint("head id");
        if (a < 1 || a > nodes) throw LineError{"tail id " + std::to_string(a) + " is out of range 1.." + std::to_string(nodes)};
        if (b < 1 || b > nodes) throw LineError{"head id " + std::to_string(b) + " is out of range 1.." + std::to_string(nodes)};
        u = a - 1;
        v = b - 1;
        w = static_cast<double>(c.next_int("arc weight"));
        check_weight(w, true, false);
        c.expect_end("the arc weight");
      });
  if (edges.size() != arcs)
    throw InputError(path, line,
                     "the problem line declares " + std::to_string(arcs) + " arcs but the file has " +
                         std::to_string(edges.size()) + " (truncated file?)");
  if (arcs == 0) throw InputError(path, line, "the file has no arcs: a graph needs at least one edge");
  edges.num_vertices = nodes;
  edges.weight_kind = WeightKind::kInteger;
  return edges;
}

}  // namespace numagraph::io
