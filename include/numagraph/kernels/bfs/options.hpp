// BFS parameters and result, shared by every BFS variant (flat and engine).
#pragma once

#include <cstdint>
#include <type_traits>

#include "numagraph/execution.hpp"
#include "numagraph/numa/numa_array.hpp"

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

}  // namespace numagraph::kernels
