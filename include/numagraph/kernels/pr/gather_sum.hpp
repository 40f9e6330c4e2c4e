// Sum of values gathered through a neighbour list, the inner loop of every
// pull kernel (PageRank, SpMV). Two independent partial sums: one running sum
// makes every edge wait for the previous addition (measured 15 % slower on
// kron20), two let the random loads and additions of neighbouring edges
// overlap. Four sums (an earlier version) need a second remainder loop, whose
// exit is mispredicted on the many short lists of a skewed graph: two sums
// and one remainder step measured 5 % faster on kron20 PageRank (AMD EPYC
// host). Always inlined: a call per vertex cost another 6 %.
// Doubles are not reassociated by the compiler, so the split is written out.
#pragma once

#include <cstddef>
#include <span>

#include "numagraph/graph/types.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
[[gnu::always_inline]] inline double gather_sum(std::span<const V> nb, const C* value) {
  double s0 = 0, s1 = 0;
  std::size_t j = 0;
  for (; j + 2 <= nb.size(); j += 2) {
    s0 += static_cast<double>(value[nb[j]]);
    s1 += static_cast<double>(value[nb[j + 1]]);
  }
  if (j < nb.size()) s0 += static_cast<double>(value[nb[j]]);
  return s0 + s1;
}

// The same with a weight per edge: sum of w[j] * value[nb[j]].
template <typename V, typename C>
[[gnu::always_inline]] inline double gather_weighted_sum(std::span<const V> nb, const weight_t* w, const C* value) {
  double s0 = 0, s1 = 0;
  std::size_t j = 0;
  for (; j + 2 <= nb.size(); j += 2) {
    s0 += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
    s1 += static_cast<double>(w[j + 1]) * static_cast<double>(value[nb[j + 1]]);
  }
  if (j < nb.size()) s0 += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
  return s0 + s1;
}

}  // namespace numagraph::kernels
