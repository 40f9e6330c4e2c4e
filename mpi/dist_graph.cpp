#include "dist_graph.hpp"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

// Edges generated and exchanged per round: bounds the transient buffers and
// keeps every MPI count below INT_MAX.
constexpr std::int64_t kRoundEdges = std::int64_t{1} << 23;

int to_count(std::int64_t c, const char* what) {
  if (c > INT_MAX)
    throw ResourceError(std::string(what) + " exceeds 2^31 - 1 words in one MPI call: use more ranks");
  return static_cast<int>(c);
}

// Sends both directions of the edges [lo, hi) to the owners of their sources
// and appends what this rank receives to `arcs` (packed source << 32 | target).
void exchange_round(const Layout& l, const Partition& part, const std::uint64_t* src, const std::uint64_t* dst,
                    std::int64_t count, std::vector<std::uint64_t>& arcs) {
  const int p = l.size;
  const int threads = parallel::max_threads();
  // Two passes over the same static thread ranges: count per (thread, rank),
  // then write at precomputed positions, so the scatter needs no atomics.
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(threads) * p, 0);
  auto owner = [&](std::uint64_t v) { return l.rank_of_block[part.block_of(v)]; };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t lo = count * t / nt, hi = count * (t + 1) / nt;
    std::int64_t* c = &cnt[static_cast<std::size_t>(t) * p];
    for (std::int64_t i = lo; i < hi; ++i) {
      if (src[i] == dst[i]) continue;
      ++c[owner(src[i])];
      ++c[owner(dst[i])];
    }
  }
  std::vector<int> send_counts(p), send_displs(p), recv_counts(p), recv_displs(p);
  std::vector<std::int64_t> pos(cnt.size());
  std::int64_t total = 0;
  for (int d = 0; d < p; ++d) {
    const std::int64_t start = total;
    for (int t = 0; t < threads; ++t) {
      pos[static_cast<std::size_t>(t) * p + d] = total;
      total += cnt[static_cast<std::size_t>(t) * p + d];
    }
    send_displs[d] = to_count(start, "the edge exchange");
    send_counts[d] = to_count(total - start, "the edge exchange");
  }
  std::vector<std::uint64_t> send(static_cast<std::size_t>(total));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t lo = count * t / nt, hi = count * (t + 1) / nt;
    std::int64_t* at = &pos[static_cast<std::size_t>(t) * p];
    for (std::int64_t i = lo; i < hi; ++i) {
      const std::uint64_t u = src[i], v = dst[i];
      if (u == v) continue;
      send[static_cast<std::size_t>(at[owner(u)]++)] = u << 32 | v;
      send[static_cast<std::size_t>(at[owner(v)]++)] = v << 32 | u;
    }
  }
  check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, l.world), "MPI_Alltoall");
  std::int64_t received = 0;
  for (int d = 0; d < p; ++d) {
    recv_displs[d] = to_count(received, "the edge exchange");
    received += recv_counts[d];
  }
  to_count(received, "the edge exchange");
  const std::size_t base = arcs.size();
  arcs.resize(base + static_cast<std::size_t>(received));
  check(MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, arcs.data() + base,
                      recv_counts.data(), recv_displs.data(), MPI_UINT64_T, l.world),
        "MPI_Alltoallv(edges)");
}

