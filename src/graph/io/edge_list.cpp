// Edge lists: .el (u v), .wel (u v w) and SNAP .txt (u v). Comment lines
// start with '#' or '%'; columns are separated by any blanks (or commas).
// Ids are 0-based and may be any value below 2^63 (sparse ids are compacted
// by the builder's relabelling). Edges are directed unless -s is given.
#include <omp.h>

#include <atomic>
#include <cmath>

#include "edge_lines.hpp"
#include "readers.hpp"

namespace numagraph::io {

EdgeList read_edge_list_text(const std::string& path, bool weighted) {
  TextFile file(path);
  const auto chunks = split_lines(file.data(), file.data() + file.size(), 1, 4 * omp_get_max_threads());
  auto is_data = [](const char* b, const char* e) { return !is_blank_or_comment(b, e, "#%"); };
  std::atomic<bool> integral{true};
  EdgeList edges = parse_edge_lines(
      file, chunks, weighted, is_data,
      [&](LineCursor& c, std::int64_t, std::uint64_t& u, std::uint64_t& v, double& w) {
        u = c.next_uint("source id");
        v = c.next_uint("target id");
        if (weighted) {
          w = c.next_double("weight");
          if (w != std::floor(w) || std::fabs(w) > static_cast<double>(kMaxExactIntegerWeight))
            integral.store(false, std::memory_order_relaxed);
          check_weight(w, false, true);
          c.expect_end("the weight (a .wel line is: source target weight)");
        } else {
          c.expect_end("the target id (an edge-list line is: source target; use .wel for weights)");
        }
      });
  if (edges.size() == 0)
    throw InputError(path, 0, "no edges found (empty file or only comments); an edge list needs lines 'source target'");
  if (weighted) edges.weight_kind = integral ? WeightKind::kInteger : WeightKind::kReal;
  return edges;
}

}  // namespace numagraph::io
