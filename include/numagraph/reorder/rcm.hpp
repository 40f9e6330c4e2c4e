// Reverse Cuthill-McKee (Cuthill and McKee 1969; reversed as George showed,
// 1971): a breadth-first numbering that keeps every edge's endpoints close,
// so the adjacency matrix has a narrow band.
//
// Per component: start from a pseudo-peripheral vertex, found by one jump of
// George and Liu's search (1979): BFS from a start vertex, and take the
// least-degree vertex of its last level (ties by id); then number by BFS
// from it, each vertex's unnumbered neighbours in increasing degree (ties
// by id). The whole sequence is reversed at the end. George and Liu repeat
// the jump while the eccentricity grows, which costs a full search more
// even when it does not (the usual case: on road NY, email-Enron and
// soc-Slashdot0902 the first jump lands where the loop ends); one jump keeps
// the bandwidth within a few per cent of SciPy's RCM, which makes no jump,
// at half the searches (docs/reordering.md).
//
// Components: the first search starts from the root (Spec::root, or the
// highest-degree vertex); each further one from the highest-degree vertex
// not yet numbered (ties by id), so components come in decreasing order of
// their top degree, then the isolated vertices by id; reversal puts them
// first and the root's component last. Directed graphs are searched through
// out- and in-edges, degree = out + in (common.hpp).
//
// Serial, like the method: each step depends on the previous one. The level
// searches reuse one queue and one bit of marks per vertex; the numbering
// marks are bits too (n/8 bytes: the test per arc stays in the L1/L2 cache).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/reorder/common.hpp"

namespace numagraph::reorder {

namespace detail {

template <typename V>
inline bool test_bit(const std::uint64_t* bits, V v) {
  return (bits[static_cast<std::uint64_t>(v) >> 6] >> (static_cast<std::uint64_t>(v) & 63)) & 1;
}
template <typename V>
inline void set_bit(std::uint64_t* bits, V v) {
  bits[static_cast<std::uint64_t>(v) >> 6] |= std::uint64_t{1} << (static_cast<std::uint64_t>(v) & 63);
}

template <typename V>
class RcmSearch {
 public:
  explicit RcmSearch(const CSRGraph<V>& g)
      : g_(g),
        mark_(static_cast<std::size_t>((g.num_vertices() + 63) / 64)),
        queue_(NumaArray<V>::for_overwrite(static_cast<std::size_t>(g.num_vertices()))) {}

  const V* queue() const { return queue_.data(); }

  // BFS from s over the vertices not numbered yet: returns the eccentricity
  // of s, sets `last` to where the last level starts in queue() and `size`
  // to the vertices reached. Components are numbered whole, so the searches
  // meet numbered vertices only in a directed graph without in-edges
  // (one-way reachability): only then are the marks consulted.
  std::int32_t levels(V s, const std::uint64_t* numbered, std::int64_t& last, std::int64_t& size) {
    numbered_ = g_.has_in_edges() ? nullptr : numbered;
    return levels(s, last, size);
  }

 private:
  // The search itself. Marks are bits (n/8 bytes stay in the L1/L2 caches
  // of a road graph), cleared after the search (whole, or along the queue
  // when that is shorter).
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
          if (!seen(w) && !(numbered_ && test_bit(numbered_, w))) {
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
  NumaArray<std::uint64_t> mark_;
  const std::uint64_t* numbered_ = nullptr;
  NumaArray<V> queue_;
};

// The lightest of ids[b, e): least degree, ties by id.
template <typename V>
V lightest(const NumaArray<eid_t>& degree, const V* ids, std::int64_t b, std::int64_t e) {
  V x = ids[b];
  for (std::int64_t i = b + 1; i < e; ++i) {
    const V y = ids[i];
    if (degree[y] < degree[x] || (degree[y] == degree[x] && y < x)) x = y;
  }
  return x;
}

// Cuthill-McKee numbering of s's component into order[filled..).
template <typename V>
void cuthill_mckee(const CSRGraph<V>& g, const NumaArray<eid_t>& degree, V s, std::uint64_t* numbered, V* order,
                   std::int64_t& filled) {
  std::int64_t head = filled, tail = filled;
  order[tail++] = s;
  set_bit(numbered, s);
  auto lighter = [&](V a, V b) { return degree[a] != degree[b] ? degree[a] < degree[b] : a < b; };
  while (head < tail) {
    const std::int64_t begin = tail;
    for_each_undirected(g, order[head++], [&](V w) {
      if (!test_bit(numbered, w)) {
        set_bit(numbered, w);
        order[tail++] = w;
      }
    });
    if (tail - begin <= 16) {  // most batches: a few neighbours, sorted in place
      for (std::int64_t i = begin + 1; i < tail; ++i) {
        const V w = order[i];
        std::int64_t j = i;
        for (; j > begin && lighter(w, order[j - 1]); --j) order[j] = order[j - 1];
        order[j] = w;
      }
    } else {
      std::sort(order + begin, order + tail, lighter);
    }
  }
  filled = tail;
}

// Numbers the unnumbered vertices `start` reaches, by Cuthill-McKee from the
// vertex one jump away (the header's search).
template <typename V>
void number_component(const CSRGraph<V>& g, const NumaArray<eid_t>& degree, RcmSearch<V>& search, V start,
                      std::uint64_t* numbered, V* order, std::int64_t& filled) {
  std::int64_t last = 0, size = 0;
  search.levels(start, numbered, last, size);
  cuthill_mckee(g, degree, lightest(degree, search.queue(), last, size), numbered, order, filled);
}

}  // namespace detail

// old_of_new of the RCM order; root: -1 or a vertex (see compute.hpp).
template <typename V>
NumaArray<V> rcm_order(const CSRGraph<V>& g, std::int64_t root = -1) {
  const std::int64_t n = g.num_vertices();
  auto order = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  if (n == 0) return order;
  const NumaArray<eid_t> degree = detail::undirected_degrees(g, true);
  NumaArray<std::uint64_t> numbered(static_cast<std::size_t>((n + 63) / 64));
  detail::RcmSearch<V> search(g);
  std::int64_t filled = 0;
  const V first = detail::first_root(g, root, degree, true);
  detail::number_component(g, degree, search, first, numbered.data(), order.data(), filled);
  if (filled < n) {
    NumaArray<std::uint8_t> visited(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) visited[v] = detail::test_bit(numbered.data(), static_cast<V>(v));
    const NumaArray<V> next = detail::unvisited_by_degree(g, degree, visited.data(), true);
    for (V v : next)
      if (!detail::test_bit(numbered.data(), v))
        detail::number_component(g, degree, search, v, numbered.data(), order.data(), filled);
    for (std::int64_t v = 0; v < n; ++v)  // then the isolated vertices, by id
      if (!detail::test_bit(numbered.data(), static_cast<V>(v))) order[filled++] = static_cast<V>(v);
  }
  return detail::reversed(order, true);
}

}  // namespace numagraph::reorder
