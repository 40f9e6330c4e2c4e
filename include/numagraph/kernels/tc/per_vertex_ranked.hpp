// Triangles through each vertex (networkx.triangles), counted the way the
// total is (ordered_intersection.hpp): on skewed graphs the vertices are
// renumbered by decreasing degree first, so hubs get small ids and their long
// lists are rarely walked, and each triangle u > v > w is found once at u by
// marking u's lower neighbours in a per-thread bitmap. u's own count stays in
// a register, v's is added once per v, w's once per triangle: into the
// thread's own count array where those arrays are cheap (private_counts), else
// with an atomic add. The renumbered copy keeps only each vertex's lower
// neighbours, the part the count reads, built without sorting on one thread.
// Graphs too large for a bitmap per thread, or not skewed, use
// triangles_per_vertex (merging, caller's numbering). Same input as the total:
// undirected, no parallel edges (the caller checks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/kernels/tc/ordered_intersection.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

namespace tc_detail {

// Whether each thread keeps its own count per vertex, added to without
// atomics and summed at the end, rather than sharing one count array with an
// atomic add per triangle (a locked add costs several plain ones, and
// dominates on graphs with many triangles): always on one thread, and while
// clearing and summing threads x n counts costs no more than one pass over
// the `arcs` the count walks.
inline bool private_counts(int threads, std::int64_t n, eid_t arcs) {
  return threads == 1 || static_cast<eid_t>(threads) * n <= arcs;
}

// Per-vertex counts over sorted CSR arrays by marking (see
// ordered_count_marking). kLowerOnly: each list holds only the neighbours
// below its vertex (lower_lists_by_degree), so no list is scanned for where
// its lower part ends.
template <bool kLowerOnly, typename V>
NumaArray<std::int64_t> per_vertex_marking_lists(const eid_t* offsets, const V* lists, std::int64_t n) {
  const int threads = parallel::max_threads();
  const bool own = private_counts(threads, n, offsets[n]);
  // The result; with private counts, thread 0's, and the other threads' after it.
  NumaArray<std::int64_t> t(static_cast<std::size_t>(n));
  NumaArray<std::int64_t> others(own ? static_cast<std::size_t>(threads - 1) * static_cast<std::size_t>(n) : 0);
  std::int64_t* const count = t.data();
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::uint64_t> marks(static_cast<std::size_t>(n / 64 + 1), 0);
    std::uint64_t* const mark = marks.data();
    const int id = parallel::thread_id();
    std::int64_t* const mine = !own ? nullptr
                               : id == 0 ? count
                                         : others.data() + static_cast<std::size_t>(id - 1) * static_cast<std::size_t>(n);
    auto add = [&](V w, std::int64_t k) {
      if (own)
        mine[w] += k;
      else
        parallel::fetch_add(count[w], k);
    };
#pragma omp for schedule(dynamic, 64)
    for (std::int64_t u = 0; u < n; ++u) {
      if (cancel_requested()) continue;  // Ctrl-C in Python (see ordered_count_merging)
      const V* ub = lists + offsets[u];
      const V* ue = lists + offsets[u + 1];
      const V* lower_end = ue;
      if constexpr (!kLowerOnly) {
        lower_end = ub;
        while (lower_end < ue && *lower_end < static_cast<V>(u)) ++lower_end;
      }
      if (lower_end - ub < 2) continue;
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] |= std::uint64_t{1} << (*pv & 63);
      std::int64_t at_u = 0;
      for (const V* pv = ub + 1; pv < lower_end; ++pv) {
        const V v = *pv;
        std::int64_t at_v = 0;
        const V* const we = lists + offsets[v + 1];
        if (own) {
          // Without branches: a plain add of 0 or 1 costs less than the
          // branch on the bit would mispredict.
          for (const V* pw = lists + offsets[v]; pw < we && (kLowerOnly || *pw < v); ++pw) {
            const auto hit = static_cast<std::int64_t>((mark[*pw >> 6] >> (*pw & 63)) & 1);
            at_v += hit;
            mine[*pw] += hit;
          }
        } else {
          for (const V* pw = lists + offsets[v]; pw < we && (kLowerOnly || *pw < v); ++pw)
            if ((mark[*pw >> 6] >> (*pw & 63)) & 1) {
              ++at_v;
              parallel::fetch_add(count[*pw], std::int64_t{1});
            }
        }
        if (at_v) add(v, at_v);
        at_u += at_v;
      }
      if (at_u) add(static_cast<V>(u), at_u);
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] = 0;
    }
  }
  throw_if_cancelled();
  if (own && threads > 1)
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
      for (int k = 0; k + 1 < threads; ++k) count[v] += others[static_cast<std::size_t>(k) * static_cast<std::size_t>(n) + static_cast<std::size_t>(v)];
    });
  return t;
}

