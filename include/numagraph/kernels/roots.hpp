// Deterministic random roots: vertices with at least one out-edge, drawn from
// a seed, the same sequence on every run and thread count (so results and
// timings can be compared across runs and tools). Shared by the BFS, SSSP and
// BC commands, Python and the MPI Graph500 driver.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

inline std::uint64_t root_stream(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t x = seed + 0x9e3779b97f4a7c15ULL * (i + 1);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Roots, ids and labels here are the caller's: the ids the entry points take
// and answer in. For a renumbered graph (CSRGraph::permutation, e.g. a
// reordered .ngr) those are the ids of the graph it was made from, so the
// same seed picks the same roots and an id names the same vertex in any order.

// `count` distinct roots with out-degree > 0 (fewer if the graph has fewer
// such vertices). Throws UsageError when the graph has no edge at all.
template <typename V>
std::vector<V> pick_roots(const CSRGraph<V>& g, std::int64_t count, std::uint64_t seed) {
  const std::int64_t n = g.num_vertices();
  if (n == 0 || g.num_arcs() == 0) throw UsageError("the graph has no edges: there is no root to start from");
  const auto& ids = g.permutation();
  std::vector<V> roots;
  std::vector<bool> taken(static_cast<std::size_t>(n), false);
  std::int64_t candidates = 0;
  for (std::int64_t v = 0; v < n; ++v) candidates += g.out_degree(static_cast<V>(v)) > 0;
  count = std::min(count, candidates);
  for (std::uint64_t i = 0; static_cast<std::int64_t>(roots.size()) < count; ++i) {
    const V v = static_cast<V>(root_stream(seed, i) % static_cast<std::uint64_t>(n));
    if (g.out_degree(ids.to_new(v)) == 0 || taken[v]) continue;
    taken[v] = true;
    roots.push_back(v);
  }
  return roots;
}

// The user's id of the caller's vertex v: its original label when the graph
// was relabelled (labels follow their vertices through a renumbering), else v.
template <typename V>
std::uint64_t user_label(const CSRGraph<V>& g, V v) {
  return g.relabelled() ? g.label(g.permutation().to_new(v)) : static_cast<std::uint64_t>(v);
}

// Maps a user id (an original label when the graph was relabelled) to the
// caller's dense id; throws UsageError naming the id when it is not a vertex.
template <typename V>
V dense_id(const CSRGraph<V>& g, std::uint64_t user_id) {
  if (g.relabelled()) {
    // Labels are sorted in the caller's ids (the relabelling kept the order).
    std::int64_t lo = 0, hi = g.num_vertices();
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (user_label(g, static_cast<V>(mid)) < user_id) lo = mid + 1;
      else hi = mid;
    }
    if (lo == g.num_vertices() || user_label(g, static_cast<V>(lo)) != user_id)
      throw UsageError("vertex " + std::to_string(user_id) + " does not appear in the graph");
    return static_cast<V>(lo);
  }
  if (user_id >= static_cast<std::uint64_t>(g.num_vertices()))
    throw UsageError("vertex " + std::to_string(user_id) + " is out of range: the graph has " +
                     std::to_string(g.num_vertices()) + " vertices (ids 0.." + std::to_string(g.num_vertices() - 1) + ")");
  return static_cast<V>(user_id);
}

// The caller's dense id of a vertex given as text, as a user types it: its
// name in a graph read with names (CSV/TSV; matched exactly, case-sensitive),
// else a non-negative integer user id. Throws UsageError saying which.
template <typename V>
V dense_id_of(const CSRGraph<V>& g, const std::string& text) {
  if (g.named()) {
    const auto& names = *g.names();
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == text) return dense_id(g, static_cast<std::uint64_t>(k));
    throw UsageError("vertex '" + text + "' is not a name in the graph (names are matched exactly, case and "
                     "blanks included, as the file spells them)");
  }
  std::uint64_t id = 0;
  bool ok = !text.empty() && text.size() <= 19;
  for (char c : text) ok = ok && c >= '0' && c <= '9';
  if (ok) {
    try {
      id = std::stoull(text);
    } catch (const std::logic_error&) {
      ok = false;
    }
  }
  if (!ok)
    throw UsageError("expected a vertex id (a non-negative integer), found '" + text +
                     "' (names are ids only in graphs read from CSV/TSV files with names)");
  return dense_id(g, id);
}

// As above, for a vertex given to an option: its errors start with the
// option's name ("--source: vertex 'zoe' is not a name ...").
template <typename V>
V dense_id_of(const CSRGraph<V>& g, const std::string& text, const std::string& option) {
  try {
    return dense_id_of(g, text);
  } catch (const UsageError& e) {
    throw UsageError(option + ": " + e.what());
  }
}

}  // namespace numagraph::kernels
