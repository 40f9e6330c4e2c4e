// SSSP parameters and result, shared by the flat and engine delta-stepping.
#pragma once

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::kernels {

struct SsspOptions {
  double delta = 0;  // bucket width, > 0; 0: chosen from the graph (choose_delta, delta_rule.hpp)
  bool predecessors = false;  // also fill `predecessor` (a post-pass, predecessors.hpp)
};

struct SsspResult {
  NumaArray<double> dist;  // +infinity when unreachable
  // With SsspOptions::predecessors: each vertex's predecessor on a shortest
  // path (caller ids; -1 unreachable, the source its own), the smallest
  // tight one (predecessors.hpp); otherwise empty.
  NumaArray<std::int64_t> predecessor;
  double delta = 0;        // the bucket width the search used
  int rounds = 0;          // engine only: rounds of the search
  CallInfo ran;
};

// Brings the distances of a run on a renumbered graph back to the caller's
// ids (EngineCall::ids()).
template <typename V>
void unpermute(SsspResult& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.dist, ids);
}

}  // namespace numagraph::kernels
