// What the vertex orders (degree.hpp, dbg.hpp, rcm.hpp, adl.hpp) share: the
// undirected view of a graph they traverse, its degrees, a parallel sort of
// vertices by key, and the choice of a search's first root.
//
// Directed graphs: the BFS-based orders (RCM, ADL) follow out-edges AND
// in-edges (when the graph has in-edges), so that a vertex reachable only
// against the arcs still lands next to its neighbours; their "degree" is
// out-degree + in-degree. Degree order and DBG use the out-degree alone
// (the work a push kernel does per vertex), as docs/reordering.md says.
#pragma once

#include <parallel/algorithm>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::reorder::detail {

// Calls f(w) for every neighbour of v in the undirected view: out-neighbours,
// then in-neighbours of a directed graph that has them (a vertex joined both
// ways appears twice; the traversals skip visited vertices anyway).
template <typename V, typename F>
inline void for_each_undirected(const CSRGraph<V>& g, V v, F&& f) {
  for (V w : g.out_neighbors(v)) f(w);
  if (g.directed() && g.has_in_edges())
    for (V w : g.in_neighbors(v)) f(w);
}

// Degree in the undirected view (out + in for directed graphs with in-edges).
template <typename V>
inline eid_t undirected_degree(const CSRGraph<V>& g, V v) {
  return g.out_degree(v) + (g.directed() && g.has_in_edges() ? g.in_degree(v) : 0);
}

// `serial`: one thread (the serial orders: a parallel region would only add
// its fork and join, which on a busy machine wait for a descheduled thread).
template <typename V>
NumaArray<eid_t> undirected_degrees(const CSRGraph<V>& g, bool serial = false) {
  const std::int64_t n = g.num_vertices();
  auto d = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) if (!serial)
  for (std::int64_t v = 0; v < n; ++v) d[v] = undirected_degree(g, static_cast<V>(v));
  return d;
}

// The vertices `ids` (or all of 0..n-1 when ids is null) sorted by
// key(v) ascending, ties by id ascending, with libstdc++'s parallel sort
// (OpenMP, the run's threads). Keys and ids are packed into one 64-bit word
// when both fit in 32 bits, the common case, which sorts about twice as fast
// as pairs. `serial`: one thread, no parallel region (the serial orders).
template <typename V, typename Key>
NumaArray<V> sort_by_key(std::int64_t n, const V* ids, std::int64_t count, Key&& key, bool serial = false) {
  auto out = NumaArray<V>::for_overwrite(static_cast<std::size_t>(count));
  if (count == 0) return out;
  auto id_at = [&](std::int64_t i) { return ids ? ids[i] : static_cast<V>(i); };
  auto for_each = [&](auto&& f) {
    if (serial)
      for (std::int64_t i = 0; i < count; ++i) f(i);
    else
      parallel::for_static(std::int64_t{0}, count, f);
  };
  std::uint64_t max_key = 0;
#pragma omp parallel for schedule(static) reduction(max : max_key) if (!serial)
  for (std::int64_t i = 0; i < count; ++i) max_key = std::max<std::uint64_t>(max_key, key(id_at(i)));
  if (max_key <= 0xffffffffULL && static_cast<std::uint64_t>(n) <= 0xffffffffULL) {
    auto packed = NumaArray<std::uint64_t>::for_overwrite(static_cast<std::size_t>(count));
    for_each([&](std::int64_t i) {
      const V v = id_at(i);
      packed[i] = (static_cast<std::uint64_t>(key(v)) << 32) | static_cast<std::uint64_t>(v);
    });
    if (serial) std::sort(packed.begin(), packed.end());
    else __gnu_parallel::sort(packed.begin(), packed.end());
    for_each([&](std::int64_t i) { out[i] = static_cast<V>(packed[i] & 0xffffffffULL); });
  } else {
    struct Item {
      std::uint64_t key;
      V id;
      bool operator<(const Item& o) const { return key != o.key ? key < o.key : id < o.id; }
    };
    std::vector<Item> items(static_cast<std::size_t>(count));
    for_each([&](std::int64_t i) {
      const V v = id_at(i);
      items[static_cast<std::size_t>(i)] = {static_cast<std::uint64_t>(key(v)), v};
    });
    if (serial) std::sort(items.begin(), items.end());
    else __gnu_parallel::sort(items.begin(), items.end());
    for_each([&](std::int64_t i) { out[i] = items[static_cast<std::size_t>(i)].id; });
  }
  return out;
}

// The first root of a BFS-based order: `root` when given (UsageError naming
// the range when it is not a vertex), else the vertex of highest degree in
// the undirected view (the smallest id among equals).
template <typename V>
V first_root(const CSRGraph<V>& g, std::int64_t root, const NumaArray<eid_t>& degree, bool serial = false) {
  const std::int64_t n = g.num_vertices();
  if (root >= 0 || root < -1) {
    if (root < 0 || root >= n)
      throw UsageError("reorder root " + std::to_string(root) + " is not a vertex: give one in 0.." +
                       std::to_string(n - 1) + ", or -1 for the highest-degree vertex");
    return static_cast<V>(root);
  }
  std::int64_t best = 0;
#pragma omp parallel if (!serial)
  {
    std::int64_t mine = -1;
#pragma omp for schedule(static) nowait
    for (std::int64_t v = 0; v < n; ++v)
      if (mine < 0 || degree[v] > degree[mine]) mine = v;
#pragma omp critical
    if (mine >= 0 && (degree[mine] > degree[best] || (degree[mine] == degree[best] && mine < best))) best = mine;
  }
  return static_cast<V>(best);
}

// The vertices with edges that `visited` marks as not visited
// (visited[v] == 0), by decreasing degree, ties by id: the candidate roots of
// the searches after the first, one per component not yet reached
// (docs/reordering.md). Vertices without edges are left out: they need no
// search and go last (append_unvisited).
template <typename V>
NumaArray<V> unvisited_by_degree(const CSRGraph<V>& g, const NumaArray<eid_t>& degree,
                                 const std::uint8_t* visited, bool serial = false) {
  const std::int64_t n = g.num_vertices();
  std::vector<V> left;
  eid_t max_degree = 0;
  for (std::int64_t v = 0; v < n; ++v)
    if (!visited[v] && degree[v] > 0) {
      left.push_back(static_cast<V>(v));
      max_degree = std::max(max_degree, degree[v]);
    }
  return sort_by_key(n, left.data(), static_cast<std::int64_t>(left.size()),
                     [&](V v) { return static_cast<std::uint64_t>(max_degree - degree[v]); }, serial);
}

// Appends the vertices still unvisited to order[filled..), by id.
template <typename V>
void append_unvisited(std::int64_t n, std::uint8_t* visited, V* order, std::int64_t& filled) {
  for (std::int64_t v = 0; v < n; ++v)
    if (!visited[v]) {
      visited[v] = 1;
      order[filled++] = static_cast<V>(v);
    }
}

// old_of_new of a sequence that lists every vertex once, reversed (RCM and ADL).
template <typename V>
NumaArray<V> reversed(const NumaArray<V>& order, bool serial = false) {
  const std::int64_t n = static_cast<std::int64_t>(order.size());
  auto out = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static) if (!serial)
  for (std::int64_t i = 0; i < n; ++i) out[i] = order[n - 1 - i];
  return out;
}

}  // namespace numagraph::reorder::detail
