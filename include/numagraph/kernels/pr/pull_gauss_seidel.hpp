// PageRank, pull direction, Gauss-Seidel iteration (gapbs's default `pr`):
// one contribution array is updated in place as soon as a vertex's new score
// is known, so later vertices of the same sweep already see it. It saves
// the separate contribution pass, but it does not always converge faster: on
// Kronecker graphs it needs about twice Jacobi's sweeps to come as close to
// the fixed point, on road networks and most other graphs 0.6-0.85x
// (docs/kernels/pr.md, "Which variant gets closer"). Scores depend slightly
// on the schedule (within the tolerance). Not for the NetworkX-compatible
// mode, whose fixed-point rule is Jacobi's.
// Threads read contributions while other threads overwrite them: that race is
// the Gauss-Seidel method itself (a reader gets the old or the new value, both
// are valid iterates; an aligned float store is one instruction). The reads are
// plain loads on purpose: atomic loads would keep the compiler from
// overlapping them (measured: docs/kernels/pr.md, "Gauss-Seidel's plain loads").
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/sweep/gather_sum.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/pr/pull_gauss_seidel_segmented.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

// Vertices per chunk of a Gauss-Seidel sweep on `threads` threads, in equal
// chunks, the same number for every thread: about gapbs's 16384 vertices
// each (the nearest whole number of them a thread, at least one), and on a
// skewed graph (kernels/static_split.hpp says which) at least
// kGaussSeidelSkewedChunksPerThread a thread, so that hubs even out. Whole
// cache lines of contributions (multiples of 64 vertices), at least
// kGaussSeidelMinChunk. gapbs's fixed 16384 gave soc-Slashdot0902 (82,168
// vertices) 6 chunks for 16 threads, 10 of which idled, and email-Enron
// (36,692) 3 chunks for 2 threads, one of which did two. A graph of at most
// 16384 vertices and kGaussSeidelOneChunkArcs arcs stays one chunk, swept
// by one thread: the unit tests' graphs keep their sweeps free of the
// concurrent reads that Gauss-Seidel makes on purpose (TSan would report
// them). More arcs than that are worth splitting even on few vertices:
// kron14 (16,384 vertices, 426 K arcs) took 1.7x less time on 2 threads.
// Measured: docs/kernels/pr.md, "Chunks for the threads".
inline constexpr std::int64_t kGaussSeidelChunk = 16384;
inline constexpr std::int64_t kGaussSeidelSkewedChunksPerThread = 4;
inline constexpr std::int64_t kGaussSeidelMinChunk = 256;
inline constexpr std::int64_t kGaussSeidelOneChunkArcs = std::int64_t{1} << 18;

// Vertices per chunk when n vertices are cut into about `chunks` equal
// chunks: whole lines of float contributions, at least kGaussSeidelMinChunk.
inline std::int64_t gauss_seidel_equal_chunk(std::int64_t n, std::int64_t chunks) {
  const std::int64_t even = (n + chunks - 1) / chunks;
  return std::max(kGaussSeidelMinChunk, (even + 63) / 64 * 64);
}

inline std::int64_t gauss_seidel_chunk_vertices(std::int64_t n, std::int64_t arcs, int threads, bool skewed) {
  if (n <= kGaussSeidelChunk && arcs <= kGaussSeidelOneChunkArcs) return kGaussSeidelChunk;
  const std::int64_t t = std::max(threads, 1);
  std::int64_t per_thread = std::max<std::int64_t>(1, (n + kGaussSeidelChunk * t / 2) / (kGaussSeidelChunk * t));
  if (skewed) per_thread = std::max(per_thread, kGaussSeidelSkewedChunksPerThread);
  return gauss_seidel_equal_chunk(n, per_thread * t);
}

