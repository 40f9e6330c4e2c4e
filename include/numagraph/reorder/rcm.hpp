// Reverse Cuthill-McKee (Cuthill and McKee 1969; reversed as George showed,
// 1971): a breadth-first numbering that keeps every edge's endpoints close,
// so the adjacency matrix has a narrow band.
//
// Per component: start from a pseudo-peripheral vertex, found by George and
// Liu's search (1979) with the level width as a tie-break: BFS from a start
// vertex x; y = the least-degree vertex of its last level (ties by id); BFS
// from y, cut short as soon as a level is wider than x's widest. A cut
// search keeps x. A whole one jumps to y: the search goes on from y while
// the eccentricity grows, else stops at y. So the start is the far end of a
// long, narrow level structure, no wider than the one from the vertex the
// search began at (the band follows the widest level: over the start
// vertices of a random 2-D mesh the two correlate at 0.98). Then number by
// BFS from it, each vertex's unnumbered neighbours in increasing degree
// (ties by id); the whole sequence is reversed at the end.
//
// Cost: the usual run is two plain searches and one numbering (the later
// candidates are numbered at once, and the numbering is undone when the
// search moves on or cuts it). One jump without the loop (one search less)
// left a 2-D L-shape with twice SciPy's band. docs/reordering.md compares
// bandwidth and time with SciPy's RCM, which starts at a least-degree vertex
// without a search, on real graphs and on meshes.
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
#include <limits>
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

// What a breadth-first walk from a vertex found: its eccentricity, the size
// of its widest level, where its last level starts in the walk's queue and
// the vertices reached; cut: it stopped at a level wider than its cap (the
// rest unset).
struct Levels {
  std::int32_t depth = 0;
  std::int64_t width = 1, last = 0, size = 1;
  bool cut = false;
};
inline constexpr std::int64_t kNoCap = std::numeric_limits<std::int64_t>::max();

// The undirected view of for_each_undirected (common.hpp) as plain pointers,
// read once per walk: the prefetches need the arrays themselves.
template <typename V>
struct ArcArrays {
  const eid_t* out_offsets;
  const V* out_targets;
  const eid_t* in_offsets = nullptr;  // null unless a directed graph has in-edges
  const V* in_sources = nullptr;

  explicit ArcArrays(const CSRGraph<V>& g)
      : out_offsets(g.out().offsets.data()), out_targets(g.out().neighbors.data()) {
    if (g.directed() && g.has_in_edges()) {
      in_offsets = g.in_arrays().offsets.data();
      in_sources = g.in_arrays().neighbors.data();
    }
  }

  template <typename F>
  void for_each(V v, F&& f) const {
    for (eid_t e = out_offsets[v], end = out_offsets[v + 1]; e < end; ++e) f(out_targets[e]);
    if (in_offsets)
      for (eid_t e = in_offsets[v], end = in_offsets[v + 1]; e < end; ++e) f(in_sources[e]);
  }

  // Prefetches for a walk along a BFS queue: the offsets of the vertex 16
  // places ahead, the out-neighbours of the one 8 places ahead. A road
  // graph's walk waits on these loads (a search on road NY: 1.5x faster).
  // always_inline: GCC takes a function of prefetches alone for one without
  // effects and drops its calls before it would inline them.
  [[gnu::always_inline]] void prefetch_ahead(const V* queue, std::int64_t head, std::int64_t tail) const {
    if (head + 16 < tail) __builtin_prefetch(out_offsets + queue[head + 16]);
    if (head + 8 < tail) __builtin_prefetch(out_targets + out_offsets[queue[head + 8]]);
  }
};

template <typename V>
class RcmSearch {
 public:
  explicit RcmSearch(const CSRGraph<V>& g)
      : g_(g),
        mark_(static_cast<std::size_t>((g.num_vertices() + 63) / 64)),
        queue_(NumaArray<V>::for_overwrite(static_cast<std::size_t>(g.num_vertices()))) {}

  const V* queue() const { return queue_.data(); }

  // BFS from s over the vertices not numbered yet, stopped once a level has
  // more than `cap` vertices; last and size index queue(). Components are
  // numbered whole, so the searches meet numbered vertices only in a
  // directed graph without in-edges (one-way reachability): only then are
  // the marks consulted.
  Levels levels(V s, const std::uint64_t* numbered, std::int64_t cap) {
    numbered_ = g_.has_in_edges() ? nullptr : numbered;
    return levels(s, cap);
  }

