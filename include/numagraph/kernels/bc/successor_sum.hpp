// The backward sweeps' successor sum where no bitmap of the next level is
// kept: Brandes' c over the out-neighbours of w that lie one level down,
// told by their depth. Shared by the push-only search (brandes.hpp) and the
// direction-optimizing one's small levels.
#pragma once

#include <cstdint>

#include "numagraph/graph/csr_graph.hpp"

namespace numagraph::kernels::bc_detail {

// Sum of c[v] over the out-neighbours v of w with depth[v] == level.
template <typename V>
[[gnu::always_inline]] inline double successor_sum(const eid_t* off, const V* nbr, const std::int32_t* depth,
                                                    const double* c, V w, std::int32_t level) {
  double sum = 0;
  for (eid_t e = off[w]; e < off[w + 1]; ++e)
    if (depth[nbr[e]] == level) sum += c[nbr[e]];
  return sum;
}

}  // namespace numagraph::kernels::bc_detail
