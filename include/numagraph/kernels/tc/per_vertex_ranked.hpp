// Triangles through each vertex (networkx.triangles), counted the way the
// total is (ordered_intersection.hpp): on skewed graphs the vertices are
// renumbered by decreasing degree first, so hubs get small ids and their long
// lists are rarely walked, and each triangle u > v > w is found once at u by
// marking u's lower neighbours in a per-thread bitmap. u's own count stays in
// a register, v's is added once per v, w's with one atomic add per triangle.
// Graphs too large for a bitmap per thread, or not skewed, use
// triangles_per_vertex (merging, caller's numbering). Same input as the total:
// undirected, no parallel edges (the caller checks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "numagraph/kernels/tc/ordered_intersection.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

namespace tc_detail {

// Per-vertex counts over sorted CSR arrays by marking (see ordered_count_marking).
template <typename V>
NumaArray<std::int64_t> per_vertex_marking(const eid_t* offsets, const V* lists, std::int64_t n) {
  NumaArray<std::int64_t> t(static_cast<std::size_t>(n));
  std::int64_t* const count = t.data();
#pragma omp parallel
  {
    std::vector<std::uint64_t> marks(static_cast<std::size_t>(n / 64 + 1), 0);
    std::uint64_t* const mark = marks.data();
#pragma omp for schedule(dynamic, 64)
    for (std::int64_t u = 0; u < n; ++u) {
      if (cancel_requested()) continue;  // Ctrl-C in Python (see ordered_count_merging)
      const V* ub = lists + offsets[u];
      const V* ue = lists + offsets[u + 1];
      const V* lower_end = ub;
      while (lower_end < ue && *lower_end < static_cast<V>(u)) ++lower_end;
      if (lower_end - ub < 2) continue;
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] |= std::uint64_t{1} << (*pv & 63);
      std::int64_t at_u = 0;
      for (const V* pv = ub + 1; pv < lower_end; ++pv) {
        const V v = *pv;
        std::int64_t at_v = 0;
        for (const V* pw = lists + offsets[v]; pw < lists + offsets[v + 1] && *pw < v; ++pw) {
          if ((mark[*pw >> 6] >> (*pw & 63)) & 1) {
            ++at_v;
            parallel::fetch_add(count[*pw], std::int64_t{1});
          }
        }
        if (at_v) parallel::fetch_add(count[v], at_v);
        at_u += at_v;
      }
      if (at_u) parallel::fetch_add(count[u], at_u);
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] = 0;
    }
  }
  throw_if_cancelled();
  return t;
}

}  // namespace tc_detail

template <typename V>
NumaArray<std::int64_t> triangles_per_vertex_ranked(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  if (n > tc_detail::kMarkingMaxVertices || !tc_detail::worth_relabelling(g)) return triangles_per_vertex(g, false);
  // New id of v = its rank by decreasing degree (as triangles_ordered).
  std::vector<V> by_degree(static_cast<std::size_t>(n));
  std::iota(by_degree.begin(), by_degree.end(), V{0});
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](V a, V b) { return g.out_degree(a) > g.out_degree(b); });
  NumaArray<V> rank(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { rank[by_degree[static_cast<std::size_t>(i)]] = static_cast<V>(i); });
  NumaArray<eid_t> degree(static_cast<std::size_t>(n) + 1), off(static_cast<std::size_t>(n) + 1);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { degree[i] = g.out_degree(by_degree[static_cast<std::size_t>(i)]); });
  parallel::exclusive_prefix_sum(degree.data(), off.data(), n);
  NumaArray<V> nbr(static_cast<std::size_t>(off[n]));
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < n; ++i) {
    if (cancel_requested()) continue;
    V* out = nbr.data() + off[i];
    std::size_t k = 0;
    for (const V v : g.out_neighbors(by_degree[static_cast<std::size_t>(i)])) out[k++] = rank[v];
    std::sort(out, out + k);
  }
  throw_if_cancelled();
  const NumaArray<std::int64_t> ranked = tc_detail::per_vertex_marking(off.data(), nbr.data(), n);
  NumaArray<std::int64_t> t(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { t[by_degree[static_cast<std::size_t>(i)]] = ranked[i]; });
  return t;
}

}  // namespace numagraph::kernels
