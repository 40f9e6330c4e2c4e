// numagraph spmv: repeated sparse matrix-vector product (power iteration).
#include <memory>
#include <optional>
#include <vector>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/spmv/csr_rows.hpp"
#include "numagraph/kernels/spmv/numa_partitioned.hpp"
#include "registry.hpp"
#include "numagraph/verify/spmv.hpp"

namespace numagraph::cli {
namespace {

struct SpmvCommand {
  GraphSource src;
  RunOptions run;
  EngineOptions engine;
  int iterations = 5;
  std::int64_t cache_block_bytes = kAutoBlock;
  std::string output;
};

template <typename G>
void run_spmv(const SpmvCommand& c, const LoadedGraph& lg, const G& g) {
  auto eng = prepare_engine(g, c.engine, {false, true});
  // The blocking decisions (graph/cache_blocking.hpp): column segments for
  // the NUMA engine, tiles for the flat kernel.
  const std::int64_t width = kernels::spmv_block_width(g, c.iterations, c.cache_block_bytes);
  const TileShape shape = kernels::spmv_tile_shape(g, c.iterations, c.cache_block_bytes);
  NumaArray<double> y;
  std::vector<double> copy_seconds;  // per trial: building the tiles (flat kernel)
  const auto seconds = time_trials(c.run.trials, [&](int) {
    if (eng.numa) {
      engine::NoAccounting none;
      y = kernels::spmv_numa(*eng.pg, c.iterations, engine::EngineMode::kNuma, none, width).y;
    } else {
      double copy = 0;
      y = kernels::spmv_rows(g, c.iterations, shape, &copy);
      copy_seconds.push_back(copy);
    }
  });
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::spmv(g, c.iterations, y.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, eng, [&](engine::EngineMode m, engine::Accounting& acc) {
    kernels::spmv_numa(*eng.pg, c.iterations, m, acc, width);
  });
  if (!c.output.empty()) write_vertex_values(c.output, g, y.data());
  profile::Record rec = base_record("spmv", lg, c.run);
  rec.set("iterations", c.iterations);
  const std::int64_t n = g.num_vertices();
  std::int64_t segments = 1;  // column ranges of the blocked product
  if (eng.numa && width > 0) segments = (n + width - 1) / width;
  if (!eng.numa && shape.tiled()) segments = ((n - 1) >> shape.col_bits) + 1;
  rec.set("cache_segments", segments);
  rec.set("tile_row_bits", !eng.numa && shape.tiled() ? shape.row_bits : 0);
  rec.set("cache_copy_s", copy_seconds.empty() ? 0.0 : median(copy_seconds));
  report_engine(rec, c.engine, eng.numa, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why);
}

const Register kSpmv{{"spmv", "repeated sparse matrix-vector product y = A x (power iteration)", 210, [](CLI::App& app) {
                        auto c = std::make_shared<SpmvCommand>();
                        add_graph_options(app, c->src);
                        add_run_options(app, c->run);
                        add_engine_options(app, c->engine);
                        app.add_option("-i,--iterations", c->iterations, "products per run (5)")->check(kPositive);
                        app.add_option("--output", c->output, "write 'id y' per vertex (the last product)");
                        add_cache_block_option(app, c->cache_block_bytes, "x");
                        app.callback([c] {
                          apply_run_options(c->run);
                          LoadedGraph lg = load_graph(c->src);
                          numagraph::visit([&](const auto& g) { run_spmv(*c, lg, g); }, lg.graph);
                        });
                      }}};

}  // namespace
}  // namespace numagraph::cli
