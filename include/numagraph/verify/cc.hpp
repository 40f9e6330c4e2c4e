// Components verifier: serial union-find over every arc (both orientations)
// and a check that the labels induce exactly the same partition: two
// vertices share a label iff union-find puts them together.
#pragma once

#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::vector<std::int64_t> union_find_roots(const CSRGraph<V>& g) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(g.num_vertices()));
  std::iota(p.begin(), p.end(), 0);
  auto find = [&](std::int64_t x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  for (std::int64_t u = 0; u < g.num_vertices(); ++u)
    for (const V v : g.out_neighbors(static_cast<V>(u))) {
      const std::int64_t a = find(u), b = find(static_cast<std::int64_t>(v));
      if (a != b) p[std::max(a, b)] = std::min(a, b);
    }
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) p[v] = find(v);
  return p;
}

template <typename V, typename L>
Result components(const CSRGraph<V>& g, const L* labels) {
  const auto roots = union_find_roots(g);
  std::unordered_map<std::uint64_t, std::int64_t> label_to_root;
  std::unordered_map<std::int64_t, std::uint64_t> root_to_label;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const auto l = static_cast<std::uint64_t>(labels[v]);
    const auto [a, fresh_a] = label_to_root.emplace(l, roots[v]);
    const auto [b, fresh_b] = root_to_label.emplace(roots[v], l);
    if (a->second != roots[v] || b->second != l)
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) +
                          " is labelled like a vertex of another component (or its component is split)");
  }
  return Result::pass();
}

}  // namespace numagraph::verify
