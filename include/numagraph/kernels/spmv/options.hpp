// SpMV parameters and result, shared by the flat and engine products.
#pragma once

#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/sweep/cache_blocking.hpp"

namespace numagraph::kernels {

struct SpmvOptions {
  int iterations = 5;  // products per call (power iteration: x <- A x / sum|A x|)
  // Cache blocking (sweep/cache_blocking.hpp): kAutoBlock, 0 (off) or bytes
  // of x per block: tiles on the flat kernel, column segments on the engine.
  std::int64_t cache_block_bytes = kAutoBlock;
};

struct SpmvResult {
  NumaArray<double> y;      // the last product A x (before normalisation)
  int iterations = 0;
  int cache_segments = 1;   // column ranges of a blocked product (1: not blocked)
  int tile_row_bits = 0;    // rows per tile of the tiled flat product, as 2^bits (0: not tiled)
  double cache_copy_s = 0;  // seconds spent building the tiles (flat kernel)
  CallInfo ran;
};

// Brings the product of a run on a renumbered graph back to the caller's
// ids (EngineCall::ids()). Nothing goes in: x starts uniform (1/n), the same
// vector in any order.
template <typename V>
void unpermute(SpmvResult& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.y, ids);
}

}  // namespace numagraph::kernels