// Per-vertex counts over sorted CSR arrays (whole lists) by marking.
template <typename V>
NumaArray<std::int64_t> per_vertex_marking(const eid_t* offsets, const V* lists, std::int64_t n) {
  return per_vertex_marking_lists<false>(offsets, lists, n);
}

// g renumbered by decreasing degree (ties by increasing id), each list
// keeping only its vertex's lower neighbours, ascending.
template <typename V>
struct LowerListsByDegree {
  NumaArray<V> by_degree;    // new id -> g's id (reorder::degree_order)
  NumaArray<eid_t> offsets;  // n + 1
  NumaArray<V> lists;
};

template <typename V>
LowerListsByDegree<V> lower_lists_by_degree(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  const auto un = static_cast<std::size_t>(n);
  LowerListsByDegree<V> r;
  r.by_degree = reorder::degree_order(g);
  const V* const old_of = r.by_degree.data();
  auto rank = NumaArray<V>::for_overwrite(un);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { rank[old_of[i]] = static_cast<V>(i); });
  NumaArray<eid_t> lower(un + 1);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) {
    eid_t k = 0;
    for (const V w : g.out_neighbors(old_of[i])) k += rank[w] < static_cast<V>(i);
    lower[i] = k;
  });
  r.offsets = NumaArray<eid_t>(un + 1);
  parallel::exclusive_prefix_sum(lower.data(), r.offsets.data(), n);
  r.lists = NumaArray<V>::for_overwrite(static_cast<std::size_t>(r.offsets[n]));
  V* const out = r.lists.data();
  if (parallel::max_threads() == 1) {
    // Each j ascending is appended to the lists of its higher neighbours:
    // the lists come out sorted, without a sort. g is undirected, so j's
    // list names every i that has j as a lower neighbour.
    for (std::int64_t i = 0; i < n; ++i) lower[i] = r.offsets[i];  // now: where i's list continues
    for (std::int64_t j = 0; j < n; ++j)
      for (const V w : g.out_neighbors(old_of[j])) {
        const V i = rank[w];
        if (i > static_cast<V>(j)) out[lower[i]++] = static_cast<V>(j);
      }
    return r;
  }
  // On a team: each vertex gathers its lower neighbours and sorts them.
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < n; ++i) {
    if (cancel_requested()) continue;
    V* list = out + r.offsets[i];
    std::size_t k = 0;
    for (const V w : g.out_neighbors(old_of[i]))
      if (rank[w] < static_cast<V>(i)) list[k++] = rank[w];
    std::sort(list, list + k);
  }
  throw_if_cancelled();
  return r;
}

}  // namespace tc_detail

template <typename V>
NumaArray<std::int64_t> triangles_per_vertex_ranked(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  if (n > tc_detail::kMarkingMaxVertices || !tc_detail::worth_relabelling(g)) return triangles_per_vertex(g, false);
  const auto ranked_graph = tc_detail::lower_lists_by_degree(g);
  const NumaArray<std::int64_t> ranked =
      tc_detail::per_vertex_marking_lists<true>(ranked_graph.offsets.data(), ranked_graph.lists.data(), n);
  NumaArray<std::int64_t> t = NumaArray<std::int64_t>::for_overwrite(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n,
                       [&](std::int64_t i) { t[ranked_graph.by_degree[static_cast<std::size_t>(i)]] = ranked[i]; });
  return t;
}

}  // namespace numagraph::kernels
