// Closeness and harmonic verifier: for a sample of vertices, a plain serial
// search BACKWARDS from v (BFS over in-edges, or Dijkstra with a std::set on
// weighted graphs) gives every incoming distance d(u, v) at once, a method
// different from the kernel's forward multi-source searches; v's two scores
// are recomputed from the definition (options.hpp: the sample's scaling when
// sampled, only the listed sources when there are sources) and compared to
// 1e-9 relative.
// Sample rule: the vertices at ids floor(i n / 32) for i < 32, the last
// vertex, and the vertex with the highest closeness and the one with the
// highest harmonic score: at most 35 searches, O(35 (n + m)) unweighted.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/closeness/options.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

namespace closeness_check {

// Distances INTO v (from every u that reaches v), -1 when u does not reach v.
template <typename V>
std::vector<double> incoming_distances(const CSRGraph<V>& g, V v, bool weighted) {
  const std::int64_t n = g.num_vertices();
  std::vector<double> dist(static_cast<std::size_t>(n), -1);
  dist[v] = 0;
  if (!weighted) {
    std::vector<V> queue{v};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const V x = queue[head];
      for (const V u : g.in_neighbors(x))
        if (dist[u] < 0) {
          dist[u] = dist[x] + 1;
          queue.push_back(u);
        }
    }
    return dist;
  }
  std::set<std::pair<double, V>> open{{0.0, v}};
  while (!open.empty()) {
    const auto [d, x] = *open.begin();
    open.erase(open.begin());
    const auto from = g.in_neighbors(x);
    const auto w = g.in_weights(x);
    for (std::size_t j = 0; j < from.size(); ++j) {
      const V u = from[j];
      const double du = d + static_cast<double>(w[j]);
      if (dist[u] < 0 || du < dist[u]) {
        if (dist[u] >= 0) open.erase({dist[u], u});
        dist[u] = du;
        open.insert({du, u});
      }
    }
  }
  return dist;
}

inline std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

inline bool close(double got, double want) {
  return std::abs(got - want) <= 1e-9 * std::max(std::abs(want), 1e-300) || got == want;
}

}  // namespace closeness_check

// `g` in the caller's ids (the result's); `wf_improved` as the kernel ran.
template <typename V>
Result closeness(const CSRGraph<V>& g, const kernels::ClosenessResult<V>& r, bool wf_improved) {
  const std::int64_t n = g.num_vertices();
  if (static_cast<std::int64_t>(r.closeness.size()) != n || static_cast<std::int64_t>(r.harmonic.size()) != n)
    return Result::fail("the result has " + std::to_string(r.closeness.size()) + " scores for " + std::to_string(n) +
                        " vertices");
  if (n == 0) return Result::pass();
  std::vector<char> counted(static_cast<std::size_t>(n), r.sources.empty() ? 1 : 0);
  for (const V s : r.sources) counted[s] = 1;
  const auto k = static_cast<std::int64_t>(r.sources.size());
  std::vector<V> check;
  for (std::int64_t i = 0; i < 32; ++i) check.push_back(static_cast<V>(i * n / 32));
  check.push_back(static_cast<V>(n - 1));
  check.push_back(static_cast<V>(std::max_element(r.closeness.begin(), r.closeness.end()) - r.closeness.begin()));
  check.push_back(static_cast<V>(std::max_element(r.harmonic.begin(), r.harmonic.end()) - r.harmonic.begin()));
  std::sort(check.begin(), check.end());
  check.erase(std::unique(check.begin(), check.end()), check.end());
  for (const V v : check) {
    const auto dist = closeness_check::incoming_distances(g, v, r.weighted);
    double reached = 0, total = 0, inverse = 0;
    for (std::int64_t u = 0; u < n; ++u) {
      if (u == static_cast<std::int64_t>(v) || !counted[u] || dist[u] < 0) continue;
      reached += 1;
      total += dist[u];
      if (dist[u] > 0) inverse += 1 / dist[u];
    }
    if (r.sampled) {
      const std::int64_t others = k - (counted[v] ? 1 : 0);
      const double scale = others == 0 ? 0 : static_cast<double>(n - 1) / static_cast<double>(others);
      reached *= scale;
      total *= scale;
      inverse *= scale;
    }
    const double want_c = kernels::closeness_of(reached, total, n, wf_improved);
    const std::string who = "vertex " + std::to_string(g.label(v));
    const std::string sums = " (" + closeness_check::number(reached) + " vertices reach it, distance sum " +
                             closeness_check::number(total) + ")";
    if (!closeness_check::close(r.closeness[v], want_c))
      return Result::fail(who + " has closeness " + closeness_check::number(r.closeness[v]) + ", expected " +
                          closeness_check::number(want_c) + sums);
    if (!closeness_check::close(r.harmonic[v], inverse))
      return Result::fail(who + " has harmonic centrality " + closeness_check::number(r.harmonic[v]) + ", expected " +
                          closeness_check::number(inverse) + sums);
  }
  return Result::pass();
}

}  // namespace numagraph::verify
