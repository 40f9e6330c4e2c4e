// Strongly connected components on one thread: Tarjan's depth-first search
// (Tarjan 1972), iterative, so long paths need no deep recursion. A call on
// one thread (a graph below the problem's serial cut-off, or a pool of one,
// kernels/thread_budget.hpp) runs this instead of forward-backward search:
// one pass over the arcs, where forward-backward walks them once per search,
// per trimming sweep and per colouring sweep, and opens parallel regions for
// each. Labels are the smallest id of each SCC, as forward_backward.hpp's.
// Work O(n + m); memory: one id per vertex besides the labels, plus the
// search path and Tarjan's stack (at most n entries each).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/scc/options.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

template <typename V>
SccResult<V> scc_tarjan(const CSRGraph<V>& g, const SccOptions& = {}) {
  // order[v]: v's discovery index while v is on Tarjan's stack; kUnseen
  // before, kDone once its SCC is labelled. kDone is above every index, so
  // taking the minimum with it changes no low-link: arcs into finished SCCs
  // need no test of their own. Ids stay below 2^31 (32-bit) or 2^63, so no
  // index reaches either sentinel.
  constexpr V kUnseen = std::numeric_limits<V>::max();
  constexpr V kDone = kUnseen - 1;
  const std::int64_t n = g.num_vertices();
  const eid_t* const offsets = g.out().offsets.data();
  const V* const heads = g.out().neighbors.data();
  SccResult<V> r;
  r.labels = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("labels"));
  V* const label = r.labels.data();
  std::vector<V> order(static_cast<std::size_t>(n), kUnseen);
  struct Frame {
    eid_t next, end;  // v's arcs still to follow
    V v, low;         // low: the smallest index reached from v's subtree so far
  };
  std::vector<Frame> path;  // the search path, innermost last
  std::vector<V> open;      // Tarjan's stack: visited vertices whose SCC is not yet labelled
  V next_index = 0;
  auto enter = [&](V v) {
    order[v] = next_index;
    path.push_back({offsets[v], offsets[v + 1], v, next_index});
    ++next_index;
    open.push_back(v);
  };
  for (std::int64_t s = 0; s < n; ++s) {
    if (order[static_cast<std::size_t>(s)] != kUnseen) continue;
    enter(static_cast<V>(s));
    while (!path.empty()) {
      Frame& f = path.back();
      // In locals: the frame's fields may alias order[] for the compiler,
      // which would store and reload them at every arc.
      eid_t next = f.next;
      const eid_t end = f.end;
      V low = f.low;
      V unseen = kUnseen;
      while (next < end) {
        const V w = heads[next++];
        const V ow = order[w];
        if (ow == kUnseen) {
          unseen = w;
          break;
        }
        low = std::min(low, ow);  // on the stack: its index; finished: kDone, no change
      }
      f.next = next;
      f.low = low;
      if (unseen != kUnseen) {
        enter(unseen);  // invalidates f
        continue;
      }
      const V v = f.v;
      path.pop_back();
      if (!path.empty()) path.back().low = std::min(path.back().low, low);
      if (low != order[v]) continue;
      // v roots an SCC: the stack from v up. Label it by its smallest member.
      auto first = open.end();
      V smallest = v;
      do {
        --first;
        smallest = std::min(smallest, *first);
      } while (*first != v);
      for (auto it = first; it != open.end(); ++it) {
        label[*it] = smallest;
        order[*it] = kDone;
      }
      open.erase(first, open.end());
    }
  }
  return r;
}

}  // namespace numagraph::kernels
