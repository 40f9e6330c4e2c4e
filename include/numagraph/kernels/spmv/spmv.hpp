// numagraph::spmv — the repeated sparse matrix-vector product entry point:
// rows of the CSR (csr_rows.hpp, tiled when x outgrows the L2) or the NUMA
// engine's per-node rows (engine_rows.hpp), as the Execution chooses.
#pragma once

#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/spmv/engine_rows.hpp"
#include "numagraph/kernels/spmv/options.hpp"

namespace numagraph {

using kernels::SpmvOptions;
using kernels::SpmvResult;

// The product in the caller's ids; runs on the graph in Execution::reorder's order.
template <typename V>
SpmvResult spmv(const CSRGraph<V>& g, const SpmvOptions& o = {}, const Execution& x = {}) {
  if (o.iterations < 1) throw UsageError("SpMV needs at least 1 iteration");
  kernels::EngineCall<V> call(g, x, "spmv", {.push = false, .out = true});
  const auto& kg = call.graph();
  SpmvResult r;
  if (call.engine()) {
    const std::int64_t width = kernels::spmv_block_width(kg, o.iterations, o.cache_block_bytes);
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::spmv_numa(pg, o.iterations, mode, acc, width);
    });
  } else {
    const TileShape shape = kernels::spmv_tile_shape(kg, o.iterations, o.cache_block_bytes);
    r.y = call.run_flat([&] { return kernels::spmv_rows(kg, o.iterations, shape, &r.cache_copy_s); });
    r.iterations = o.iterations;
    if (shape.tiled() && g.num_vertices() > 0) {
      r.cache_segments = static_cast<int>(((g.num_vertices() - 1) >> shape.col_bits) + 1);
      r.tile_row_bits = shape.row_bits;
    }
  }
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
  return r;
}

}  // namespace numagraph
