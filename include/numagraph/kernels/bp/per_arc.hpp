// Loopy belief propagation, the flat kernel (model and schedule in
// kernels/bp/model.hpp). Messages live per arc: msg[a] for arc a = u -> v is
// the message u sends v, and rev[a] is the index of the opposite arc v -> u
// (found once by binary search in v's sorted list). An iteration computes
// every vertex's log-odds L from its incoming messages, then every message
// msg'[a] = f(L[u] - msg[rev[a]]) into a second array (Jacobi), and swaps.
// Undirected graphs only. Vertex v takes the prior of id prior_id[v] (v
// itself when null): a renumbered graph keeps the caller's priors.
#pragma once

#include <algorithm>
#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bp/model.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

template <typename V>
NumaArray<double> belief_propagation(const CSRGraph<V>& g, const bp::Model& model,
                                     const V* prior_id = nullptr) {
  if (g.directed())
    throw UsageError("belief propagation needs an undirected graph: load it with -s (--symmetrize)");
  const std::int64_t n = g.num_vertices();
  const eid_t m = g.num_arcs();
  const auto& a = g.out();
  NumaArray<eid_t> rev(static_cast<std::size_t>(m));
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t u = 0; u < n; ++u)
    for (eid_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e) {
      const V v = a.neighbors[e];
      const V* b = a.neighbors.data() + a.offsets[v];
      const V* f = a.neighbors.data() + a.offsets[v + 1];
      rev[e] = std::lower_bound(b, f, static_cast<V>(u)) - a.neighbors.data();
    }
  NumaArray<double> msg(static_cast<std::size_t>(m)), next(static_cast<std::size_t>(m)), L(static_cast<std::size_t>(n));
  auto log_odds = [&](std::int64_t v) {
    double l = bp::prior_log_odds(model, static_cast<std::uint64_t>(prior_id ? prior_id[v] : v));
    for (eid_t e = a.offsets[v]; e < a.offsets[v + 1]; ++e) l += msg[rev[e]];  // messages into v
    return l;
  };
  for (int it = 0; it < model.iterations; ++it) {
    throw_if_cancelled();  // Ctrl-C in Python: once per iteration
    parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t v) { L[v] = log_odds(v); }, std::int64_t{1024});
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t u = 0; u < n; ++u)
      for (eid_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e) next[e] = bp::message_log_odds(model, L[u] - msg[rev[e]]);
    msg.swap(next);
  }
  NumaArray<double> belief(static_cast<std::size_t>(n), numa::placement_for("belief"));
  parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t v) { belief[v] = bp::belief(log_odds(v)); }, std::int64_t{1024});
  return belief;
}

}  // namespace numagraph::kernels
