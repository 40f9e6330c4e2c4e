#include "carve.hpp"

#include <vector>

#include "local_lists.hpp"

namespace numagraph::dist {

namespace {

// The arcs of vertices [first, first + count) of a whole graph's lists.
std::vector<Arc> block_arcs(const CSRArrays<std::uint32_t>& a, std::int64_t first, std::int64_t count) {
  std::vector<Arc> arcs;
  arcs.reserve(static_cast<std::size_t>(a.offsets[first + count] - a.offsets[first]));
  for (std::int64_t v = first; v < first + count; ++v)
    for (eid_t j = a.offsets[v]; j < a.offsets[v + 1]; ++j)
      arcs.push_back({a.neighbors[j], static_cast<std::uint32_t>(v - first), a.weights.empty() ? weight_t{1} : a.weights[j]});
  return arcs;
}

}  // namespace

DistCsr carve(const CSRGraph<std::uint32_t>& whole, MPI_Comm comm, ArcWork w) {
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
                               whole.in_degree(static_cast<std::uint32_t>(v)), g.directed, w);
  g.blocks = balanced_blocks(g.n, lo, work, comm);
  g.first = g.blocks.begin[g.rank];
  g.local_n = g.blocks.begin[g.rank + 1] - g.first;
  std::vector<Arc> in;
  if (g.directed) in = block_arcs(whole.in_arrays(), g.first, g.local_n);
  // The whole graph's lists are already clean: keep every arc as it is.
  finish_local_csr(g, block_arcs(whole.out(), g.first, g.local_n), std::move(in), false, false);
  return g;
}

}  // namespace numagraph::dist
