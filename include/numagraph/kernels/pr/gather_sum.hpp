// Sum of values gathered through a neighbour list, the inner loop of every
// pull kernel (PageRank, SpMV): one running sum over a plain pointer loop.
// The loop waits on random loads more than on its additions, and on a skewed
// graph most lists are short, so the branches around a list, whose outcomes
// follow its length, cost more than the chain of additions. Two interleaved
// partial sums (the previous version) need an unrolled loop plus a remainder
// step, one more length-dependent branch per vertex. One sum against two, 2
// threads, AMD Zen 4 host, processes alternating (12-48 trials per binary):
// kron20 pr_spmv 0.97x the time, Gauss-Seidel PageRank on kron20 0.97x,
// kron22 0.96x, urand22 0.86x, weighted SpMV on kron20 0.94x, unweighted
// 0.97x and 1.10x in two runs. (On the Zen 3 host of earlier sessions two
// sums had measured 15 % faster than one on kron20 PageRank.) Always
// inlined: a call per vertex cost 6 %. The additions follow the list's
// order, so a sum does not depend on the threads.
#pragma once

#include <cstddef>
#include <span>

#include "numagraph/graph/types.hpp"

namespace numagraph::kernels {

template <typename V, typename C>
[[gnu::always_inline]] inline double gather_sum(std::span<const V> nb, const C* value) {
  double s = 0;
  for (const V* p = nb.data(), *end = p + nb.size(); p != end; ++p) s += static_cast<double>(value[*p]);
  return s;
}

// The same with a weight per edge: sum of w[j] * value[nb[j]].
template <typename V, typename C>
[[gnu::always_inline]] inline double gather_weighted_sum(std::span<const V> nb, const weight_t* w, const C* value) {
  double s = 0;
  for (std::size_t j = 0; j < nb.size(); ++j) s += static_cast<double>(w[j]) * static_cast<double>(value[nb[j]]);
  return s;
}

}  // namespace numagraph::kernels
