// numagraph::closeness — closeness and harmonic centrality (NetworkX's
// definitions, options.hpp) in one call: bit-parallel multi-source BFS on
// unweighted graphs (bit_parallel_bfs.hpp), a Dijkstra search per source on
// weighted ones (dijkstra_sources.hpp); exact from every vertex, or estimated
// from sampled sources, or summed over explicit sources. Flat kernel only:
// see docs/kernels/closeness.md for why there is no engine variant.
#pragma once

#include <vector>

#include "numagraph/kernels/closeness/bit_parallel_bfs.hpp"
#include "numagraph/kernels/closeness/dijkstra_sources.hpp"
#include "numagraph/kernels/closeness/options.hpp"
#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"

namespace numagraph {

using kernels::ClosenessOptions;
using kernels::ClosenessResult;

// Both scores per vertex, in the caller's ids; runs on the graph in
// Execution::reorder's order. Negative weights are refused when weights are used.
template <typename V>
ClosenessResult<V> closeness(const CSRGraph<V>& g, const ClosenessOptions& o = {}, const Execution& x = {}) {
  kernels::require_flat(x, "closeness centrality");
  kernels::require_closeness_input(g, o);
  const std::int64_t n = g.num_vertices();
  ClosenessResult<V> r;
  r.weighted = g.weighted() && o.use_weights;
  r.sampled = o.samples > 0 && o.samples < n;
  if (o.samples > 0)
    r.sources = kernels::sample_sources<V>(n, o.samples, o.seed);
  else if (!o.sources.empty())
    r.sources = kernels::explicit_sources<V>(n, o.sources);
  if (o.samples >= n) r.sources.clear();  // every vertex: exact
  const bool exact = r.sources.empty() && o.sources.empty();
  kernels::EngineCall<V> call(g, x, "closeness", {});
  if (r.weighted) call.setup([&] { kernels::refuse_negative_weights(g); });
  const auto& kg = call.graph();
  std::vector<V> sources;  // kernel ids
  std::vector<char> is_source;
  if (exact) {
    sources.resize(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v) sources[v] = static_cast<V>(v);
  } else {
    is_source.assign(static_cast<std::size_t>(n), 0);
    for (const V s : r.sources) {
      sources.push_back(call.ids().to_new(s));
      is_source[sources.back()] = 1;
    }
  }
  kernels::ClosenessSums sums;
  sums.reached = NumaArray<std::int64_t>(static_cast<std::size_t>(n));
  sums.distance = NumaArray<double>(static_cast<std::size_t>(n));
  sums.inverse = NumaArray<double>(static_cast<std::size_t>(n));
  call.run_flat(
      [&] {
        if (r.weighted)
          kernels::closeness_sums_dijkstra(kg, sources, sums);
        else
          kernels::closeness_sums_bfs(kg, sources, sums);
        kernels::finish_scores(sums, n, o, r.sampled, static_cast<std::int64_t>(sources.size()), is_source, r);
      },
      std::max<std::int64_t>(1, static_cast<std::int64_t>(sources.size()) / 64));
  r.batches = sums.batches;
  kernels::to_caller_order(r.closeness, call.ids());
  kernels::to_caller_order(r.harmonic, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
