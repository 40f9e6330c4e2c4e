// Builder: the reverse of sorted lists. A directed graph's in-edges
// are the transpose of its finished out-lists; an undirected graph's lists
// get the reverse of their forward arcs in the room left after them.
//
// Written directly, arc u -> v would go to a random place among all the
// lists: a cache miss (and on large graphs a TLB miss) per arc. So the arcs
// are first grouped by buckets of 2^bits consecutive targets, in streams
// (one per bucket) that are written sequentially, and then each bucket's arcs
// are placed while its cursors and slots fit in the cache. The groups live in
// the edge list's arrays, which are no longer needed by then.
//
// Sources are read in increasing order and each list in order, so the arcs
// reach every target sorted by (source, weight): the reversed lists come out
// sorted, with nothing to sort.
// Private to builder.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/graph/types.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::build {

// Room for arcs on their way: one source, target and weight per arc.
struct ArcBuffer {
  std::uint64_t* from;
  std::uint64_t* to;
  weight_t* weights;  // null when unweighted
};

// Targets per bucket: 2^12 or more, for at most 2^12 buckets (streams).
inline int bucket_bits(std::int64_t n) {
  int bits = 12;
  while ((n >> bits) >= 4096) ++bits;
  return bits;
}

// Copies the arcs of list part [first(u), end(u)) of every u into `buf`,
// grouped by target bucket, each group in order of u; self-loops left out
// when asked. Returns where each bucket's group starts (and the total).
template <typename V, typename First, typename End>
std::vector<eid_t> group_by_target(const CSRArrays<V>& a, std::int64_t n, First first, End end, int bits,
                                   bool skip_loops, ArcBuffer buf) {
  const int threads = parallel::max_threads();
  const std::int64_t buckets = (n >> bits) + 1;
  // Thread t reads sources [lo[t], lo[t + 1]), cut where the arcs are even.
  std::vector<std::int64_t> lo(static_cast<std::size_t>(threads) + 1, n);
  const eid_t total = a.offsets[n];
  for (int t = 0; t < threads; ++t)
    lo[t] = std::lower_bound(a.offsets.data(), a.offsets.data() + n, total * t / threads) - a.offsets.data();
  auto for_each_arc = [&](int t, auto&& f) {
    for (std::int64_t u = lo[t]; u < lo[t + 1]; ++u)
      for (eid_t k = first(u); k < end(u); ++k)
        if (!skip_loops || a.neighbors[k] != static_cast<V>(u)) f(u, k);
  };
  // next[t * buckets + b]: thread t's arcs into bucket b, then its next slot there.
  std::vector<eid_t> next(static_cast<std::size_t>(threads * buckets), 0);
#pragma omp parallel for schedule(static, 1)
  for (int t = 0; t < threads; ++t)
    for_each_arc(t, [&](std::int64_t, eid_t k) { ++next[t * buckets + (a.neighbors[k] >> bits)]; });
  std::vector<eid_t> group(static_cast<std::size_t>(buckets) + 1);
  eid_t slot = 0;
  for (std::int64_t b = 0; b < buckets; ++b) {
    group[b] = slot;
    for (int t = 0; t < threads; ++t) slot += std::exchange(next[t * buckets + b], slot);
  }
  group[buckets] = slot;
  const bool weighted = buf.weights != nullptr;
#pragma omp parallel for schedule(static, 1)
  for (int t = 0; t < threads; ++t)
    for_each_arc(t, [&](std::int64_t u, eid_t k) {
      const eid_t s = next[t * buckets + (a.neighbors[k] >> bits)]++;
      buf.from[s] = static_cast<std::uint64_t>(u);
      buf.to[s] = a.neighbors[k];
      if (weighted) buf.weights[s] = a.weights[k];
    });
  return group;
}

// Places each bucket's grouped arcs v <- u at cursor[v] (one per target,
// advanced per arc), the targets of bucket b being [b << bits, ...).
// `start(b, cursor)` sets the cursors of bucket b's targets.
template <typename V, typename Start>
void place_groups(CSRArrays<V>& dst, const std::vector<eid_t>& group, int bits, ArcBuffer buf, Start start) {
  const std::int64_t buckets = static_cast<std::int64_t>(group.size()) - 1;
  const bool weighted = buf.weights != nullptr;
#pragma omp parallel
  {
    std::vector<eid_t> cursor(std::size_t{1} << bits);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < buckets; ++b) {
      const std::uint64_t base = static_cast<std::uint64_t>(b) << bits;
      start(b, cursor);
      for (eid_t p = group[b]; p < group[b + 1]; ++p) {
        const eid_t s = cursor[buf.to[p] - base]++;
        dst.neighbors[s] = static_cast<V>(buf.from[p]);
        if (weighted) dst.weights[s] = buf.weights[p];
      }
    }
  }
}

// The in-edge lists of a directed graph whose out-lists `out` are final.
template <typename V>
CSRArrays<V> transpose(const CSRArrays<V>& out, std::int64_t n, ArcBuffer buf) {
  const int bits = bucket_bits(n);
  const std::vector<eid_t> group = group_by_target(
      out, n, [&](std::int64_t u) { return out.offsets[u]; }, [&](std::int64_t u) { return out.offsets[u + 1]; },
      bits, false, buf);
  CSRArrays<V> in;
  in.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
  const auto arcs = static_cast<std::size_t>(out.offsets[n]);
  in.neighbors = NumaArray<V>::for_overwrite(arcs, numa::placement_for("graph"));
  if (buf.weights) in.weights = NumaArray<weight_t>::for_overwrite(arcs, numa::placement_for("graph"));
  // A bucket's in-degrees, counted in its group, give its targets' offsets.
  place_groups(in, group, bits, buf, [&](std::int64_t b, std::vector<eid_t>& cursor) {
    const std::int64_t base = b << bits, last = std::min<std::int64_t>(n, base + (std::int64_t{1} << bits));
    std::fill(cursor.begin(), cursor.end(), 0);
    for (eid_t p = group[b]; p < group[b + 1]; ++p) ++cursor[buf.to[p] - static_cast<std::uint64_t>(base)];
    eid_t slot = group[b];
    for (std::int64_t v = base; v < last; ++v) {
      in.offsets[v] = slot;
      slot += std::exchange(cursor[v - base], slot);
    }
  });
  in.offsets[n] = static_cast<eid_t>(arcs);
  return in;
}

// Undirected: list v holds its forward arcs and then room for room[v]
// reverse arcs; fills that room with the reverse of every forward arc that is
// not a self-loop.
template <typename V>
void add_reverse_arcs(CSRArrays<V>& a, std::int64_t n, const NumaArray<eid_t>& room, ArcBuffer buf) {
  const int bits = bucket_bits(n);
  auto room_start = [&](std::int64_t u) { return a.offsets[u + 1] - room[u]; };
  const std::vector<eid_t> group =
      group_by_target(a, n, [&](std::int64_t u) { return a.offsets[u]; }, room_start, bits, true, buf);
  place_groups(a, group, bits, buf, [&](std::int64_t b, std::vector<eid_t>& cursor) {
    const std::int64_t base = b << bits, last = std::min<std::int64_t>(n, base + (std::int64_t{1} << bits));
    for (std::int64_t v = base; v < last; ++v) cursor[v - base] = room_start(v);
  });
}

}  // namespace numagraph::build
