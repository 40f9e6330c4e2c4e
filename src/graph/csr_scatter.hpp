// Builder: the edges u -> v of an edge list into the lists of their
// sources, by a parallel counting sort (count arcs per source, prefix-sum the
// counts into offsets, write each arc into its source's next free slot).
// For an undirected graph each list also gets room after its forward arcs for
// the reverse arcs (csr_transpose.hpp fills it), so a doubled edge list is
// never materialised.
//
// Slots are handed out one of two ways:
//  - per block (the usual case): the edges are cut into one block per thread,
//    and each block counts into its own array of the vertices. Neither pass
//    needs an atomic, and every list keeps the input order of its arcs, so a
//    sorted input gives sorted lists, which the list sort then only checks.
//  - shared counters with atomic increments, when the arrays of the blocks
//    after the first would cost more than 4 bytes per arc (many threads, few
//    arcs per vertex). The order within lists then depends on timing; the list
//    sort makes the result the same.
// Private to builder.cpp.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/graph/types.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::build {

// Blocks of edges for a counting pass over `arcs` arcs, 1 when per-block
// counters would take too much memory (then the passes use atomics).
inline int count_blocks(std::int64_t n, std::int64_t arcs) {
  const std::int64_t threads = parallel::max_threads();
  return threads == 1 || (threads - 1) * (n + 1) * 2 <= arcs ? static_cast<int>(threads) : 1;
}

// Edge block b of `blocks`: [first_edge(b), first_edge(b + 1)). The blocks
// are loop iterations, so two passes cut the edges alike whatever the team.
inline std::int64_t first_edge(std::int64_t m, int b, int blocks) { return m * b / blocks; }

// Arcs per vertex of ids[0..m) (sources or targets), skipping self-loops
// when asked: one array per block, or one shared array filled atomically.
inline std::vector<NumaArray<eid_t>> count_by_block(const EdgeList& e, const NumaArray<std::uint64_t>& ids,
                                                    std::int64_t n, bool skip_loops, int blocks) {
  const std::int64_t m = static_cast<std::int64_t>(e.size());
  std::vector<NumaArray<eid_t>> counts(static_cast<std::size_t>(blocks));
  for (auto& c : counts) c = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1);
  if (blocks == 1 && parallel::max_threads() > 1) {
    eid_t* count = counts[0].data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < m; ++i)
      if (!skip_loops || e.src[i] != e.dst[i]) parallel::fetch_add(count[ids[i]], eid_t{1});
    return counts;
  }
#pragma omp parallel for schedule(static, 1)
  for (int b = 0; b < blocks; ++b) {
    eid_t* count = counts[b].data();
    for (std::int64_t i = first_edge(m, b, blocks); i < first_edge(m, b + 1, blocks); ++i)
      if (!skip_loops || e.src[i] != e.dst[i]) ++count[ids[i]];
  }
  return counts;
}

// The reverse arcs each vertex will receive in an undirected graph: its
// appearances as a target, self-loops excluded (a loop is stored once).
inline NumaArray<eid_t> count_reverse_arcs(const EdgeList& e, std::int64_t n) {
  std::vector<NumaArray<eid_t>> counts =
      count_by_block(e, e.dst, n, true, count_blocks(n, static_cast<std::int64_t>(e.size())));
  if (counts.size() > 1) {
#pragma omp parallel for schedule(static)
    for (std::int64_t v = 0; v < n; ++v)
      for (std::size_t b = 1; b < counts.size(); ++b) counts[0][v] += counts[b][v];
  }
  return std::move(counts[0]);
}

// The lists of every source u with its out-arcs u -> v at their front, in
// input order when counted per block. `room`, when given, reserves room[v]
// more slots at the end of list v (left unwritten).
template <typename V>
CSRArrays<V> scatter_forward(const EdgeList& e, std::int64_t n, const NumaArray<eid_t>* room) {
  const std::int64_t m = static_cast<std::int64_t>(e.size());
  const bool weighted = e.weighted();
  const int blocks = count_blocks(n, m);
  // Per block: its arcs per source vertex, then its next free slot per vertex.
  std::vector<NumaArray<eid_t>> next = count_by_block(e, e.src, n, false, blocks);
  CSRArrays<V> out;
  out.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    eid_t degree = room ? (*room)[v] : 0;
    for (const auto& counts : next) degree += counts[v];
    out.offsets[v] = degree;
  }
  parallel::exclusive_prefix_sum(out.offsets.data(), out.offsets.data(), n);
  const auto arcs = static_cast<std::size_t>(out.offsets[n]);
  out.neighbors = NumaArray<V>::for_overwrite(arcs, numa::placement_for("graph"));
  if (weighted) out.weights = NumaArray<weight_t>::for_overwrite(arcs, numa::placement_for("graph"));
  // Block b writes its arcs at v after those of blocks 0..b-1: input order.
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    eid_t slot = out.offsets[v];
    for (auto& counts : next) slot += std::exchange(counts[v], slot);
  }
  auto write = [&](eid_t slot, std::int64_t i) {
    out.neighbors[slot] = static_cast<V>(e.dst[i]);
    if (weighted) out.weights[slot] = e.weights[i];
  };
  if (blocks == 1 && parallel::max_threads() > 1) {
    eid_t* slot = next[0].data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < m; ++i) write(parallel::fetch_add(slot[e.src[i]], eid_t{1}), i);
    return out;
  }
#pragma omp parallel for schedule(static, 1)
  for (int b = 0; b < blocks; ++b) {
    eid_t* slot = next[b].data();
    for (std::int64_t i = first_edge(m, b, blocks); i < first_edge(m, b + 1, blocks); ++i) write(slot[e.src[i]]++, i);
  }
  return out;
}

}  // namespace numagraph::build
