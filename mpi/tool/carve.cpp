#include "carve.hpp"

namespace numagraph::dist {

namespace {

CSRArrays<std::uint64_t> block_lists(const CSRArrays<std::uint32_t>& a, std::int64_t first, std::int64_t count) {
  CSRArrays<std::uint64_t> out;
  out.offsets = NumaArray<eid_t>(static_cast<std::size_t>(count) + 1);
  const eid_t base = a.offsets[first];
  for (std::int64_t i = 0; i <= count; ++i) out.offsets[i] = a.offsets[first + i] - base;
  const auto m = static_cast<std::size_t>(out.offsets[count]);
  out.neighbors = NumaArray<std::uint64_t>(m);
  for (std::size_t j = 0; j < m; ++j) out.neighbors[j] = a.neighbors[base + j];
  if (!a.weights.empty()) {
    out.weights = NumaArray<weight_t>(m);
    for (std::size_t j = 0; j < m; ++j) out.weights[j] = a.weights[base + j];
  }
  return out;
}

}  // namespace

DistCsr carve(const CSRGraph<std::uint32_t>& whole, MPI_Comm comm) {
  DistCsr g;
  g.comm = comm;
  MPI_Comm_rank(comm, &g.rank);
  MPI_Comm_size(comm, &g.ranks);
  g.n = whole.num_vertices();
  g.directed = whole.directed();
  g.weighted = whole.weighted();
  const std::int64_t lo = g.n * g.rank / g.ranks, hi = g.n * (g.rank + 1) / g.ranks;
  std::vector<std::int64_t> work(static_cast<std::size_t>(hi - lo));
  for (std::int64_t v = lo; v < hi; ++v)
    work[v - lo] = vertex_work(whole.out_degree(static_cast<std::uint32_t>(v)),
                               whole.in_degree(static_cast<std::uint32_t>(v)), g.directed);
  g.blocks = balanced_blocks(g.n, lo, work, comm);
  g.first = g.blocks.begin[g.rank];
  g.local_n = g.blocks.begin[g.rank + 1] - g.first;
  CSRArrays<std::uint64_t> in;
  if (g.directed) in = block_lists(whole.in_arrays(), g.first, g.local_n);
  finish_local_csr(g, block_lists(whole.out(), g.first, g.local_n), std::move(in));
  return g;
}

}  // namespace numagraph::dist