// Prefetch: the sweep prefetches contributions ahead; ShortLists: lists of
// up to 4 arcs are summed without a loop, and each chunk is swept as two
// halves side by side (gather_sums_of_short_lists_in_pairs; both gather_sum.hpp).
// `chunk`: vertices per chunk (gauss_seidel_chunk_vertices; other sizes for tests and measurements).
template <typename V, typename C, bool Prefetch, bool ShortLists = false>
PageRankResult pagerank_pull_gauss_seidel_with(const CSRGraph<V>& g, const PageRankOptions& o,
                                               std::int64_t chunk = 0) {
  const std::int64_t n = g.num_vertices();
  PageRankResult r;
  // start_pagerank fills both
  r.scores = NumaArray<double>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("ranks"));
  if (n == 0) return r;
  auto contrib = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  const double base = (1 - o.damping) / static_cast<double>(n);
  start_pagerank(g, r, contrib.data());  // the dangling mass is dropped (gapbs's model)
  // Raw pointers, read once: the compiler cannot tell that the stores below
  // leave the graph's and options' fields alone, and reloads them per vertex.
  const eid_t* const in_off = g.in_arrays().offsets.data();
  const V* const in_nb = g.in_arrays().neighbors.data();
  const eid_t* const out_off = g.out().offsets.data();
  // The short-list sweep reads 1 / out-degree from an array (the same bits);
  // the others, on denser graphs, read the degree from the offsets, which on
  // an undirected graph are the in-offsets the sweep reads anyway.
  const auto reciprocals = ShortLists ? out_degree_reciprocals<C>(g) : NumaArray<C>{};
  const C* const reciprocal = reciprocals.data();
  C* const x = contrib.data();
  double* const score = r.scores.data();
  const double damping = o.damping;
  const eid_t last = last_arc(in_off, n);  // the prefetch's bound (gather_sum.hpp)
  // Chunks of consecutive vertices handed out dynamically, each swept with
  // its list pointer carried from vertex to vertex.
  const auto arcs = static_cast<std::int64_t>(g.num_arcs());
  const std::int64_t size =
      chunk > 0 ? chunk : gauss_seidel_chunk_vertices(n, arcs, parallel::max_threads(), !splits_statically(g));
  const std::int64_t chunks = (n + size - 1) / size;
  for (int it = 0; it < o.max_iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    profile::InnerPhase phase("iteration");
    double change = 0;
    // Finishes vertex v from its sum: its score and contribution; returns its change.
    auto finish = [=](std::int64_t v, double sum) {
      const double next = base + damping * sum;
      const double moved = std::fabs(next - score[v]);
      score[v] = next;
      if constexpr (ShortLists)
        x[v] = static_cast<C>(next) * reciprocal[v];
      else
        x[v] = contribution_by_reciprocal<C>(next, out_off[v + 1] - out_off[v]);
      return moved;
    };
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : change)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::int64_t lo = c * size, hi = std::min(n, lo + size);
      if constexpr (ShortLists)
        change += gather_sums_of_short_lists_in_pairs<double>(in_nb, in_off, lo, hi, x, finish);
      else
        change += gather_sums_of_range<Prefetch, double>(in_nb, in_off, lo, hi, last, x, finish);
    }
    r.iterations = it + 1;
    r.last_change = change;
    if (o.tolerance > 0 && change < o.tolerance) break;
  }
  return r;
}

// Sources per cache block of a Gauss-Seidel sweep, or 0. Automatic blocking
// only for a fixed number of sweeps (no tolerance): a run to a tolerance
// stops after few sweeps, and blocking both costs a copy of the edges (about
// two sweeps) and slows the convergence, since a vertex's new score reaches
// the vertices after it only once all its blocks are summed; with a fixed
// number of sweeps blocking wins. An explicit block size is always taken.
// Measured: docs/kernels/pr.md, "When".
inline std::int64_t gauss_seidel_block_width(const CacheBlockRequest& r, double tolerance,
                                             const MachineResources& m) {
  if (r.block_bytes == kAutoBlock && tolerance > 0) return 0;
  return cache_block_width(r, m);
}

template <typename G>
std::int64_t gauss_seidel_block_width(const G& g, const PageRankOptions& o) {
  const CacheBlockRequest r = pagerank_block_request(g, o, sizeof(typename G::vertex_type));
  return decide_on_this_machine([&](const MachineResources& m) { return gauss_seidel_block_width(r, o.tolerance, m); });
}

// Float contributions unless the run needs more precision (see pull_jacobi.hpp).
// When the contributions outgrow the last-level cache and the sweeps are
// fixed, the sweep becomes block Gauss-Seidel over cache blocks
// (pull_gauss_seidel_segmented.hpp; gauss_seidel_block_width decides).
template <typename V>
PageRankResult pagerank_pull_gauss_seidel(const CSRGraph<V>& g, const PageRankOptions& o) {
  if (o.networkx) throw UsageError("the NetworkX-compatible PageRank is a Jacobi iteration: use the jacobi variant");
  const std::int64_t width = gauss_seidel_block_width(g, o);
  return with_contribution_type(o, [&](auto c) {
    using C = decltype(c);
    if (width > 0) return pagerank_pull_gauss_seidel_segmented<V, C>(g, o, width);
    if (prefetch_pays(g.num_vertices(), sizeof(C))) return pagerank_pull_gauss_seidel_with<V, C, true>(g, o);
    return lists_mostly_short(g.in_arrays().offsets.data(), g.num_vertices())
               ? pagerank_pull_gauss_seidel_with<V, C, false, true>(g, o)
               : pagerank_pull_gauss_seidel_with<V, C, false>(g, o);
  });
}

}  // namespace numagraph::kernels
