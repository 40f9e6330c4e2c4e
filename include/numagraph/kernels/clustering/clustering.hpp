// numagraph::clustering — local clustering coefficients, average clustering
// and transitivity of a simple undirected graph, from the triangles through
// each vertex (tc/per_vertex_ranked.hpp: renumbered by degree when that pays,
// as the triangle total). Flat
// only. The definitions are NetworkX's for unweighted undirected graphs:
//   c(v) = 2 T(v) / (d(v) (d(v) - 1)), 0 when d(v) < 2,
//   average = mean of c(v) over all vertices (or over those with c(v) > 0),
//   transitivity = 3 triangles / connected triples = sum 2T(v) / sum d(d-1),
// with d(v) the degree without self-loops. Work: that of the per-vertex
// triangle count plus O(n + m) for the degrees.
#pragma once

#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/tc/ordered_intersection.hpp"
#include "numagraph/kernels/tc/per_vertex_ranked.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph {

// No parameters yet; kept so that one added later changes no signature.
struct ClusteringOptions {};

struct ClusteringResult {
  NumaArray<double> coefficient;       // c(v) per vertex, in the caller's ids
  NumaArray<std::int64_t> triangles;   // T(v): triangles through each vertex
  std::int64_t total_triangles = 0;
  std::int64_t connected_triples = 0;  // sum over v of d(v)(d(v)-1)/2 (wedges centred at v)
  std::int64_t nonzero = 0;            // vertices with c(v) > 0
  double coefficient_sum = 0;          // sum of c(v) in the caller's vertex order
  CallInfo ran;

  // NetworkX's average_clustering: the mean over all vertices, or with
  // count_zeros false over those with c(v) > 0; 0 when there are none.
  double average(bool count_zeros = true) const {
    const std::int64_t k = count_zeros ? static_cast<std::int64_t>(coefficient.size()) : nonzero;
    return k == 0 ? 0.0 : coefficient_sum / static_cast<double>(k);
  }
  // NetworkX's transitivity: 3 triangles / connected triples, 0 without triangles.
  double transitivity() const {
    return total_triangles == 0 ? 0.0
                                : static_cast<double>(3 * total_triangles) / static_cast<double>(connected_triples);
  }
};

namespace kernels {

// Degree of v without self-loops (NetworkX's clustering ignores them): the
// list's length when the graph has none, else a scan of the list.
template <typename V>
std::int64_t degree_without_loops(const CSRGraph<V>& g, V v) {
  if (g.num_self_loops() == 0) return static_cast<std::int64_t>(g.out_degree(v));
  std::int64_t d = 0;
  for (const V w : g.out_neighbors(v)) d += w != v;
  return d;
}

// Coefficients and counts from per-vertex triangle counts. The division is
// written as NetworkX's (2T / (d(d-1)) in double), so the values agree to
// the last bit.
template <typename V>
void clustering_from_triangles(const CSRGraph<V>& g, ClusteringResult& r) {
  const std::int64_t n = g.num_vertices();
  r.coefficient = NumaArray<double>(static_cast<std::size_t>(n));
  std::int64_t corners = 0, triples = 0, nonzero = 0;
#pragma omp parallel for schedule(static) reduction(+ : corners, triples, nonzero)
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int64_t d = degree_without_loops(g, static_cast<V>(v));
    const std::int64_t t = r.triangles[v];
    corners += t;
    triples += d * (d - 1) / 2;
    const double c = t == 0 ? 0.0 : static_cast<double>(2 * t) / static_cast<double>(d * (d - 1));
    r.coefficient[v] = c;
    nonzero += c > 0;
  }
  r.total_triangles = corners / 3;
  r.connected_triples = triples;
  r.nonzero = nonzero;
}

// Sum of the coefficients in vertex order (deterministic, whatever the
// thread count or the order the kernel ran in).
inline double sum_in_order(const NumaArray<double>& c) {
  double sum = 0;
  for (const double x : c) sum += x;
  return sum;
}

}  // namespace kernels

// Per-vertex arrays in the caller's ids; runs on the graph in
// Execution::reorder's order.
template <typename V>
ClusteringResult clustering(const CSRGraph<V>& g, const ClusteringOptions& = {}, const Execution& x = {}) {
  kernels::require_flat(x, "clustering coefficients");
  if (g.directed())
    throw UsageError("clustering coefficients need an undirected graph: load it with -s (--symmetrize); "
                     "networkx.clustering computes the directed ones");
  kernels::EngineCall<V> call(g, x, "clustering", {});
  auto& ws = call.template workspace<kernels::TcWorkspace>();
  if (!ws.checked_input) {  // once per graph and cache, timed apart as the call's setup
    call.setup([&] { kernels::tc_detail::require_simple_undirected(call.graph()); });
    ws.checked_input = true;
  }
  ClusteringResult r;
  call.run_flat([&] {
    r.triangles = kernels::triangles_per_vertex_ranked(call.graph());
    kernels::clustering_from_triangles(call.graph(), r);
  });
  kernels::to_caller_order(r.triangles, call.ids());
  kernels::to_caller_order(r.coefficient, call.ids());
  r.coefficient_sum = kernels::sum_in_order(r.coefficient);
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
