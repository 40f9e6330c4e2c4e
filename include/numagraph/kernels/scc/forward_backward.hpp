// Strongly connected components of a directed graph by forward-backward
// search with trimming and colouring (Fleischer, Hendrickson and Pinar 2000;
// trimming from McLendon et al. 2005; the giant-first order and colouring
// for the rest as in Hong, Rodia and Olukotun, SC 2013, and Slota,
// Rajamanickam and Madduri, IPDPS 2014).
//
// 1. Trim: a vertex with no in-arc or no out-arc from another vertex still in
//    the graph is an SCC by itself, and its removal may leave a neighbour so;
//    a worklist peels them all.
// 2. Giant: from the vertex with the largest in-degree x out-degree, a
//    forward search, then a backward search inside what it reached: the
//    vertices both reach are the pivot's SCC, on most real graphs the giant.
// 3. Rest, in rounds: every remaining vertex takes the smallest id that
//    reaches it (min-label propagation along out-arcs); a vertex r coloured r
//    is the smallest of its SCC, and the vertices of colour r that reach r
//    (a backward search within the colour, all roots at once) are its SCC.
//    Each round removes at least the SCC of the smallest remaining vertex,
//    and trimming runs again between rounds. The worst case is a long chain
//    of small cycles: one SCC per round.
// Work O(n + m) for 1 and 2, O(m) per propagation sweep in 3 (a round has as
// many sweeps as its longest coloured path). Labels come out as the smallest
// id of each SCC whatever the threads' timing.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "numagraph/engine/frontier.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/scc/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels {

namespace scc_detail {

template <typename V>
inline constexpr V kUnassigned = std::numeric_limits<V>::max();

// Below this many vertices an expansion runs on the calling thread: a long
// path (road graphs) gives thousands of levels of a few vertices each, and
// opening a parallel region per level would cost more than the work.
inline constexpr std::int64_t kSerialBelow = 1024;

// One level-synchronous expansion: `visit(u, push)` for every u of
// `frontier`, in parallel; what it pushes becomes `frontier`.
template <typename V, typename Visit>
void expand(std::vector<V>& frontier, std::vector<std::vector<V>>& parts, Visit&& visit) {
  const auto size = static_cast<std::int64_t>(frontier.size());
  if (size < kSerialBelow) {
    auto& next = parts[0];
    auto push = [&](V w) { next.push_back(w); };
    for (const V u : frontier) visit(u, push);
    frontier.swap(next);
    next.clear();
    return;
  }
#pragma omp parallel
  {
    auto& mine = parts[static_cast<std::size_t>(parallel::thread_id())];
    auto push = [&](V w) { mine.push_back(w); };
#pragma omp for schedule(dynamic, 64)
    for (std::int64_t i = 0; i < size; ++i) visit(frontier[static_cast<std::size_t>(i)], push);
  }
  engine::concatenate(parts, frontier);
}

// Keeps in `active` the vertices not yet assigned.
template <typename V>
void drop_assigned(std::vector<V>& active, const V* comp, std::vector<std::vector<V>>& parts) {
  expand(active, parts, [&](V v, auto push) {
    if (comp[v] == kUnassigned<V>) push(v);
  });
}

}  // namespace scc_detail

