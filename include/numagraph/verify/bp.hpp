// BP verifier: the same model and synchronous schedule run serially with
// each message looked up by binary search at every use (no reverse-arc index,
// no code shared with the kernels beyond the model), compared to 1e-9.
#pragma once

#include <cmath>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bp/model.hpp"
#include "numagraph/verify/result.hpp"

namespace numagraph::verify {

template <typename V>
std::vector<double> serial_bp(const CSRGraph<V>& g, const kernels::bp::Model& model) {
  const std::int64_t n = g.num_vertices();
  const auto& a = g.out();
  std::vector<double> msg(static_cast<std::size_t>(g.num_arcs()), 0.0);
  // Message from u to v: the arc u -> v, looked up in u's sorted list.
  auto arc = [&](V u, V v) {
    const V* b = a.neighbors.data() + a.offsets[u];
    const V* e = a.neighbors.data() + a.offsets[u + 1];
    return static_cast<std::size_t>(std::lower_bound(b, e, v) - a.neighbors.data());
  };
  auto log_odds = [&](V v) {
    double l = kernels::bp::prior_log_odds(model, v);
    for (const V u : g.out_neighbors(v)) l += msg[arc(u, v)];
    return l;
  };
  for (int it = 0; it < model.iterations; ++it) {
    std::vector<double> L(static_cast<std::size_t>(n)), next(msg.size());
    for (std::int64_t v = 0; v < n; ++v) L[static_cast<std::size_t>(v)] = log_odds(static_cast<V>(v));
    for (std::int64_t u = 0; u < n; ++u)
      for (const V v : g.out_neighbors(static_cast<V>(u)))
        next[arc(static_cast<V>(u), v)] =
            kernels::bp::message_log_odds(model, L[static_cast<std::size_t>(u)] - msg[arc(v, static_cast<V>(u))]);
    msg.swap(next);
  }
  std::vector<double> belief(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v) belief[static_cast<std::size_t>(v)] = kernels::bp::belief(log_odds(static_cast<V>(v)));
  return belief;
}

template <typename V>
Result belief_propagation(const CSRGraph<V>& g, const kernels::bp::Model& model, const double* belief) {
  const auto expected = serial_bp(g, model);
  for (std::size_t v = 0; v < expected.size(); ++v)
    if (!(std::fabs(expected[v] - belief[v]) <= 1e-9))
      return Result::fail("vertex " + std::to_string(g.label(static_cast<V>(v))) + " has belief " + std::to_string(belief[v]) +
                          ", serial BP gives " + std::to_string(expected[v]));
  return Result::pass();
}

}  // namespace numagraph::verify
