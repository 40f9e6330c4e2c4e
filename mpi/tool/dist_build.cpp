#include "dist_build.hpp"

#include <omp.h>

#include <algorithm>

#include "carve.hpp"
#include "exchange.hpp"
#include "consumed_pages.hpp"
#include "local_lists.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

// Edges per rank and round: bounds the send buffer (two arcs per edge at most).
constexpr std::int64_t kRoundEdges = std::int64_t{1} << 20;

// Sends the arcs emit(i, put) makes of my edges i in [0, m) to the owners of
// their rows and appends what arrives to `into`, which is sized once and
// exactly (a first pass counts). Rounds of kRoundEdges edges, one
// MPI_Alltoallv each, bound the send buffer; the send buffer is filled in
// place (count, then write). After each round, consumed(hi) says that edges
// below hi are done with.
template <typename A, typename Emit, typename Consumed>
void shuffle(std::int64_t m, const VertexBlocks& blocks, int p, MPI_Comm c, std::vector<A>& into, Emit&& emit,
             Consumed&& consumed) {
  const int threads = parallel::max_threads();
  auto count_range = [&](std::int64_t lo, std::int64_t hi, std::vector<std::int64_t>& cnt) {
    cnt.assign(static_cast<std::size_t>(threads) * p, 0);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
      std::int64_t* mine = &cnt[static_cast<std::size_t>(t) * p];
      const std::int64_t n = hi - lo;
      for (std::int64_t i = lo + n * t / nt, e = lo + n * (t + 1) / nt; i < e; ++i)
        emit(i, [&](std::uint64_t row, std::uint64_t, weight_t) { ++mine[blocks.owner(row)]; });
    }
  };
  std::vector<std::int64_t> cnt;
  {
    count_range(0, m, cnt);
    std::vector<std::int64_t> to(static_cast<std::size_t>(p), 0), from(static_cast<std::size_t>(p), 0);
    for (int t = 0; t < threads; ++t)
      for (int d = 0; d < p; ++d) to[d] += cnt[static_cast<std::size_t>(t) * p + d];
    check(MPI_Alltoall(to.data(), 1, MPI_INT64_T, from.data(), 1, MPI_INT64_T, c), "MPI_Alltoall");
    std::int64_t total = 0;
    for (auto f : from) total += f;
    into.reserve(into.size() + static_cast<std::size_t>(total));
  }
  const std::int64_t rounds = max_all((m + kRoundEdges - 1) / kRoundEdges, c);
  std::vector<A> packed;
  std::vector<std::int64_t> pos;
  std::vector<int> sc(static_cast<std::size_t>(p)), sd(static_cast<std::size_t>(p)), rc(static_cast<std::size_t>(p)),
      rd(static_cast<std::size_t>(p));
  for (std::int64_t r = 0; r < rounds; ++r) {
    const std::int64_t lo = std::min(m, r * kRoundEdges), hi = std::min(m, lo + kRoundEdges);
    count_range(lo, hi, cnt);
    pos.assign(cnt.size(), 0);
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
    packed.resize(static_cast<std::size_t>(total));
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
      std::int64_t* at = &pos[static_cast<std::size_t>(t) * p];
      const std::int64_t n = hi - lo;
      for (std::int64_t i = lo + n * t / nt, e = lo + n * (t + 1) / nt; i < e; ++i)
        emit(i, [&](std::uint64_t row, std::uint64_t col, weight_t w) {
          const int d = blocks.owner(row);
          packed[static_cast<std::size_t>(at[d]++)] =
              make_arc<A>(col, static_cast<std::uint32_t>(static_cast<std::int64_t>(row) - blocks.begin[d]), w);
        });
    }
    check(MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, c), "MPI_Alltoall");
    std::int64_t received = 0;
    for (int d = 0; d < p; ++d) {
      rd[d] = mpi_count(received, "the arc shuffle");
      received += rc[d];
    }
    const std::size_t base = into.size();
    into.resize(base + static_cast<std::size_t>(received));
    check(MPI_Alltoallv(packed.data(), sc.data(), sd.data(), item_type<A>(), into.data() + base, rc.data(),
                        rd.data(), item_type<A>(), c),
          "MPI_Alltoallv(arcs)");
    consumed(hi);
  }
}

