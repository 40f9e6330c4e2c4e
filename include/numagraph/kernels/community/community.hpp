// numagraph::communities — modularity-based communities of an undirected,
// optionally weighted graph: parallel Louvain or Leiden (multilevel.hpp),
// deterministic for a given seed on any thread count. Flat kernel only: local
// moving reads the communities of every neighbour at random and moves
// vertices one batch at a time, which the NUMA engine's frontier/pull
// pattern does not fit (docs/kernels/communities.md).
#pragma once

#include <cstdint>

#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/kernels/community/multilevel.hpp"
#include "numagraph/kernels/community/options.hpp"
#include "numagraph/kernels/engine_call.hpp"

namespace numagraph {

using kernels::CommunityOptions;
using kernels::CommunityResult;
using kernels::CommunityVariant;

// Labels in the caller's ids, dense and numbered by each community's
// smallest member; runs on the graph in Execution::reorder's order.
template <typename V>
CommunityResult<V> communities(const CSRGraph<V>& g, const CommunityOptions& o = {}, const Execution& x = {}) {
  kernels::require_flat(x, "community detection");
  kernels::require_community_input(g, o);
  kernels::EngineCall<V> call(g, x, "communities", {});
  CommunityResult<V> r;
  call.run_flat([&] { r = kernels::communities_multilevel(call.graph(), o); });
  kernels::to_caller_order(r.labels, call.ids());
  // Dense ids in the order of each community's smallest member.
  const std::size_t n = r.labels.size();
  std::vector<V> id(n, static_cast<V>(~V{0}));
  V next = 0;
  for (std::size_t v = 0; v < n; ++v) {
    V& c = id[r.labels[v]];
    if (c == static_cast<V>(~V{0})) c = next++;
    r.labels[v] = c;
  }
  r.communities = next;
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
