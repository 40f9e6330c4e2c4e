#include "dist_build.hpp"

#include <omp.h>

#include <algorithm>

#include "carve.hpp"
#include "exchange.hpp"
#include "neighbor_lists.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

namespace {

struct Arc {
  std::uint64_t row;  // the vertex whose list holds the arc
  std::uint64_t col;  // the other end
  weight_t w;
};

// Sends every arc that want(i, emit) emits to the owner of its row; one
// MPI_Alltoallv, the send buffer filled in place (count, then write).
template <typename Emit>
Received<Arc> shuffle(std::int64_t m, const VertexBlocks& blocks, int p, MPI_Comm c, Emit&& emit) {
  const int threads = parallel::max_threads();
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(threads) * p, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    std::int64_t* mine = &cnt[static_cast<std::size_t>(t) * p];
    for (std::int64_t i = m * t / nt, hi = m * (t + 1) / nt; i < hi; ++i)
      emit(i, [&](const Arc& a) { ++mine[blocks.owner(a.row)]; });
  }
  std::vector<std::int64_t> pos(cnt.size());
  std::vector<int> sc(static_cast<std::size_t>(p)), sd(static_cast<std::size_t>(p)), rc(static_cast<std::size_t>(p)),
      rd(static_cast<std::size_t>(p));
  std::int64_t total = 0;
  for (int d = 0; d < p; ++d) {
    const std::int64_t start = total;
    for (int t = 0; t < threads; ++t) {
      pos[static_cast<std::size_t>(t) * p + d] = total;
      total += cnt[static_cast<std::size_t>(t) * p + d];
    }
    sd[d] = mpi_count(start, "the arc shuffle");
    sc[d] = mpi_count(total - start, "the arc shuffle");
  }
  std::vector<Arc> packed(static_cast<std::size_t>(total));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    std::int64_t* at = &pos[static_cast<std::size_t>(t) * p];
    for (std::int64_t i = m * t / nt, hi = m * (t + 1) / nt; i < hi; ++i)
      emit(i, [&](const Arc& a) { packed[static_cast<std::size_t>(at[blocks.owner(a.row)]++)] = a; });
  }
  check(MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, c), "MPI_Alltoall");
  Received<Arc> in;
  in.from.assign(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r) {
    rd[r] = mpi_count(in.from[r], "the arc shuffle");
    in.from[r + 1] = in.from[r] + rc[r];
  }
  in.items.resize(static_cast<std::size_t>(in.from[p]));
  check(MPI_Alltoallv(packed.data(), sc.data(), sd.data(), item_type<Arc>(), in.items.data(), rc.data(), rd.data(),
                      item_type<Arc>(), c),
        "MPI_Alltoallv(arcs)");
  return in;
}

// Lists of my vertices from the arcs I received, in arrival order per list
// (a counting sort by row), then sorted and cleaned by the shared builder's code.
CSRArrays<std::uint64_t> lists_of(const std::vector<Arc>& arcs, std::int64_t first, std::int64_t local_n,
                                   bool weighted, bool drop_loops, bool dedupe, build::ListCounts& counts) {
  CSRArrays<std::uint64_t> a;
  const auto m = static_cast<std::int64_t>(arcs.size());
  a.offsets = NumaArray<eid_t>(static_cast<std::size_t>(local_n) + 1);
  parallel::for_static<std::int64_t>(0, local_n + 1, [&](std::int64_t v) { a.offsets[v] = 0; });
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    parallel::fetch_add(a.offsets[static_cast<std::int64_t>(arcs[i].row) - first], eid_t{1});
  });
  parallel::exclusive_prefix_sum(a.offsets.data(), a.offsets.data(), local_n);
  a.neighbors = NumaArray<std::uint64_t>(arcs.size());
  if (weighted) a.weights = NumaArray<weight_t>(arcs.size());
  NumaArray<eid_t> at(static_cast<std::size_t>(local_n));
  parallel::for_static<std::int64_t>(0, local_n, [&](std::int64_t v) { at[v] = a.offsets[v]; });
  // Slots are claimed atomically, so a list's arcs land in any order; the
  // sort below orders every list by (id, weight), as the builder does.
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    const Arc& x = arcs[i];
    const eid_t k = parallel::fetch_add(at[static_cast<std::int64_t>(x.row) - first], eid_t{1});
    a.neighbors[k] = x.col;
    if (weighted) a.weights[k] = x.w;
  });
  counts = build::sort_and_clean_lists(a, local_n, drop_loops, dedupe, static_cast<std::uint64_t>(first));
  return a;
}