// Arc ends per vertex of a provisional even split, from every k-th edge.
VertexBlocks cut_blocks(const EdgeList& e, std::int64_t n, bool undirected, ArcWork w, MPI_Comm c, int p, int me) {
  const auto m = static_cast<std::int64_t>(e.size());
  constexpr std::int64_t kSampleTarget = std::int64_t{1} << 20;
  const std::int64_t stride = std::max<std::int64_t>(1, max_all(m, c) / kSampleTarget);
  const std::int64_t lo = n * me / p, hi = n * (me + 1) / p;
  std::vector<std::vector<std::uint64_t>> send(static_cast<std::size_t>(p));
  auto owner_of = [&](std::uint64_t v) { return even_owner(v, n, p); };
  // An edge is an out-arc of its source and an in-arc of its target; an
  // undirected edge is an arc of both ends.
  const bool count_src = undirected || w != ArcWork::kIn, count_dst = undirected || w != ArcWork::kOut;
  for (std::int64_t i = 0; i < m; i += stride) {
    if (count_src) send[owner_of(e.src[i])].push_back(e.src[i]);
    if (count_dst) send[owner_of(e.dst[i])].push_back(e.dst[i]);
  }
  const Received<std::uint64_t> got = exchange(send, c, "the block cut");
  std::vector<std::int64_t> work(static_cast<std::size_t>(hi - lo), 1);
  for (std::uint64_t v : got.items) work[static_cast<std::size_t>(static_cast<std::int64_t>(v) - lo)] += stride;
  return balanced_blocks(n, lo, work, c);
}

}  // namespace

template <typename A>
void turn_around(const std::vector<A>& out, std::int64_t first, const VertexBlocks& blocks, MPI_Comm c,
                 std::vector<A>& into) {
  int p = 1;
  MPI_Comm_size(c, &p);
  const auto base = static_cast<std::uint64_t>(first);
  shuffle(static_cast<std::int64_t>(out.size()), blocks, p, c, into, [&](std::int64_t i, auto&& put) {
    put(out[i].col, base + out[i].row, out[i].weight());
  }, [](std::int64_t) {});
}
template void turn_around<Arc>(const std::vector<Arc>&, std::int64_t, const VertexBlocks&, MPI_Comm, std::vector<Arc>&);
template void turn_around<BareArc>(const std::vector<BareArc>&, std::int64_t, const VertexBlocks&, MPI_Comm,
                                   std::vector<BareArc>&);

DistCsr build_dist_csr(EdgeList& e, std::int64_t n, bool undirected, bool drop_self_loops, bool dedupe, ArcWork work,
                       MPI_Comm c, BuildCounts& counts) {
  DistCsr g;
  g.comm = c;
  MPI_Comm_rank(c, &g.rank);
  MPI_Comm_size(c, &g.ranks);
  g.n = n;
  g.directed = !undirected;
  g.weighted = e.weighted();
  double t = MPI_Wtime();
  g.blocks = cut_blocks(e, n, undirected, work, c, g.ranks, g.rank);
  g.first = g.blocks.begin[g.rank];
  g.local_n = g.blocks.begin[g.rank + 1] - g.first;
  require_addressable_blocks(g.blocks);
  counts.cut_s = MPI_Wtime() - t;
  t = MPI_Wtime();
  // Out-arcs first, from my edges, which then go; in-arcs are the out-arcs
  // turned around, sent on by the rank that received them. So the edge list
  // and both arc sets are never held at once.
  const bool weighted = g.weighted;
  auto build = [&](auto arc_kind) {
    using A = decltype(arc_kind);
    std::vector<A> out, in;
    // The edge list's pages go back as the rounds consume them, so it and
    // the arcs that arrive are not both held whole.
    auto pages_of = [](auto& a) { return a.is_view() ? ConsumedPages() : ConsumedPages(a.data(), a.bytes()); };
    ConsumedPages src_pages = pages_of(e.src), dst_pages = pages_of(e.dst), weight_pages = pages_of(e.weights);
    shuffle(static_cast<std::int64_t>(e.size()), g.blocks, g.ranks, c, out, [&](std::int64_t i, auto&& put) {
      const weight_t w = weighted ? e.weights[i] : weight_t{1};
      put(e.src[i], e.dst[i], w);
      if (undirected && e.src[i] != e.dst[i]) put(e.dst[i], e.src[i], w);
    }, [&](std::int64_t done) {
      src_pages.upto(static_cast<std::size_t>(done) * sizeof(std::uint64_t));
      dst_pages.upto(static_cast<std::size_t>(done) * sizeof(std::uint64_t));
      if (weighted) weight_pages.upto(static_cast<std::size_t>(done) * sizeof(weight_t));
    });
    e.src = {};
    e.dst = {};
    e.weights = {};
    // The edge arrays would wait in the recycle bin (numa/memory.hpp) for a
    // kernel's scratch; here they would only raise the load's peak.
    numa::release_recycled();
    if (!undirected) turn_around(out, g.first, g.blocks, c, in);
    counts.shuffle_s = MPI_Wtime() - t;
    t = MPI_Wtime();
    return finish_local_csr(g, std::move(out), std::move(in), drop_self_loops, dedupe);
  };
  const LocalListCounts lc = weighted ? build(Arc{}) : build(BareArc{});
  counts.self_loops_removed = sum_all(lc.self_loops_removed, c);
  counts.duplicates_removed = sum_all(lc.duplicates_removed, c);
  counts.self_loops_kept = sum_all(lc.self_loops_kept, c);
  counts.lists_s = MPI_Wtime() - t;
  return g;
}

}  // namespace numagraph::dist
