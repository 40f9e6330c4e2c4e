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
// searches reuse one queue and clear only what they marked.
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
      : g_(g), degree_(degree), mark_(static_cast<std::size_t>(g.num_vertices())) {}

  // A pseudo-peripheral vertex of start's component (its unnumbered part).
  V pseudo_peripheral(V start, const std::uint8_t* numbered) {
    V r = start;
    std::int64_t last = 0;
    std::int32_t ecc = levels(r, numbered, last);
    for (;;) {
      V x = queue_[static_cast<std::size_t>(last)];
      for (std::size_t i = static_cast<std::size_t>(last); i < queue_.size(); ++i) {
        const V y = queue_[i];
        if (degree_[y] < degree_[x] || (degree_[y] == degree_[x] && y < x)) x = y;
      }
      std::int64_t x_last = 0;
      const std::int32_t x_ecc = levels(x, numbered, x_last);
      if (x_ecc <= ecc) return r;
      r = x;
      ecc = x_ecc;
      last = x_last;
    }
  }

 private:
  // BFS over unnumbered vertices from s: returns the eccentricity of s and
  // sets `last` to where the last level starts in queue_.
  std::int32_t levels(V s, const std::uint8_t* numbered, std::int64_t& last) {
    queue_.clear();
    queue_.push_back(s);
    mark_[s] = 1;
    std::size_t head = 0;
    std::int32_t ecc = 0;
    while (head < queue_.size()) {
      const std::size_t end = queue_.size();
      last = static_cast<std::int64_t>(head);
      for (; head < end; ++head)
        for_each_undirected(g_, queue_[head], [&](V w) {
          if (!mark_[w] && !numbered[w]) {
            mark_[w] = 1;
            queue_.push_back(w);
          }
        });
      if (queue_.size() > end) ++ecc;
    }
    for (V v : queue_) mark_[v] = 0;
    return ecc;
  }

  const CSRGraph<V>& g_;
  const NumaArray<eid_t>& degree_;
  std::vector<std::uint8_t> mark_;
  std::vector<V> queue_;
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
  const NumaArray<eid_t> degree = detail::undirected_degrees(g);
  NumaArray<std::uint8_t> numbered(static_cast<std::size_t>(n));
  detail::RcmSearch<V> search(g, degree);
  std::int64_t filled = 0;
  const V first = detail::first_root(g, root, degree);
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
  return detail::reversed(order);
}

}  // namespace numagraph::reorder