// Arc ends per vertex of a provisional even split, from every k-th edge.
VertexBlocks cut_blocks(const EdgeList& e, std::int64_t n, bool undirected, MPI_Comm c, int p, int me) {
  const auto m = static_cast<std::int64_t>(e.size());
  constexpr std::int64_t kSampleTarget = std::int64_t{1} << 20;
  const std::int64_t stride = std::max<std::int64_t>(1, max_all(m, c) / kSampleTarget);
  const std::int64_t lo = n * me / p, hi = n * (me + 1) / p;
  std::vector<std::vector<std::uint64_t>> send(static_cast<std::size_t>(p));
  auto provisional = [&](std::uint64_t v) {
    return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(p) - 1,
                                                    (static_cast<unsigned __int128>(v) * p + p - 1) / std::max<std::int64_t>(n, 1)));
  };
  // The provisional owner of v: the r with n*r/p <= v < n*(r+1)/p.
  auto owner_of = [&](std::uint64_t v) {
    int r = provisional(v);
    while (r > 0 && static_cast<std::int64_t>(v) < n * r / p) --r;
    while (r + 1 < p && static_cast<std::int64_t>(v) >= n * (r + 1) / p) ++r;
    return r;
  };
  for (std::int64_t i = 0; i < m; i += stride) {
    send[owner_of(e.src[i])].push_back(e.src[i]);
    send[owner_of(e.dst[i])].push_back(e.dst[i]);  // an in-arc (directed) or the reverse arc (undirected)
  }
  (void)undirected;
  const Received<std::uint64_t> got = exchange(send, c, "the block cut");
  std::vector<std::int64_t> work(static_cast<std::size_t>(hi - lo), 1);
  for (std::uint64_t v : got.items) work[static_cast<std::size_t>(static_cast<std::int64_t>(v) - lo)] += stride;
  return balanced_blocks(n, lo, work, c);
}

}  // namespace

DistCsr build_dist_csr(EdgeList& e, std::int64_t n, bool undirected, bool drop_self_loops, bool dedupe, MPI_Comm c,
                       BuildCounts& counts) {
  DistCsr g;
  g.comm = c;
  MPI_Comm_rank(c, &g.rank);
  MPI_Comm_size(c, &g.ranks);
  g.n = n;
  g.directed = !undirected;
  g.weighted = e.weighted();
  double t = MPI_Wtime();
  g.blocks = cut_blocks(e, n, undirected, c, g.ranks, g.rank);
  g.first = g.blocks.begin[g.rank];
  g.local_n = g.blocks.begin[g.rank + 1] - g.first;
  counts.cut_s = MPI_Wtime() - t;
  t = MPI_Wtime();
  const auto m = static_cast<std::int64_t>(e.size());
  const bool weighted = g.weighted;
  auto weight = [&](std::int64_t i) { return weighted ? e.weights[i] : weight_t{1}; };
  Received<Arc> out = shuffle(m, g.blocks, g.ranks, c, [&](std::int64_t i, auto&& put) {
    put(Arc{e.src[i], e.dst[i], weight(i)});
    if (undirected && e.src[i] != e.dst[i]) put(Arc{e.dst[i], e.src[i], weight(i)});
  });
  Received<Arc> in;
  if (!undirected)
    in = shuffle(m, g.blocks, g.ranks, c,
                 [&](std::int64_t i, auto&& put) { put(Arc{e.dst[i], e.src[i], weight(i)}); });
  e.src = {};
  e.dst = {};
  e.weights = {};
  counts.shuffle_s = MPI_Wtime() - t;
  t = MPI_Wtime();
  build::ListCounts oc, ic;
  CSRArrays<std::uint64_t> out_lists = lists_of(out.items, g.first, g.local_n, weighted, drop_self_loops, dedupe, oc);
  out = {};
  CSRArrays<std::uint64_t> in_lists;
  if (!undirected) {
    in_lists = lists_of(in.items, g.first, g.local_n, weighted, drop_self_loops, dedupe, ic);
    in = {};
  }
  counts.self_loops_removed = sum_all(oc.loops_removed, c);
  counts.duplicates_removed = sum_all(oc.duplicates_removed, c);
  counts.self_loops_kept = sum_all(oc.loops_kept, c);
  finish_local_csr(g, std::move(out_lists), std::move(in_lists));
  counts.lists_s = MPI_Wtime() - t;
  return g;
}

}  // namespace numagraph::dist
