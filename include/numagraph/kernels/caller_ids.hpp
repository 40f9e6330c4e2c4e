// Moving per-vertex data between the caller's ids and the ids of the graph a
// kernel ran on. `ids` is EngineCall::ids(): kernel vertex k is caller vertex
// ids.to_old(k). The entry points map what goes in (roots, sources) to kernel
// ids and each result's unpermute (beside the result in the problem's
// options.hpp) calls these to bring its arrays back in the caller's order.
// With the identity (no reordering, a graph not renumbered) they do nothing.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>

#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/reorder/permutation.hpp"

namespace numagraph::kernels {

// Rewrites `a` (one value per kernel vertex) in the caller's order: the new
// a[c] is value(old a[ids.to_new(c)]). `value` maps values that are
// themselves vertex ids (parents, labels); an empty array stays empty.
template <typename T, typename V, typename Value>
void to_caller_order(NumaArray<T>& a, const reorder::Permutation<V>& ids, Value&& value) {
  if (ids.identity() || a.empty()) return;
  assert(a.size() == ids.size());
  auto out = NumaArray<T>::for_overwrite(a.size(), a.placement(), a.page_size());
  const V* kernel_of_caller = ids.new_of_old.data();
  const T* in = a.data();
  parallel::for_static(std::size_t{0}, a.size(), [&](std::size_t c) { out[c] = value(in[kernel_of_caller[c]]); });
  a = std::move(out);
}

template <typename T, typename V>
void to_caller_order(NumaArray<T>& a, const reorder::Permutation<V>& ids) {
  to_caller_order(a, ids, [](const T& x) { return x; });
}

// Component labels (each vertex labelled by a kernel id of its component)
// of a run on a renumbered graph, brought back to the caller's ids: the same
// partition, each component labelled by its smallest caller id (the kernel's
// label is a kernel id, whose caller id would be some member, not the
// smallest). Shared by the CC and SCC kernels' unpermute.
template <typename V>
void component_labels_to_caller(NumaArray<V>& labels, const reorder::Permutation<V>& ids) {
  if (ids.identity() || labels.empty()) return;
  const std::size_t n = labels.size();
  auto smallest = NumaArray<V>::for_overwrite(n);  // per kernel label: its component's smallest caller id
  parallel::for_static(std::size_t{0}, n, [&](std::size_t k) { smallest[k] = static_cast<V>(n); });
  parallel::for_static(std::size_t{0}, n, [&](std::size_t k) {
    parallel::write_min(smallest[labels[k]], ids.to_old(static_cast<V>(k)));
  });
  to_caller_order(labels, ids, [&](V label) { return smallest[label]; });
}

}  // namespace numagraph::kernels
