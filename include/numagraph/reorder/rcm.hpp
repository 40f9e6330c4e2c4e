// Reverse Cuthill-McKee (Cuthill and McKee 1969; reversed as George showed,
// 1971): a breadth-first numbering that keeps every edge's endpoints close,
// so the adjacency matrix has a narrow band.
//
// Per component: start from a pseudo-peripheral vertex (George and Liu
// 1979: BFS from a start vertex, BFS again from the min-degree vertex of
// the last level, and repeat while the eccentricity grows), then number by
// BFS from it, each vertex's unnumbered neighbours in increasing degree
// (ties by id). The whole sequence is reversed at the end.
//
// Components: the first search starts from the root (Spec::root, or the
// highest-degree vertex); each further one from the highest-degree vertex
// not yet numbered (ties by id), so components come in decreasing order of
// their top degree, then the isolated vertices by id; reversal puts them
// first and the root's component last. Directed graphs are searched through
// out- and in-edges, degree = out + in (common.hpp).
//
// Serial, like the method: each step depends on the previous one. The level
// searches reuse one queue and one bit of marks per vertex.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/reorder/common.hpp"

namespace numagraph::reorder {

namespace detail {

template <typename V>
class RcmSearch {
 public:
  RcmSearch(const CSRGraph<V>& g, const NumaArray<eid_t>& degree)
      : g_(g),
        degree_(degree),
        mark_(static_cast<std::size_t>((g.num_vertices() + 63) / 64)),
        queue_(NumaArray<V>::for_overwrite(static_cast<std::size_t>(g.num_vertices()))) {}

  // A pseudo-peripheral vertex of the unnumbered vertices start reaches.
  // Components are numbered whole, so the searches meet numbered vertices
  // only in a directed graph without in-edges (one-way reachability).
  V pseudo_peripheral(V start, const std::uint8_t* numbered) {
    numbered_ = g_.has_in_edges() ? nullptr : numbered;
    V r = start;
    std::int64_t last = 0, size = 0;
    std::int32_t ecc = levels(r, last, size);
    for (;;) {
      V x = queue_[static_cast<std::size_t>(last)];
      for (std::int64_t i = last; i < size; ++i) {
        const V y = queue_[i];
        if (degree_[y] < degree_[x] || (degree_[y] == degree_[x] && y < x)) x = y;
      }
      std::int64_t x_last = 0;
      const std::int32_t x_ecc = levels(x, x_last, size);
      if (x_ecc <= ecc) return r;
      r = x;
      ecc = x_ecc;
      last = x_last;
    }
  }

 private:
  // BFS from s: returns the eccentricity of s, sets `last` to where the last
  // level starts in queue_ and `size` to the component's size. Marks are
  // bits (n/8 bytes stay in the L1/L2 caches of a road graph), cleared
  // after the search (whole, or along the queue when that is shorter).
  std::int32_t levels(V s, std::int64_t& last, std::int64_t& size) {
    std::uint64_t* mark = mark_.data();
    auto seen = [&](V w) { return (mark[w >> 6] >> (w & 63)) & 1; };
    auto see = [&](V w) { mark[w >> 6] |= std::uint64_t{1} << (w & 63); };
    V* queue = queue_.data();
    std::int64_t head = 0, tail = 1;
    queue[0] = s;
    see(s);
    std::int32_t ecc = 0;
    while (head < tail) {
      const std::int64_t end = tail;
      last = head;
      for (; head < end; ++head)
        for_each_undirected(g_, queue[head], [&](V w) {
          if (!seen(w) && !(numbered_ && numbered_[w])) {
            see(w);
            queue[tail++] = w;
          }
        });
      if (tail > end) ++ecc;
    }
    size = tail;
    if (tail > static_cast<std::int64_t>(mark_.size()))
      std::fill(mark_.begin(), mark_.end(), std::uint64_t{0});
    else
      for (std::int64_t i = 0; i < tail; ++i) mark[queue[i] >> 6] = 0;
    return ecc;
  }

  const CSRGraph<V>& g_;
  const NumaArray<eid_t>& degree_;
  NumaArray<std::uint64_t> mark_;
  const std::uint8_t* numbered_ = nullptr;
  NumaArray<V> queue_;
};

// Cuthill-McKee numbering of s's component into order[filled..).
template <typename V>
void cuthill_mckee(const CSRGraph<V>& g, const NumaArray<eid_t>& degree, V s, std::uint8_t* numbered, V* order,
                   std::int64_t& filled) {
  std::int64_t head = filled, tail = filled;
  order[tail++] = s;
  numbered[s] = 1;
  auto lighter = [&](V a, V b) { return degree[a] != degree[b] ? degree[a] < degree[b] : a < b; };
  while (head < tail) {
    const std::int64_t begin = tail;
    for_each_undirected(g, order[head++], [&](V w) {
      if (!numbered[w]) {
        numbered[w] = 1;
        order[tail++] = w;
      }
    });
    std::sort(order + begin, order + tail, lighter);
  }
  filled = tail;
}

}  // namespace detail

// old_of_new of the RCM order; root: -1 or a vertex (see compute.hpp).
template <typename V>
NumaArray<V> rcm_order(const CSRGraph<V>& g, std::int64_t root = -1) {
  const std::int64_t n = g.num_vertices();
  auto order = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  if (n == 0) return order;
  const NumaArray<eid_t> degree = detail::undirected_degrees(g, true);
  NumaArray<std::uint8_t> numbered(static_cast<std::size_t>(n));
  detail::RcmSearch<V> search(g, degree);
  std::int64_t filled = 0;
  const V first = detail::first_root(g, root, degree, true);
  detail::cuthill_mckee(g, degree, search.pseudo_peripheral(first, numbered.data()), numbered.data(), order.data(),
                        filled);
  if (filled < n) {
    const NumaArray<V> next = detail::unvisited_by_degree(g, degree, numbered.data());
    for (V v : next)
      if (!numbered[v])
        detail::cuthill_mckee(g, degree, search.pseudo_peripheral(v, numbered.data()), numbered.data(), order.data(),
                              filled);
    detail::append_unvisited(n, numbered.data(), order.data(), filled);
  }
  return detail::reversed(order, true);
}

}  // namespace numagraph::reorder
