#include "dist_csr.hpp"

#include <parallel/algorithm>

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

namespace {

CSRArrays<std::uint32_t> to_local(const DistCsr& g, const CSRArrays<std::uint64_t>& a) {
  CSRArrays<std::uint32_t> out;
  const std::int64_t n = g.local_n;
  out.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1);
  parallel::for_static<std::int64_t>(0, n + 1, [&](std::int64_t i) { out.offsets[i] = a.offsets[i]; });
  const auto m = static_cast<std::int64_t>(n == 0 ? 0 : a.offsets[n]);
  out.neighbors = NumaArray<std::uint32_t>(static_cast<std::size_t>(m));
  const auto first = static_cast<std::uint64_t>(g.first), last = first + static_cast<std::uint64_t>(g.local_n);
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t j) {
    const std::uint64_t v = a.neighbors[j];
    if (v >= first && v < last) {
      out.neighbors[j] = static_cast<std::uint32_t>(v - first);
    } else {
      const auto it = std::lower_bound(g.ghost_global.begin(), g.ghost_global.end(), v);
      out.neighbors[j] = static_cast<std::uint32_t>(g.local_n + (it - g.ghost_global.begin()));
    }
  });
  if (!a.weights.empty()) {
    out.weights = NumaArray<weight_t>(static_cast<std::size_t>(m));
    parallel::for_static<std::int64_t>(0, m, [&](std::int64_t j) { out.weights[j] = a.weights[j]; });
  }
  return out;
}

// The far ends of my arcs that I do not own, sorted and distinct.
void collect_ghosts(const DistCsr& g, const CSRArrays<std::uint64_t>& a, std::vector<std::uint64_t>& ghosts) {
  const std::int64_t m = g.local_n == 0 ? 0 : static_cast<std::int64_t>(a.offsets[g.local_n]);
  const int threads = parallel::max_threads();
  std::vector<std::vector<std::uint64_t>> part(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id(), nt = parallel::num_threads_in_region();
    std::vector<std::uint64_t>& mine = part[static_cast<std::size_t>(t)];
    for (std::int64_t j = m * t / nt, hi = m * (t + 1) / nt; j < hi; ++j)
      if (!g.owns(a.neighbors[j])) mine.push_back(a.neighbors[j]);
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  }
  for (const auto& p : part) ghosts.insert(ghosts.end(), p.begin(), p.end());
}

}  // namespace

void finish_local_csr(DistCsr& g, CSRArrays<std::uint64_t>&& out_global, CSRArrays<std::uint64_t>&& in_global) {
  std::vector<std::uint64_t> ghosts;
  collect_ghosts(g, out_global, ghosts);
  if (g.directed) collect_ghosts(g, in_global, ghosts);
  __gnu_parallel::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  if (g.local_n + static_cast<std::int64_t>(ghosts.size()) >= (std::int64_t{1} << 32) - 1)
    throw ResourceError("rank " + std::to_string(g.rank) + " would hold " + std::to_string(g.local_n) +
                        " vertices and " + std::to_string(ghosts.size()) +
                        " ghosts, more than 32-bit local indices address: run with more ranks");
  g.ghost_global = std::move(ghosts);
  g.ghost_from.assign(static_cast<std::size_t>(g.ranks) + 1, 0);
  for (int r = 0; r < g.ranks; ++r)
    g.ghost_from[r + 1] = std::lower_bound(g.ghost_global.begin(), g.ghost_global.end(),
                                           static_cast<std::uint64_t>(g.blocks.begin[r + 1])) -
                          g.ghost_global.begin();
  // Tell every owner which of its vertices I mirror, in my ghost order.
  std::vector<std::vector<std::uint64_t>> ask(static_cast<std::size_t>(g.ranks));
  for (int r = 0; r < g.ranks; ++r)
    ask[r].assign(g.ghost_global.begin() + g.ghost_from[r], g.ghost_global.begin() + g.ghost_from[r + 1]);
  const Received<std::uint64_t> asked = exchange(ask, g.comm, "the ghost lists");
  g.mirror_from = asked.from;
  g.mirror_local.resize(asked.items.size());
  for (std::size_t i = 0; i < asked.items.size(); ++i)
    g.mirror_local[i] = static_cast<std::uint32_t>(asked.items[i] - static_cast<std::uint64_t>(g.first));
  g.out = to_local(g, out_global);
  out_global = {};
  if (g.directed) g.in = to_local(g, in_global);
  in_global = {};
  g.global_arcs = sum_all(g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]), g.comm);
}

}  // namespace numagraph::dist
