#include "dist_csr.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "exchange.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

VertexBlocks balanced_blocks(std::int64_t n, std::int64_t lo, const std::vector<std::int64_t>& weight, MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  std::int64_t mine = 0;
  for (auto w : weight) mine += w;
  std::int64_t before = 0;
  check(MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm), "MPI_Exscan");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) before = 0;
  const std::int64_t total = sum_all(mine, comm);
  // Block k starts at the first vertex whose preceding weight reaches k * total / p.
  std::vector<std::int64_t> cut(static_cast<std::size_t>(p) + 1, 0);
  std::int64_t acc = before;
  int k = 1;
  while (k < p && static_cast<__int128>(k) * total <= static_cast<__int128>(acc) * p) ++k;  // cuts before my run
  for (std::size_t i = 0; i < weight.size() && k < p; ++i) {
    acc += weight[i];
    while (k < p && static_cast<__int128>(k) * total <= static_cast<__int128>(acc) * p) {
      cut[k] = lo + static_cast<std::int64_t>(i) + 1;
      ++k;
    }
  }
  std::vector<std::int64_t> all(cut.size());
  check(MPI_Allreduce(cut.data(), all.data(), p + 1, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce(blocks)");
  VertexBlocks b;
  b.begin = std::move(all);
  b.begin[0] = 0;
  b.begin[p] = n;
  // Cuts nobody set (no weight at all) and any disorder fall back to monotone.
  for (int r = 1; r < p; ++r) b.begin[r] = std::clamp(b.begin[r], b.begin[r - 1], n);
  return b;
}

}  // namespace numagraph::dist
