// numagraph spmv: repeated sparse matrix-vector product (power iteration).
#include <memory>
#include <optional>
#include <vector>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/spmv/spmv.hpp"
#include "registry.hpp"
#include "numagraph/verify/spmv.hpp"

namespace numagraph::cli {
namespace {

struct SpmvCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  SpmvOptions spmv;
  std::string output;
};

// The answer: norms of the last product y = A x. x has L1 norm 1 after the
// first product, so |y|_1 is the growth per product (it tends to the largest
// eigenvalue when A is non-negative), and the largest entry with its vertex.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const SpmvResult& r) {
  double l1 = 0, l2 = 0;
  for (std::size_t v = 0; v < r.y.size(); ++v) {
    l1 += std::fabs(r.y[v]);
    l2 += r.y[v] * r.y[v];
  }
  l2 = std::sqrt(l2);
  const auto top = top_vertices(g, r.y.data(), 1);
  rec.set("y_l1", l1)
      .set("y_l2", l2)
      .set("result_bytes", static_cast<std::int64_t>(r.y.size() * sizeof(double)));
  Summary s;
  s.keys = {"y_l1", "y_l2"};
  s.lines.push_back(format("y = A x after %s: |y|_1 = %.6g (growth per product), "
                           "|y|_2 = %.6g",
                           count_of(r.iterations, "product").c_str(), l1, l2));
  if (!top.empty())
    s.lines.push_back(format("largest entry %.6g at vertex %llu", top[0].second,
                             static_cast<unsigned long long>(top[0].first)));
  return s;
}

template <typename G>
void run_spmv(const SpmvCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  SpmvResult r;
  std::vector<double> copy_seconds;  // per trial: building the tiles (flat kernel)
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = SpmvResult();  // hand the last trial's arrays back before the next takes its own
        r = numagraph::spmv(g, c.spmv, x);
        copy_seconds.push_back(r.cache_copy_s);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::spmv(cg, c.spmv.iterations, r.y.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::spmv(g, c.spmv, ax); });
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.y.data(), "value");
  profile::Record rec = base_record("spmv", lg, c.run);
  rec.set("iterations", c.spmv.iterations)
      .set("cache_segments", r.cache_segments)
      .set("tile_row_bits", r.tile_row_bits)
      .set("cache_copy_s", median(copy_seconds));
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, r));
}

const Register kSpmv{{"spmv", "repeated sparse matrix-vector product y = A x (power iteration)", 210, [](CLI::App& app) {
                        auto c = std::make_shared<SpmvCommand>();
                        add_graph_options(app, c->src);
                        add_run_options(app, c->run);
                        add_engine_options(app, c->engine);
                        app.add_option("-i,--iterations", c->spmv.iterations, "products per run (5)")->check(kPositive);
                        app.add_option("--output", c->output, values_output_help("each vertex's entry of y (the last product)", "value"));
                        add_cache_block_option(app, c->spmv.cache_block_bytes, "x");
                        app.callback([c] {
                          apply_run_options(c->run);
                          LoadedGraph lg = load_graph(c->src);
                          numagraph::visit([&](const auto& g) { run_spmv(*c, lg, g); }, lg.graph);
                        });
                      }}};

}  // namespace
}  // namespace numagraph::cli
