// numagraph closeness / numagraph harmonic: closeness and harmonic
// centrality (NetworkX's definitions, incoming distances), exact or from
// sampled sources. One kernel computes both; the command picks which to report.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/closeness/closeness.hpp"
#include "numagraph/verify/closeness.hpp"
#include "registry.hpp"
#include "summary.hpp"

namespace numagraph::cli {
namespace {

struct ClosenessCommand {
  bool harmonic = false;  // which measure the command reports
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  std::int64_t samples = 0;
  bool no_wf_improved = false;
  bool unweighted = false;
  std::string output;
};

template <typename G>
void run_closeness(const ClosenessCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  ClosenessOptions o;
  o.wf_improved = !c.no_wf_improved;
  o.samples = c.samples;
  o.seed = c.run.seed;
  o.use_weights = !c.unweighted;
  ClosenessResult<V> r;
  const auto seconds = time_trials(c.run.trials, [&](int) { r = numagraph::closeness(g, o, x); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::closeness(cg, r, o.wf_improved);
    verified = v.ok;
    why = v.message;
  }
  const char* measure = c.harmonic ? "harmonic" : "closeness";
  const NumaArray<double>& scores = c.harmonic ? r.harmonic : r.closeness;
  if (!c.output.empty()) write_vertex_values(c.output, cg, scores.data(), measure);
  profile::Record rec = base_record(measure, lg, c.run);
  const auto n = static_cast<std::int64_t>(cg.num_vertices());
  const std::int64_t sources = r.sources.empty() ? n : static_cast<std::int64_t>(r.sources.size());
  rec.set("exact", !r.sampled)
      .set("sources", sources)
      .set("weighted", r.weighted)
      .set("batches", static_cast<std::int64_t>(r.batches));
  if (!c.harmonic) rec.set("wf_improved", o.wf_improved);
  if (r.sampled) rec.set("seed", static_cast<std::int64_t>(o.seed));
  report_engine(rec, c.engine, r.ran, {}, c.run.json);
  Summary s;
  s.lines.push_back(format("%s centrality%s from %s%s", measure, r.weighted ? " (weighted distances)" : "",
                           r.sampled ? format("%lld sampled sources (estimate)", static_cast<long long>(sources)).c_str()
                                     : format("all %lld vertices (exact)", static_cast<long long>(n)).c_str(),
                           ""));
  summarize_top(s, rec, cg, scores.data(), measure);
  emit(c.run, rec, seconds, verified, why, s);
}

void setup_closeness(CLI::App& app, bool harmonic) {
  auto c = std::make_shared<ClosenessCommand>();
  c->harmonic = harmonic;
  add_graph_options(app, c->src);
  add_run_options(app, c->run);
  add_engine_options(app, c->engine);
  app.add_option("--samples", c->samples,
                 "estimate from K sources sampled uniformly (--seed; Eppstein-Wang, docs/kernels/closeness.md); "
                 "default: exact from every vertex")
      ->check(kPositive);
  if (!harmonic)
    app.add_flag("--no-wf-improved", c->no_wf_improved,
                 "closeness r/S without the Wasserman-Faust factor r/(n-1) (networkx wf_improved=False)");
  app.add_flag("--unweighted", c->unweighted, "count hops on a weighted graph (default: Dijkstra on the weights)");
  app.add_option("--output", c->output,
                 values_output_help(harmonic ? "each vertex's harmonic centrality" : "each vertex's closeness centrality",
                                    harmonic ? "harmonic" : "closeness"));
  app.callback([c] {
    apply_run_options(c->run);
    LoadedGraph lg = load_graph(c->src);
    numagraph::visit([&](const auto& g) { run_closeness(*c, lg, g); }, lg.graph);
  });
}

const Register kCloseness{{"closeness",
                           "closeness centrality (incoming distances, as networkx.closeness_centrality; exact by "
                           "bit-parallel BFS or Dijkstra, or sampled)",
                           207, [](CLI::App& app) { setup_closeness(app, false); },
                           {"closeness_centrality", "closeness-centrality"}}};
const Register kHarmonic{{"harmonic",
                          "harmonic centrality (sum of 1/d over incoming distances, as networkx.harmonic_centrality)",
                          208, [](CLI::App& app) { setup_closeness(app, true); },
                          {"harmonic_centrality", "harmonic-centrality"}}};

}  // namespace
}  // namespace numagraph::cli