 private:
  // The search itself. Marks are bits (n/8 bytes stay in the L1/L2 caches
  // of a road graph), cleared after the search (whole, or along the queue
  // when that is shorter).
  Levels levels(V s, std::int64_t cap) {
    const ArcArrays<V> arcs(g_);
    const std::uint64_t* numbered = numbered_;
    std::uint64_t* mark = mark_.data();
    auto seen = [&](V w) { return (mark[w >> 6] >> (w & 63)) & 1; };
    auto see = [&](V w) { mark[w >> 6] |= std::uint64_t{1} << (w & 63); };
    V* queue = queue_.data();
    std::int64_t head = 0, tail = 1;
    queue[0] = s;
    see(s);
    Levels r;
    while (head < tail && !r.cut) {
      const std::int64_t end = tail;
      r.last = head;
      for (; head < end; ++head) {
        arcs.prefetch_ahead(queue, head, tail);
        arcs.for_each(queue[head], [&](V w) {
          if (!seen(w) && !(numbered && test_bit(numbered, w))) {
            see(w);
            queue[tail++] = w;
          }
        });
        if (tail - end > cap) {
          r.cut = true;
          break;
        }
      }
      if (tail > end) ++r.depth;
      r.width = std::max(r.width, tail - end);
    }
    r.size = tail;
    if (tail > static_cast<std::int64_t>(mark_.size()))
      std::fill(mark_.begin(), mark_.end(), std::uint64_t{0});
    else
      for (std::int64_t i = 0; i < tail; ++i) mark[queue[i] >> 6] = 0;
    return r;
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

// Sorts ids[0, count) by (degree, id) as one word per vertex, the degree in
// the high half: a hub's batch of new neighbours sorts in a third less time
// than by comparisons that look both degrees up (email-Enron). False, and
// nothing done, when an id or a degree needs more than 32 bits.
template <typename V>
bool sort_packed(const eid_t* degree, V* ids, std::int64_t count, std::vector<std::uint64_t>& keys) {
  if constexpr (sizeof(V) > 4) {
    return false;
  } else {
    keys.resize(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
      const auto d = static_cast<std::uint64_t>(degree[ids[i]]);
      if (d >> 32) return false;
      keys[i] = (d << 32) | ids[i];
    }
    std::sort(keys.begin(), keys.end());
    for (std::int64_t i = 0; i < count; ++i) ids[i] = static_cast<V>(keys[i]);
    return true;
  }
}

// Cuthill-McKee numbering from s into order[filled..): BFS over the
// unnumbered vertices, each vertex's new neighbours in increasing degree
// (ties by id). Returns the walk's levels (last and size count from
// order + filled); the caller keeps the numbering (filled += size) or
// undoes it (unnumber), as it must when the walk was cut.
template <typename V>
Levels cuthill_mckee(const CSRGraph<V>& g, const NumaArray<eid_t>& degree, V s, std::int64_t cap,
                     std::uint64_t* numbered, V* order, std::int64_t filled) {
  const ArcArrays<V> arcs(g);
  const eid_t* deg = degree.data();
  std::int64_t head = filled, tail = filled;
  order[tail++] = s;
  set_bit(numbered, s);
  auto lighter = [&](V a, V b) { return deg[a] != deg[b] ? deg[a] < deg[b] : a < b; };
  std::vector<std::uint64_t> keys;
  Levels r;
  while (head < tail && !r.cut) {
    const std::int64_t end = tail;
    r.last = head - filled;
    for (; head < end; ++head) {
      arcs.prefetch_ahead(order, head, tail);
      const std::int64_t begin = tail;
      arcs.for_each(order[head], [&](V w) {
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
      } else if (!sort_packed(deg, order + begin, tail - begin, keys)) {
        std::sort(order + begin, order + tail, lighter);
      }
      if (tail - end > cap) {
        r.cut = true;
        break;
      }
    }
    if (tail > end) ++r.depth;
    r.width = std::max(r.width, tail - end);
  }
  r.size = tail - filled;
  return r;
}

template <typename V>
void unnumber(const V* ids, std::int64_t count, std::uint64_t* numbered) {
  for (std::int64_t i = 0; i < count; ++i) {
    const auto v = static_cast<std::uint64_t>(ids[i]);
    numbered[v >> 6] &= ~(std::uint64_t{1} << (v & 63));
  }
}

// Numbers the unnumbered vertices `start` reaches into order[filled..):
// Cuthill-McKee from the pseudo-peripheral vertex of the header's search.
// The first jump's search is a plain one: it usually goes deeper (the root
// is rarely peripheral), which moves the search on. Each later candidate is
// numbered at once, since the search usually ends on it; a numbering that
// goes deeper or is cut is undone.
template <typename V>
void number_component(const CSRGraph<V>& g, const NumaArray<eid_t>& degree, RcmSearch<V>& search, V start,
                      std::uint64_t* numbered, V* order, std::int64_t& filled) {
  auto keep = [&](V s) { filled += cuthill_mckee(g, degree, s, kNoCap, numbered, order, filled).size; };
  const Levels at_start = search.levels(start, numbered, kNoCap);
  V x = lightest(degree, search.queue(), at_start.last, at_start.size);
  Levels at_x = search.levels(x, numbered, at_start.width);
  if (at_x.cut || at_x.depth <= at_start.depth) return keep(at_x.cut ? start : x);
  const V* walk = search.queue();  // x's levels: walk[at_x.last, at_x.size) is the last
  for (;;) {
    const V y = lightest(degree, walk, at_x.last, at_x.size);
    const Levels at_y = cuthill_mckee(g, degree, y, at_x.width, numbered, order, filled);
    if (!at_y.cut && at_y.depth <= at_x.depth) {
      filled += at_y.size;
      return;
    }
    unnumber(order + filled, at_y.size, numbered);
    if (at_y.cut) return keep(x);
    x = y;
    at_x = at_y;
    walk = order + filled;
  }
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
