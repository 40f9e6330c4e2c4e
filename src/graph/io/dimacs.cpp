// DIMACS shortest-path files (9th challenge, .gr): 'c' comment lines, one
// problem line 'p sp <nodes> <arcs>', then arc lines 'a <u> <v> <w>' with
// 1-based ids and non-negative integer weights (zero allowed, as in the
// challenge's generators). Arcs are directed. Count mismatches are reported
// at the problem line that declares the counts.
#include <omp.h>

#include <algorithm>

#include "edge_lines.hpp"
#include "part_readers.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

// The problem line, which every part reads from the file's head.
struct DimacsHead {
  std::uint64_t nodes = 0, arcs = 0;
  std::int64_t problem_line = 0;
  std::size_t data = 0;  // the byte after the problem line: the arcs start there
};

DimacsHead read_head(const TextFile& file) {
  const std::string& path = file.path();
  const char* p = file.data();
  const char* end = p + file.size();
  std::int64_t line = 0;
  DimacsHead head;
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
        head.nodes = c.next_uint("node count");
        head.arcs = c.next_uint("arc count");
        c.expect_end("the arc count");
      } catch (const LineError& err) {
        throw InputError(path, line, err.message);
      }
      found = true;
    }
    p = nl ? nl + 1 : end;
  }
  if (!found) throw InputError(path, 0, "no problem line 'p sp <nodes> <arcs>' (empty file?)");
  head.problem_line = line;
  head.data = static_cast<std::size_t>(p - file.data());
  return head;
}

struct DimacsScan : PartScan {
  EdgeList edges;
  std::string error_message;
};

}  // namespace

std::unique_ptr<PartScan> scan_dimacs_part(const PartScope& part, const ReadOptions& options) {
  const DimacsHead head = read_head(part.file);
  auto scan = std::make_unique<DimacsScan>();
  scan->mine = new_body(Format::kDimacs, options);
  // The part's arcs: its lines after the problem line.
  const std::size_t begin = std::max(part.begin, head.data);
  const std::int64_t first_line = part.begin >= head.data ? part.first_line : head.problem_line + 1;
  const char* b = part.file.data() + std::min(begin, part.end);
  const auto chunks = split_lines(b, part.data_end(), first_line, 4 * omp_get_max_threads());
  const std::uint64_t nodes = head.nodes;
  ErrorSlot error;
  scan->edges = parse_edge_lines(
      part.path(), chunks, true, [](const char* lb, const char* le) { return !is_blank_or_comment(lb, le, "c"); },
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
      },
      error);
  scan->data_lines = static_cast<std::int64_t>(scan->edges.size());
  if (error.set()) {
    scan->mine.edge_error = error.line();
    scan->error_message = error.message();
  }
  return scan;
}

void check_dimacs_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines) {
  const DimacsHead head = read_head(file);
  if (whole.edge_error) return;  // a bad arc line comes first: read_dimacs_part reports it
  const auto arcs = static_cast<std::uint64_t>(data_lines);
  if (arcs != head.arcs)
    throw InputError(file.path(), head.problem_line,
                     "the problem line declares " + std::to_string(head.arcs) + " arcs but the file has " +
                         std::to_string(arcs) + " (truncated file?)");
  if (head.arcs == 0)
    throw InputError(file.path(), head.problem_line, "the file has no arcs: a graph needs at least one edge");
}

PartEdges read_dimacs_part(const PartScope& part, PartScan& scan, const FactsBody& whole) {
  const DimacsHead head = read_head(part.file);
  auto& mine = static_cast<DimacsScan&>(scan);
  PartEdges out;
  if (whole.edge_error) {
    if (mine.mine.edge_error == whole.edge_error) throw InputError(part.path(), whole.edge_error, mine.error_message);
    out.edges.source_name = part.path();
    return out;
  }
  out.edges = std::move(mine.edges);
  out.edges.num_vertices = head.nodes;
  out.edges.weight_kind = WeightKind::kInteger;
  return out;
}

}  // namespace numagraph::io
