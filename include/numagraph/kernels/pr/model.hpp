// PageRank's weighted and personalized model, NetworkX's (networkx.pagerank):
//
//   x'[v] = (1 - d) p[v] + d * (sum over in-arcs u -> v of x[u] w(u,v) / W(u)  +  D q[v])
//
// W(u): the sum of u's out-weights (its out-degree when the weights are not
// used); a vertex with W(u) = 0 is dangling, and D is the score on dangling
// vertices: spread by q in NetworkX's mode, dropped otherwise (gapbs's rule,
// as the unweighted model). p: the personalization normalized to sum 1
// (uniform 1/n without one); q: the dangling distribution normalized (p
// without one). The unweighted, unpersonalized runs keep their own kernels
// (pull_jacobi.hpp, pull_gauss_seidel.hpp, engine_jacobi.hpp); this model runs
// on pull_jacobi_weighted.hpp and engine_jacobi_weighted.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/pr/options.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/reorder/permutation.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// Whether a run on g weights the edges.
template <typename V>
bool pagerank_weights_used(const CSRGraph<V>& g, const PageRankOptions& o) {
  return o.use_weights && g.weighted();
}

// Whether a run on g needs this model (weights or a distribution), not the unweighted kernels.
template <typename V>
bool pagerank_general_model(const CSRGraph<V>& g, const PageRankOptions& o) {
  return pagerank_weights_used(g, o) || !o.personalization.empty() || !o.dangling.empty();
}

// The sum of a distribution's values; throws UsageError unless it has one
// finite value >= 0 per vertex and they are not all 0. `what` names it.
inline double distribution_sum(const std::vector<double>& values, std::int64_t n, const std::string& what) {
  if (static_cast<std::int64_t>(values.size()) != n)
    throw UsageError("the " + what + " has " + std::to_string(values.size()) + " values; the graph has " +
                     std::to_string(n) + " vertices (one value per vertex)");
  double sum = 0;
  for (std::size_t v = 0; v < values.size(); ++v) {
    if (!(values[v] >= 0) || !std::isfinite(values[v]))
      throw UsageError("the " + what + " gives vertex " + std::to_string(v) + " the value " +
                       std::to_string(values[v]) + ": values must be finite and >= 0");
    sum += values[v];
  }
  if (!(sum > 0)) throw UsageError("the " + what + " is all zeros: give at least one vertex a positive value");
  return sum;
}

// The user's id (or name) of g's own vertex k, for messages.
template <typename V>
std::string pagerank_vertex_text(const CSRGraph<V>& g, V k) {
  const std::uint64_t id = user_label(g, g.permutation().to_old(k));
  if (g.named() && id < g.names()->size()) return "'" + (*g.names())[id] + "'";
  return std::to_string(id);
}

// Throws UsageError when the model cannot run on g (the caller's graph): a
// distribution that is not one, a dangling distribution outside NetworkX's
// mode, a negative edge weight.
template <typename V>
void check_pagerank_model(const CSRGraph<V>& g, const PageRankOptions& o) {
  const std::int64_t n = g.num_vertices();
  if (!o.personalization.empty()) distribution_sum(o.personalization, n, "personalization");
  if (!o.dangling.empty()) {
    if (!o.networkx)
      throw UsageError("a dangling distribution needs NetworkX's model (--networkx, networkx=True): the default "
                       "model drops the dangling mass");
    distribution_sum(o.dangling, n, "dangling distribution");
  }
  if (!pagerank_weights_used(g, o)) return;
  const weight_t* w = g.out().weights.data();
  const auto arcs = static_cast<std::int64_t>(g.num_arcs());
  std::int64_t first_negative = arcs;
#pragma omp parallel for schedule(static) reduction(min : first_negative)
  for (std::int64_t j = 0; j < arcs; ++j)
    if (!(w[j] >= 0)) first_negative = std::min(first_negative, j);
  if (first_negative == arcs) return;
  const auto& off = g.out().offsets;
  std::int64_t u = 0;
  while (off[u + 1] <= first_negative) ++u;
  const V v = g.out().neighbors[static_cast<std::size_t>(first_negative)];
  throw UsageError("PageRank needs edge weights >= 0: the edge " + pagerank_vertex_text(g, static_cast<V>(u)) +
                   " -> " + pagerank_vertex_text(g, v) + " has weight " + std::to_string(w[first_negative]) +
                   " (ignore the weights with --unweighted, or weight=None in Python)");
}

// The model's arrays, in the kernel's ids (kernel vertex k is the caller's
// ids.to_old(k)), for one run on kg with damping d.
struct PageRankModel {
  bool weighted = false;             // sums weight the arcs
  NumaArray<double> teleport;        // (1 - d) p[v]
  NumaArray<double> dangling_share;  // d q[v] in NetworkX's mode, 0 otherwise (the mass is dropped)
  NumaArray<double> inv_out;         // 1 / W(v), 0 when dangling
};

template <typename V>
PageRankModel make_pagerank_model(const CSRGraph<V>& kg, const PageRankOptions& o,
                                  const reorder::Permutation<V>& ids) {
  const std::int64_t n = kg.num_vertices();
  const auto size = static_cast<std::size_t>(n);
  PageRankModel m;
  m.weighted = pagerank_weights_used(kg, o);
  m.teleport = NumaArray<double>::for_overwrite(size);
  m.dangling_share = NumaArray<double>::for_overwrite(size);
  m.inv_out = NumaArray<double>::for_overwrite(size);
  if (n == 0) return m;
  const std::vector<double>& p = o.personalization;
  const std::vector<double>& q = o.dangling.empty() ? p : o.dangling;  // NetworkX: dangling mass follows p
  const double p_sum = p.empty() ? 1.0 : distribution_sum(p, n, "personalization");
  const double q_sum = q.empty() ? 1.0 : distribution_sum(q, n, "dangling distribution");
  const double uniform = 1.0 / static_cast<double>(n);
  const eid_t* off = kg.out().offsets.data();
  const weight_t* w = m.weighted ? kg.out().weights.data() : nullptr;
  const double d = o.damping;
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto caller = static_cast<std::size_t>(ids.to_old(static_cast<V>(k)));
    m.teleport[k] = (1 - d) * (p.empty() ? uniform : p[caller] / p_sum);
    m.dangling_share[k] = o.networkx ? d * (q.empty() ? uniform : q[caller] / q_sum) : 0.0;
    double out = 0;
    if (w)
      for (eid_t j = off[k]; j < off[k + 1]; ++j) out += static_cast<double>(w[j]);
    else
      out = static_cast<double>(off[k + 1] - off[k]);
    m.inv_out[k] = out > 0 ? 1.0 / out : 0.0;
  }
  return m;
}

}  // namespace numagraph::kernels
