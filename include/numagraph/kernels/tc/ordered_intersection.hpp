// Triangle counting by ordered neighbour-list intersection (the ordered
// method of Latapy 2008 / Shun and Tangwongsan 2015): a triangle u > v > w is
// counted once, at u, by intersecting the lower parts of the lists of u and v
// (pair by pair for short lower lists, a bitmap of u's list otherwise, or a
// merge on huge graphs; see below). On skewed graphs the vertices are first
// renumbered by decreasing degree, so hubs get small ids and their long lists
// are rarely walked; whether that pays is decided from a sample of degrees
// (mean far above median), and the renumbering is part of the timed work.
// Undirected graphs without parallel edges only (self-loops are harmless: the
// ordering never pairs u with u).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/reorder/degree.hpp"

namespace numagraph::kernels {

namespace tc_detail {

// Triangles with ids u > v > w over CSR arrays with sorted lists, by
// merging: for each lower neighbour v of u, walk v's lower list and u's list
// side by side. Needs no memory, but the walk's branches follow the data and
// mispredict about once per step.
template <typename V>
std::int64_t ordered_count_merging(const NumaArray<eid_t>& off, const NumaArray<V>& nbr, std::int64_t n) {
  // Plain pointers: the cancel flag's atomic load would otherwise make the
  // compiler reload each array's pointer from its object on every row.
  const eid_t* const offsets = off.data();
  const V* const lists = nbr.data();
  std::int64_t total = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : total)
  for (std::int64_t u = 0; u < n; ++u) {
    // Ctrl-C in Python: skip the remaining rows (an exception must not leave
    // the parallel loop), then throw below. One relaxed load per row.
    if (cancel_requested()) continue;
    const V* ub = lists + offsets[u];
    const V* ue = lists + offsets[u + 1];
    // From u's second neighbour: the w below its lowest are in no list of u.
    if (ue - ub < 2) continue;
    for (const V* pv = ub + 1; pv < ue && *pv < static_cast<V>(u); ++pv) {
      const V v = *pv;
      // Every w below v, and v itself sits in u's list at pv: the scan of
      // u's list stops there at the latest, so it needs no end check.
      const V* it = ub;
      for (const V* pw = lists + offsets[v]; pw < lists + offsets[v + 1] && *pw < v; ++pw) {
        const V w = *pw;
        while (*it < w) ++it;
        total += *it == w;
      }
    }
  }
  throw_if_cancelled();
  return total;
}

// Lower lists of at most this many vertices are intersected by compares
// (below); longer ones by marking. The compares are unrolled for this bound.
inline constexpr std::ptrdiff_t kAllPairsMaxLower = 4;

// The same count by marking: each thread keeps one bit per vertex, sets the
// bits of u's lower neighbours, and then a triangle (u, v, w) is one bit test
// per w in v's lower list, without data-dependent branches. Costs n/8 bytes
// per thread and two extra passes over u's lower list (set, clear), and is
// faster than merging (measured: docs/kernels/tc.md). u's lowest neighbour is
// never walked: the w below it cannot be u's neighbours. A lower list of at
// most min(`all_pairs_max`, kAllPairsMaxLower) vertices skips the bitmap: each
// w is compared with u's lower neighbours but the last, three compares in
// registers (a neighbour at or after v's place in the sorted list is above w,
// so comparing with it is harmless).
template <typename V>
std::int64_t ordered_count_marking(const NumaArray<eid_t>& off, const NumaArray<V>& nbr, std::int64_t n,
                                   std::ptrdiff_t all_pairs_max = kAllPairsMaxLower) {
  // Plain pointers: the cancel flag's atomic load would otherwise make the
  // compiler reload each array's pointer from its object on every row.
  const eid_t* const offsets = off.data();
  const V* const lists = nbr.data();
  std::int64_t total = 0;
#pragma omp parallel reduction(+ : total)
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
      const std::ptrdiff_t k = lower_end - ub;
      if (k < 2) continue;  // a triangle at u needs two lower neighbours
      if (k <= std::min(all_pairs_max, kAllPairsMaxLower)) {
        // u itself stands in for missing neighbours: no w equals it.
        const V x0 = ub[0];
        const V x1 = k > 2 ? ub[1] : static_cast<V>(u);
        const V x2 = k > 3 ? ub[2] : static_cast<V>(u);
        for (const V* pv = ub + 1; pv < lower_end; ++pv) {
          const V v = *pv;
          for (const V* pw = lists + offsets[v]; pw < lists + offsets[v + 1] && *pw < v; ++pw) {
            const V w = *pw;
            total += static_cast<std::int64_t>(w == x0) + static_cast<std::int64_t>(w == x1) +
                     static_cast<std::int64_t>(w == x2);
          }
        }
        continue;
      }
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] |= std::uint64_t{1} << (*pv & 63);
      for (const V* pv = ub + 1; pv < lower_end; ++pv) {
        const V v = *pv;
        for (const V* pw = lists + offsets[v]; pw < lists + offsets[v + 1] && *pw < v; ++pw)
          total += static_cast<std::int64_t>((mark[*pw >> 6] >> (*pw & 63)) & 1);
      }
      for (const V* pv = ub; pv < lower_end; ++pv) mark[*pv >> 6] = 0;
    }
  }
  throw_if_cancelled();
  return total;
}

// Marking while a thread's bitmap stays small enough to live in cache (and
// memory is not multiplied by the thread count on huge graphs): up to 2^27
// vertices (16 MiB per thread); merging beyond.
inline constexpr std::int64_t kMarkingMaxVertices = std::int64_t{1} << 27;