template <typename V>
SccResult<V> scc_forward_backward(const CSRGraph<V>& g, const SccOptions& = {}) {
  using scc_detail::kUnassigned;
  const std::int64_t n = g.num_vertices();
  const auto threads = static_cast<std::size_t>(parallel::max_threads());
  SccResult<V> r;
  r.labels = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("labels"));
  V* const comp = r.labels.data();  // any member of v's SCC once assigned
  std::vector<V> active(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
    comp[v] = kUnassigned<V>;
    active[static_cast<std::size_t>(v)] = static_cast<V>(v);
  });
  std::vector<std::vector<V>> parts(threads);

  // Trim to the end, by a worklist: count each vertex's in- and out-arcs
  // from other unassigned vertices; one with a count at 0 is alone, and its
  // removal lowers its neighbours' counts. O(n + m) whatever the graph (a
  // long chain peels a vertex per level, on one thread).
  auto live_in = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n));
  auto live_out = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n));
  std::vector<V> peeled;
  // Before anything is assigned, without self-loops, the counts are the degrees.
  bool counts_are_degrees = g.num_self_loops() == 0;
  auto trim = [&] {
    peeled = active;
    scc_detail::expand(peeled, parts, [&](V v, auto push) {
      auto live = [&](auto arcs) {
        eid_t count = 0;
        for (const V w : arcs) count += w != v && comp[w] == kUnassigned<V>;
        return count;
      };
      live_in[v] = counts_are_degrees ? g.in_degree(v) : live(g.in_neighbors(v));
      live_out[v] = counts_are_degrees ? g.out_degree(v) : live(g.out_neighbors(v));
      if (live_in[v] == 0 || live_out[v] == 0) push(v);
    });
    for (const V v : peeled) comp[v] = v;  // before any count drops: each vertex is pushed once
    while (!peeled.empty()) {
      r.trimmed += static_cast<std::int64_t>(peeled.size());
      scc_detail::expand(peeled, parts, [&](V u, auto push) {
        auto lower = [&](auto arcs, NumaArray<eid_t>& count) {
          for (const V w : arcs)
            if (w != u && parallel::load_relaxed(comp[w]) == kUnassigned<V> &&
                parallel::fetch_add(count[w], eid_t{-1}) == 1 &&
                parallel::compare_and_swap(comp[w], kUnassigned<V>, w))
              push(w);
        };
        lower(g.out_neighbors(u), live_in);
        lower(g.in_neighbors(u), live_out);
      });
    }
    scc_detail::drop_assigned(active, comp, parts);
    counts_are_degrees = false;
  };
  trim();

  // The giant: forward from the pivot, then backward inside the forward set.
  if (!active.empty()) {
    V pivot = active[0];
    double best = -1;
    for (const V v : active) {  // serial: one read of two offsets per vertex
      const double score = static_cast<double>(g.in_degree(v)) * static_cast<double>(g.out_degree(v));
      if (score > best) best = score, pivot = v;
    }
    std::vector<std::uint8_t> forward(static_cast<std::size_t>(n), 0);
    std::vector<V> frontier{pivot};
    forward[pivot] = 1;
    while (!frontier.empty())
      scc_detail::expand(frontier, parts, [&](V u, auto push) {
        for (const V w : g.out_neighbors(u))
          if (parallel::load_relaxed(comp[w]) == kUnassigned<V> && !parallel::load_relaxed(forward[w]) &&
              parallel::compare_and_swap(forward[w], std::uint8_t{0}, std::uint8_t{1}))
            push(w);
      });
    frontier = {pivot};
    comp[pivot] = pivot;
    while (!frontier.empty())
      scc_detail::expand(frontier, parts, [&](V u, auto push) {
        for (const V w : g.in_neighbors(u))
          if (forward[w] && parallel::compare_and_swap(comp[w], kUnassigned<V>, pivot)) push(w);
      });
    scc_detail::drop_assigned(active, comp, parts);
  }

  // The rest, by colouring rounds.
  auto color = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> queued(static_cast<std::size_t>(n), 0);
  std::vector<V> frontier;
  while (!active.empty()) {
    trim();
    if (active.empty()) break;
    ++r.color_rounds;
    parallel::for_static(std::size_t{0}, active.size(), [&](std::size_t i) { color[active[i]] = active[i]; });
    frontier = active;
    while (!frontier.empty()) {
      // Cleared before the sweep, not by each vertex as it goes: a colour
      // lowered during the sweep then always queues its vertex again.
      parallel::for_static(std::size_t{0}, frontier.size(), [&](std::size_t i) { queued[frontier[i]] = 0; });
      scc_detail::expand(frontier, parts, [&](V u, auto push) {
        const V c = parallel::load_relaxed(color[u]);
        for (const V w : g.out_neighbors(u))
          if (comp[w] == kUnassigned<V> && parallel::write_min(color[w], c) &&
              parallel::compare_and_swap(queued[w], std::uint8_t{0}, std::uint8_t{1}))
            push(w);
      });
    }
    // The roots, then backward within each colour.
    frontier.clear();
    for (const V v : active)
      if (color[v] == v) frontier.push_back(v);
    for (const V root : frontier) comp[root] = root;
    while (!frontier.empty())
      scc_detail::expand(frontier, parts, [&](V u, auto push) {
        const V c = color[u];
        for (const V w : g.in_neighbors(u))
          if (parallel::load_relaxed(comp[w]) == kUnassigned<V> && color[w] == c &&
              parallel::compare_and_swap(comp[w], kUnassigned<V>, c))
            push(w);
      });
    scc_detail::drop_assigned(active, comp, parts);
  }
  label_by_smallest_member(r.labels);
  return r;
}

}  // namespace numagraph::kernels
