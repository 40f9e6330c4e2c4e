// Sum of values gathered through a neighbour list, the inner loop of every
// pull kernel (PageRank, SpMV). Four independent partial sums: one running sum
// makes every edge wait for the previous addition (4 cycles each), four let
// the random loads and the additions of neighbouring edges overlap. Doubles
// are not reassociated by the compiler, so the split has to be written out.
#pragma once

#include <cstddef>
#include <span>

#include "numagraph/graph/types.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
double gather_sum(std::span<const V> nb, const C* value) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t j = 0;
  for (; j + 4 <= nb.size(); j += 4) {
    s0 += static_cast<double>(value[nb[j]]);
    s1 += static_cast<double>(value[nb[j + 1]]);
    s2 += static_cast<double>(value[nb[j + 2]]);
    s3 += static_cast<double>(value[nb[j + 3]]);
  }
  for (; j < nb.size(); ++j) s0 += static_cast<double>(value[nb[j]]);
  return (s0 + s1) + (s2 + s3);
}

// The same with a weight per edge: sum of w[j] * value[nb[j]].
template <typename V, typename C>
double gather_weighted_sum(std::span<const V> nb, const weight_t* w, const C* value) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t j = 0;
  for (; j + 4 <= nb.size(); j += 4) {
    s0 += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
    s1 += static_cast<double>(w[j + 1]) * static_cast<double>(value[nb[j + 1]]);
    s2 += static_cast<double>(w[j + 2]) * static_cast<double>(value[nb[j + 2]]);
    s3 += static_cast<double>(w[j + 3]) * static_cast<double>(value[nb[j + 3]]);
  }
  for (; j < nb.size(); ++j) s0 += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
  return (s0 + s1) + (s2 + s3);
}

}  // namespace numagraph::kernels