// CSR of the received arcs: count, prefix-sum, scatter, then sort and
// deduplicate each list and compact.
void build_csr(DistGraph& g, const std::vector<std::uint64_t>& arcs) {
  const std::int64_t n = g.local_n, m = static_cast<std::int64_t>(arcs.size());
  NumaArray<eid_t> start(static_cast<std::size_t>(n) + 1);
  parallel::for_static<std::int64_t>(0, n + 1, [&](std::int64_t i) { start[i] = 0; });
  const auto first = static_cast<std::uint64_t>(g.first);
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    parallel::fetch_add(start[(arcs[i] >> 32) - first], eid_t{1});
  });
  parallel::exclusive_prefix_sum(start.data(), start.data(), n);
  NumaArray<eid_t> cursor(static_cast<std::size_t>(n));
  parallel::for_static<std::int64_t>(0, n, [&](std::int64_t i) { cursor[i] = start[i]; });
  NumaArray<std::uint32_t> raw(static_cast<std::size_t>(m));
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    const eid_t at = parallel::fetch_add(cursor[(arcs[i] >> 32) - first], eid_t{1});
    raw[at] = static_cast<std::uint32_t>(arcs[i]);
  });
  NumaArray<eid_t> kept(static_cast<std::size_t>(n) + 1);
  kept[n] = 0;
  parallel::for_dynamic<std::int64_t>(0, n, [&](std::int64_t v) {
    std::uint32_t* b = raw.data() + start[v];
    std::uint32_t* e = raw.data() + start[v + 1];
    std::sort(b, e);
    kept[v] = std::unique(b, e) - b;
  }, 256);
  parallel::exclusive_prefix_sum(kept.data(), kept.data(), n);
  g.offsets = std::move(kept);
  g.adj = NumaArray<std::uint32_t>(static_cast<std::size_t>(g.offsets[n]));
  parallel::for_dynamic<std::int64_t>(0, n, [&](std::int64_t v) {
    std::copy(raw.data() + start[v], raw.data() + start[v] + g.degree(v), g.adj.data() + g.offsets[v]);
  }, 256);
}

double max_over_ranks(double x, MPI_Comm comm) {
  double r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return r;
}

}  // namespace

Partition::Partition(std::int64_t vertices, int num_blocks) : n(vertices), blocks(num_blocks) {
  const std::int64_t per = (n + blocks - 1) / blocks;
  block_len = std::max<std::int64_t>(64, (per + 63) / 64 * 64);
}

std::int64_t Partition::begin(int b) const { return std::min(n, b * block_len); }
std::int64_t Partition::end(int b) const { return std::min(n, (b + 1) * block_len); }

DistGraph build_kronecker(const Layout& l, const GeneratorOptions& o) {
  if (o.scale < 1 || o.scale > 32)
    throw UsageError("--scale must be in 1..32 for numagraph-graph500 (got " + std::to_string(o.scale) + ")");
  if (o.edge_factor < 1) throw UsageError("--edge-factor must be at least 1");
  DistGraph g;
  const std::int64_t n = std::int64_t{1} << o.scale;
  const std::int64_t m = n * o.edge_factor;
  g.part = Partition(n, l.size);
  g.first = g.part.begin(l.my_block);
  g.local_n = g.part.end(l.my_block) - g.first;

  // My share of the edge list: [lo, hi), split evenly by block number.
  const std::int64_t per = m / l.size, extra = m % l.size, b = l.my_block;
  const std::int64_t lo = per * b + std::min(b, extra), hi = lo + per + (b < extra ? 1 : 0);
  std::int64_t rounds = (hi - lo + kRoundEdges - 1) / kRoundEdges, max_rounds = 0;
  check(MPI_Allreduce(&rounds, &max_rounds, 1, MPI_INT64_T, MPI_MAX, l.world), "MPI_Allreduce");

  std::vector<std::uint64_t> arcs;
  arcs.reserve(static_cast<std::size_t>(2 * m / l.size + m / (8 * l.size)));
  NumaArray<std::uint64_t> src(static_cast<std::size_t>(std::min(hi - lo, kRoundEdges)));
  NumaArray<std::uint64_t> dst(src.size());
  double gen = 0, exchange = 0;
  MPI_Barrier(l.world);
  for (std::int64_t r = 0; r < max_rounds; ++r) {
    const std::int64_t a = std::min(hi, lo + r * kRoundEdges), z = std::min(hi, a + kRoundEdges);
    double t = MPI_Wtime();
    if (z > a) kronecker_edges(o, a, z, src.data(), dst.data(), nullptr);
    gen += MPI_Wtime() - t;
    t = MPI_Wtime();
    exchange_round(l, g.part, src.data(), dst.data(), z - a, arcs);
    exchange += MPI_Wtime() - t;
  }
  src = {};
  dst = {};
  const double t = MPI_Wtime();
  build_csr(g, arcs);
  const double csr = MPI_Wtime() - t;
  g.generation_s = max_over_ranks(gen, l.world);
  g.construction_s = max_over_ranks(exchange + csr, l.world);
  std::int64_t local_arcs = g.offsets[g.local_n];
  check(MPI_Allreduce(&local_arcs, &g.global_arcs, 1, MPI_INT64_T, MPI_SUM, l.world), "MPI_Allreduce");
  return g;
}

}  // namespace numagraph::dist
