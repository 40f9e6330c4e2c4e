#include "dist_validate.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>

#include "numagraph/util/error.hpp"

namespace numagraph::dist {

void allgather_depths(const Layout& l, const DistGraph& g, const std::int32_t* depth,
                      std::vector<std::int32_t>& all) {
  if (g.part.n > INT_MAX)
    throw UsageError("validation gathers 2^SCALE depths and supports SCALE <= 30: add --no-validate");
  all.resize(static_cast<std::size_t>(g.part.n));
  std::vector<int> counts(static_cast<std::size_t>(l.size)), displs(static_cast<std::size_t>(l.size));
  for (int r = 0; r < l.size; ++r) {
    const int b = l.block_of_rank[r];
    displs[r] = static_cast<int>(g.part.begin(b));
    counts[r] = static_cast<int>(g.part.end(b) - g.part.begin(b));
  }
  check(MPI_Allgatherv(depth, static_cast<int>(g.local_n), MPI_INT32_T, all.data(), counts.data(), displs.data(),
                       MPI_INT32_T, l.world),
        "MPI_Allgatherv(depths)");
}

Verdict validate_bfs(const Layout& l, const DistGraph& g, std::uint64_t root, const std::int64_t* parent,
                     const std::int32_t* depth, std::vector<std::int32_t>& all) {
  allgather_depths(l, g, depth, all);
  const std::int64_t first = g.first, n = g.part.n;
  const auto r = static_cast<std::int64_t>(root);
  // The lowest failing local vertex and its message.
  std::int64_t bad = std::numeric_limits<std::int64_t>::max();
  std::string why;
  auto fail = [&](std::int64_t v, std::string msg) {
#pragma omp critical(numagraph_validate)
    if (v < bad) {
      bad = v;
      why = std::move(msg);
    }
  };
  auto s = [](std::int64_t x) { return std::to_string(x); };
  if (r >= first && r < first + g.local_n && (parent[r - first] != r || depth[r - first] != 0))
    fail(r, "the root " + s(r) + " must be its own parent at depth 0");
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < g.local_n; ++i) {
    const std::int64_t v = first + i, p = parent[i];
    const std::int32_t d = depth[i];
    if ((p >= 0) != (d >= 0)) {
      fail(v, "vertex " + s(v) + (p >= 0 ? " has a parent but no depth" : " has a depth but no parent"));
      continue;
    }
    if (d < 0) continue;
    const std::uint32_t* b = g.adj.data() + g.offsets[i];
    const std::uint32_t* e = g.adj.data() + g.offsets[i + 1];
    if (v != r) {
      if (d == 0) {
        fail(v, "vertex " + s(v) + " has depth 0 but is not the root");
        continue;
      }
      if (p >= n) {
        fail(v, "vertex " + s(v) + " has parent " + s(p) + ", not a vertex");
        continue;
      }
      if (!std::binary_search(b, e, static_cast<std::uint32_t>(p))) {
        fail(v, "tree edge " + s(p) + " -> " + s(v) + " is not an edge of the graph");
        continue;
      }
      const std::int32_t dp = all[static_cast<std::size_t>(p)];
      if (dp < 0 || d != dp + 1) {
        fail(v, "tree edge " + s(p) + " -> " + s(v) + " joins depths " + s(dp) + " and " + s(d) +
                    " (must differ by exactly 1)");
        continue;
      }
    }
    for (const std::uint32_t* u = b; u != e; ++u) {
      const std::int32_t du = all[*u];
      if (du < 0) {
        fail(v, "vertex " + s(*u) + " is reachable (edge from " + s(v) + ") but not in the tree");
        break;
      }
      if (du > d + 1) {
        fail(v, "edge " + s(v) + " -> " + s(*u) + " joins depths " + s(d) + " and " + s(du) +
                    " (a BFS never leaves a gap)");
        break;
      }
    }
  }
  std::int64_t global_bad = 0;
  check(MPI_Allreduce(&bad, &global_bad, 1, MPI_INT64_T, MPI_MIN, l.world), "MPI_Allreduce");
  Verdict verdict;
  verdict.ok = global_bad == std::numeric_limits<std::int64_t>::max();
  if (verdict.ok) return verdict;
  // The rank holding the first failure sends its message to rank 0.
  const int owner = l.rank_of_block[g.part.block_of(static_cast<std::uint64_t>(global_bad))];
  char text[512] = {};
  if (l.rank == owner) std::strncpy(text, why.c_str(), sizeof(text) - 1);
  if (owner != 0) {
    if (l.rank == owner) check(MPI_Send(text, sizeof(text), MPI_CHAR, 0, 7, l.world), "MPI_Send");
    if (l.rank == 0) check(MPI_Recv(text, sizeof(text), MPI_CHAR, owner, 7, l.world, MPI_STATUS_IGNORE), "MPI_Recv");
  }
  verdict.message = text;
  return verdict;
}

std::int64_t traversed_edges(const Layout& l, const DistGraph& g, const std::int64_t* parent) {
  std::int64_t arcs = 0, total = 0;
#pragma omp parallel for schedule(static) reduction(+ : arcs)
  for (std::int64_t i = 0; i < g.local_n; ++i)
    if (parent[i] >= 0) arcs += g.degree(i);
  check(MPI_Allreduce(&arcs, &total, 1, MPI_INT64_T, MPI_SUM, l.world), "MPI_Allreduce");
  return total / 2;
}

}  // namespace numagraph::dist
