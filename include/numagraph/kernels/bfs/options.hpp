// BFS parameters and result, shared by every BFS variant (flat and engine).
#pragma once

#include <cstdint>
#include <type_traits>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/reorder/permutation.hpp"

namespace numagraph::kernels {

struct BfsOptions {
  double alpha = 15;  // top-down -> bottom-up when frontier edges > unexplored edges / alpha (Beamer)
  double beta = 18;   // bottom-up -> top-down when the frontier has fewer than n / beta vertices
  // Vertices per summary-bitmap bit (power of two, 64..4096): the flat
  // kernel's bottom-up probe; the engine's bitmaps have a fixed summary, so
  // the engine refuses any other value.
  int summary_bits = 256;
  bool compute_depth = true;  // also fill `depth` (the CLI times BFS without it, as Graph500 does)
};

// Parents are signed ids of the graph's width (32-bit graphs have fewer than
// 2^31 vertices): a negative value marks an unreached vertex (it holds
// -(out-degree + 1), left from the search; no extra pass rewrites it), and
// the root is its own parent.
template <typename V>
struct BfsResult {
  using Parent = std::make_signed_t<V>;
  NumaArray<Parent> parent;
  NumaArray<std::int32_t> depth;  // -1: unreached; empty when not computed
  int top_down_steps = 0;
  int bottom_up_steps = 0;
  CallInfo ran;
};

// Brings a result computed on a renumbered graph back to the caller's ids
// (EngineCall::ids()): both arrays in the caller's order, parents as caller
// ids; an unreached vertex keeps its negative mark (-(out-degree + 1), the
// same vertex's degree in either numbering).
template <typename V>
void unpermute(BfsResult<V>& r, const reorder::Permutation<V>& ids) {
  using Parent = typename BfsResult<V>::Parent;
  to_caller_order(r.parent, ids, [&](Parent p) { return p < 0 ? p : static_cast<Parent>(ids.to_old(static_cast<V>(p))); });
  to_caller_order(r.depth, ids);
}

}  // namespace numagraph::kernels
