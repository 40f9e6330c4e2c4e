// Strongly-connected-components parameters and result, shared by every
// variant.
#pragma once

#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// No parameters yet; kept so that one added later changes no signature.
struct SccOptions {};

// labels[v]: the smallest vertex id of v's strongly connected component, in
// the graph's id type (in the caller's ids after the entry point). On an
// undirected graph every edge goes both ways, so the strongly connected
// components are the connected components.
template <typename V>
struct SccResult {
  NumaArray<V> labels;
  std::int64_t trimmed = 0;  // vertices found alone by trimming (0 on undirected graphs and on one thread: Tarjan)
  int color_rounds = 0;      // rounds of colouring after the first forward-backward search
  CallInfo ran;
};

// Relabels a partition given by any member ids (`labels[v]` in [0, n)) by the
// smallest member of each part: the canonical answer, whatever the order in
// which a kernel found the parts.
template <typename V>
void label_by_smallest_member(NumaArray<V>& labels) {
  const std::size_t n = labels.size();
  auto smallest = NumaArray<V>::for_overwrite(n);
  parallel::for_static(std::size_t{0}, n, [&](std::size_t v) { smallest[v] = static_cast<V>(n); });
  parallel::for_static(std::size_t{0}, n,
                       [&](std::size_t v) { parallel::write_min(smallest[labels[v]], static_cast<V>(v)); });
  parallel::for_static(std::size_t{0}, n, [&](std::size_t v) { labels[v] = smallest[labels[v]]; });
}

// Brings the labels of a run on a renumbered graph back to the caller's ids
// (EngineCall::ids()): each component labelled by its smallest caller id.
template <typename V>
void unpermute(SccResult<V>& r, const reorder::Permutation<V>& ids) {
  component_labels_to_caller(r.labels, ids);
}

// A directed graph needs its in-edges (the backward searches follow them).
template <typename V>
void require_scc_input(const CSRGraph<V>& g) {
  if (!g.has_in_edges())
    throw UsageError("strongly connected components follow in-edges: build the graph with BuildOptions::in_edges = true");
}

}  // namespace numagraph::kernels
