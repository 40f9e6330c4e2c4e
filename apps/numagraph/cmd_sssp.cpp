// numagraph sssp: delta-stepping shortest paths from one or several roots.
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/numa_delta_stepping.hpp"
#include "registry.hpp"
#include "roots_cli.hpp"
#include "numagraph/verify/sssp.hpp"

namespace numagraph::cli {
namespace {

struct SsspCommand {
  GraphSource src;
  RunOptions run;
  EngineOptions engine;
  RootOptions roots;
  double delta = 0;
  std::string output;
};

template <typename G>
void run_sssp(const SsspCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  kernels::refuse_negative_weights(g);
  const double delta = c.delta > 0 ? c.delta : kernels::default_delta(g);
  const auto roots = resolve_roots(g, c.roots, c.run);
  auto eng = prepare_engine(g, c.engine, {true, false});
  std::vector<double> seconds;
  std::optional<bool> verified;
  std::string why;
  NumaArray<double> dist;
  kernels::SsspWorkspace ws;  // the 32-bit test and array, kept across roots
  for (const V root : roots) {
    seconds.push_back(time_trials(1, [&](int) {
      if (eng.numa) {
        engine::NoAccounting none;
        kernels::sssp_numa(*eng.pg, root, delta, engine::EngineMode::kNuma, none, &ws, dist);
      } else {
        kernels::sssp_delta_stepping(g, root, delta, dist, &ws);
      }
    })[0]);
    if (c.run.verify) {
      const auto v = verify::sssp(g, root, dist.data());
      merge_verdict(verified, why, v.ok, v.message);
    }
  }
  const auto counts = account_if_asked(c.engine, eng, [&](engine::EngineMode m, engine::Accounting& acc) {
    kernels::sssp_numa(*eng.pg, roots[0], delta, m, acc, &ws);
  });
  if (!c.output.empty()) write_vertex_values(c.output, g, dist.data());
  profile::Record rec = base_record("sssp", lg, c.run);
  std::vector<std::uint64_t> labels;
  for (V r : roots) labels.push_back(g.label(r));
  rec.set("roots", labels).set("delta", delta);
  report_engine(rec, c.engine, eng.numa, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why);
}

const Register kSssp{{"sssp", "single-source shortest paths (delta-stepping)", 110, [](CLI::App& app) {
                        auto c = std::make_shared<SsspCommand>();
                        add_graph_options(app, c->src);
                        add_run_options(app, c->run);
                        add_engine_options(app, c->engine);
                        add_root_options(app, c->roots);
                        app.add_option("--delta", c->delta,
                                       "bucket width, > 0 (default: the mean edge weight, at least 1)")
                            ->check(kPositive);
                        app.add_option("--output", c->output, "write 'id distance' per vertex for the last root (inf: unreachable)");
                        app.callback([c] {
                          apply_run_options(c->run);
                          LoadedGraph lg = load_graph(c->src);
                          numagraph::visit([&](const auto& g) { run_sssp(*c, lg, g); }, lg.graph);
                        });
                      }}};

}  // namespace
}  // namespace numagraph::cli