template <typename V>
std::int64_t ordered_count(const NumaArray<eid_t>& off, const NumaArray<V>& nbr, std::int64_t n) {
  return n <= kMarkingMaxVertices ? ordered_count_marking(off, nbr, n) : ordered_count_merging(off, nbr, n);
}

// Skewed enough that renumbering by degree pays: mean degree of a sample
// well above its median (the heuristic gapbs documents, re-derived here).
template <typename V>
bool worth_relabelling(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  if (n < 1024) return false;
  std::vector<eid_t> sample;
  std::uint64_t x = 0x853c49e6748fea9bULL;
  for (int i = 0; i < 1000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    sample.push_back(g.out_degree(static_cast<V>((x >> 11) % static_cast<std::uint64_t>(n))));
  }
  std::sort(sample.begin(), sample.end());
  const double mean = static_cast<double>(g.num_arcs()) / static_cast<double>(n);
  return mean / std::max<double>(1.0, static_cast<double>(sample[sample.size() / 2])) > 1.3;
}

// Parallel edges would count one triangle several times; lists are sorted,
// so a repeat sits next to its twin. One pass over the arcs.
template <typename V>
void require_simple_undirected(const CSRGraph<V>& g) {
  if (g.directed())
    throw UsageError("triangle counting needs an undirected graph: load it with -s (--symmetrize)");
  const std::int64_t n = g.num_vertices();
  bool repeated = false;
#pragma omp parallel for schedule(dynamic, 4096) reduction(|| : repeated)
  for (std::int64_t u = 0; u < n; ++u) {
    const auto nb = g.out_neighbors(static_cast<V>(u));
    for (std::size_t j = 1; j < nb.size(); ++j) repeated = repeated || nb[j] == nb[j - 1];
  }
  if (repeated)
    throw UsageError("triangle counting needs a graph without parallel edges: load it without --keep-duplicates");
}

}  // namespace tc_detail

// check_input false: the caller has run tc_detail::require_simple_undirected
// on this graph (the entry point does, once per graph and cache).
template <typename V>
std::int64_t triangles_ordered(const CSRGraph<V>& g, bool* relabelled = nullptr, bool check_input = true) {
  if (check_input) {
    profile::InnerPhase phase("check");
    tc_detail::require_simple_undirected(g);
  }
  const std::int64_t n = g.num_vertices();
  const bool relabel = tc_detail::worth_relabelling(g);
  if (relabelled) *relabelled = relabel;
  if (!relabel) {
    profile::InnerPhase phase("count");
    return tc_detail::ordered_count(g.out().offsets, g.out().neighbors, n);
  }
  std::optional<profile::InnerPhase> phase(std::in_place, "relabel");
  // New id of v = its rank by decreasing degree.
  const NumaArray<V> by_degree = reorder::degree_order(g);
  NumaArray<V> rank(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { rank[by_degree[static_cast<std::size_t>(i)]] = static_cast<V>(i); });
  NumaArray<eid_t> degree(static_cast<std::size_t>(n) + 1), off(static_cast<std::size_t>(n) + 1);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { degree[i] = g.out_degree(by_degree[static_cast<std::size_t>(i)]); });
  parallel::exclusive_prefix_sum(degree.data(), off.data(), n);
  NumaArray<V> nbr(static_cast<std::size_t>(off[n]));
  // The renumbered copy takes as long as a good part of the count: it
  // answers Ctrl-C too (Python), skipping what is left, then stops.
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < n; ++i) {
    if (cancel_requested()) continue;
    V* out = nbr.data() + off[i];
    std::size_t k = 0;
    for (const V v : g.out_neighbors(by_degree[static_cast<std::size_t>(i)])) out[k++] = rank[v];
    std::sort(out, out + k);
  }
  throw_if_cancelled();
  phase.emplace("count");
  return tc_detail::ordered_count(off, nbr, n);
}

// Triangles through each vertex (what networkx.triangles returns): every
// triangle u > v > w adds one to each corner. No renumbering.
template <typename V>
NumaArray<std::int64_t> triangles_per_vertex(const CSRGraph<V>& g, bool check_input = true) {
  if (check_input) tc_detail::require_simple_undirected(g);
  const std::int64_t n = g.num_vertices();
  NumaArray<std::int64_t> t(static_cast<std::size_t>(n));
  const auto& a = g.out();
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t u = 0; u < n; ++u) {
    if (cancel_requested()) continue;  // Ctrl-C in Python (see ordered_count)
    const V* ub = a.neighbors.data() + a.offsets[u];
    const V* ue = a.neighbors.data() + a.offsets[u + 1];
    for (const V* pv = ub; pv < ue && *pv < static_cast<V>(u); ++pv) {
      const V v = *pv;
      const V* it = ub;
      for (const V* pw = a.neighbors.data() + a.offsets[v]; pw < a.neighbors.data() + a.offsets[v + 1] && *pw < v; ++pw) {
        while (*it < *pw) ++it;  // stops at v at the latest (see ordered_count)
        if (*it == *pw) {
          parallel::fetch_add(t[u], std::int64_t{1});
          parallel::fetch_add(t[v], std::int64_t{1});
          parallel::fetch_add(t[*pw], std::int64_t{1});
        }
      }
    }
  }
  throw_if_cancelled();
  return t;
}

}  // namespace numagraph::kernels
