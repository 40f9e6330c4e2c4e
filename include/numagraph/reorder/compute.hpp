// compute_order: the Permutation of one vertex order (order.hpp) of a graph,
// and optionally what it cost, in seconds and in BFS-equivalents (the unit
// the BC paper, seed 000 §V-C, reports ADL's cost in: 2.2 BFS on average).
//
// bfs_equivalents = seconds / the time of one BFS from the same root with the
// flat direction-optimizing kernel (kernels/bfs/direction_optimizing.hpp,
// without depths, as the CLI times BFS), measured right after the order on
// the same graph and threads: the median of three searches that reuse their
// arrays, as repeated kernel calls do. Measured only when `stats` is given.
// It is 0 for graphs that have no BFS to compare with (no vertices, or
// directed without in-edges, which the kernel needs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bfs/direction_optimizing.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/reorder/adl.hpp"
#include "numagraph/reorder/common.hpp"
#include "numagraph/reorder/dbg.hpp"
#include "numagraph/reorder/degree.hpp"
#include "numagraph/reorder/order.hpp"
#include "numagraph/reorder/permutation.hpp"
#include "numagraph/reorder/rcm.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::reorder {

struct OrderStats {
  double seconds = 0;          // computing the permutation (old_of_new and its inverse)
  double bfs_equivalents = 0;  // seconds / one flat BFS on the same graph (see above)
};

namespace detail {

// Seconds of one flat BFS from `root`: the median of three.
template <typename V>
double one_bfs_seconds(const CSRGraph<V>& g, V root) {
  kernels::BfsOptions o;
  o.compute_depth = false;
  kernels::BfsResult<V> r;
  kernels::BfsWorkspace<V> ws;
  double t[3];
  for (double& s : t) {
    profile::Timer timer;
    kernels::bfs_direction_optimizing(g, root, o, r, ws);
    s = timer.seconds();
  }
  std::sort(t, t + 3);
  return t[1];
}

}  // namespace detail

// The identity for Order::kNone and for empty graphs. `s.root` must be -1 or
// a vertex (UsageError naming the range otherwise), whatever the order.
template <typename V>
Permutation<V> compute_order(const CSRGraph<V>& g, const Spec& s, OrderStats* stats = nullptr) {
  const std::int64_t n = g.num_vertices();
  if (s.root != -1 && (s.root < 0 || s.root >= n))
    throw UsageError("reorder root " + std::to_string(s.root) + " is not a vertex: give one in 0.." +
                     std::to_string(n - 1) + ", or -1 for the highest-degree vertex");
  if (stats) *stats = {};
  if (s.none() || n == 0) return {};
  profile::Timer timer;
  NumaArray<V> old_of_new;
  switch (s.order) {
    case Order::kDegree: old_of_new = degree_order(g); break;
    case Order::kDbg: old_of_new = dbg_order(g); break;
    case Order::kRcm: old_of_new = rcm_order(g, s.root); break;
    case Order::kAdl: old_of_new = adl_order(g, s.root, true); break;
    case Order::kAdlSerial: old_of_new = adl_order(g, s.root, false); break;
    case Order::kNone: break;
  }
  const bool serial = s.order == Order::kRcm || s.order == Order::kAdlSerial;
  Permutation<V> p = Permutation<V>::from_old_of_new(std::move(old_of_new), to_string(s.order), serial);
  if (stats) {
    stats->seconds = timer.seconds();
    if (g.has_in_edges()) {
      const V root = detail::first_root(g, s.root, detail::undirected_degrees(g));
      const double bfs = detail::one_bfs_seconds(g, root);
      stats->bfs_equivalents = bfs > 0 ? stats->seconds / bfs : 0;
    }
  }
  return p;
}

// Compiled once in the library (src/reorder/instances.cpp) for both id
// widths: every command and binding that can run --reorder includes this
// header, and instantiating the orders (with libstdc++'s parallel sorts) in
// each of them cost about a third of their compile time.
extern template Permutation<std::uint32_t> compute_order(const CSRGraph<std::uint32_t>&, const Spec&, OrderStats*);
extern template Permutation<std::uint64_t> compute_order(const CSRGraph<std::uint64_t>&, const Spec&, OrderStats*);

}  // namespace numagraph::reorder
