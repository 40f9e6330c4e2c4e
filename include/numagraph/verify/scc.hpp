// Strongly-connected-components verifier: Tarjan's algorithm, serial and
// iterative (an explicit stack of (vertex, next arc) frames, so road graphs'
// long paths need no deep recursion), then a check that the labels induce
// exactly Tarjan's partition and name each SCC by its smallest vertex id.
// O(n + m). On an undirected graph every edge goes both ways: the SCCs are
// the connected components.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

// comp[v]: the smallest vertex id of v's SCC.
template <typename V>
std::vector<std::int64_t> tarjan_smallest_members(const CSRGraph<V>& g) {
  const std::int64_t n = g.num_vertices();
  constexpr std::int64_t kUnseen = -1;
  std::vector<std::int64_t> index(static_cast<std::size_t>(n), kUnseen), low(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> comp(static_cast<std::size_t>(n), kUnseen);
  std::vector<std::uint8_t> on_stack(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> stack;                        // Tarjan's stack of open vertices
  std::vector<std::pair<std::int64_t, eid_t>> frames;     // the search path: vertex, next arc to follow
  std::int64_t next_index = 0;
  for (std::int64_t s = 0; s < n; ++s) {
    if (index[s] != kUnseen) continue;
    auto open = [&](std::int64_t v) {
      index[v] = low[v] = next_index++;
      stack.push_back(v);
      on_stack[v] = 1;
      frames.emplace_back(v, eid_t{0});
    };
    open(s);
    while (!frames.empty()) {
      auto& [v, next] = frames.back();
      const auto arcs = g.out_neighbors(static_cast<V>(v));
      if (next < static_cast<eid_t>(arcs.size())) {
        const auto w = static_cast<std::int64_t>(arcs[static_cast<std::size_t>(next++)]);
        if (index[w] == kUnseen)
          open(w);  // invalidates v and next: the loop re-reads the top frame
        else if (on_stack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      const std::int64_t done = v;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      if (low[done] != index[done]) continue;
      // `done` roots an SCC: the stack down to it.
      const auto first = std::find(stack.rbegin(), stack.rend(), done).base() - 1;
      const std::int64_t smallest = *std::min_element(first, stack.end());
      for (auto it = first; it != stack.end(); ++it) {
        comp[*it] = smallest;
        on_stack[*it] = 0;
      }
      stack.erase(first, stack.end());
    }
  }
  return comp;
}

template <typename V, typename L>
Result strongly_connected_components(const CSRGraph<V>& g, const L* labels) {
  const auto smallest = tarjan_smallest_members(g);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (static_cast<std::int64_t>(labels[v]) != smallest[v])
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " is labelled " +
                          std::to_string(static_cast<std::int64_t>(labels[v])) +
                          ", not the smallest id of its strongly connected component (" +
                          std::to_string(smallest[v]) + ")");
  return Result::pass();
}

}  // namespace numagraph::verify
