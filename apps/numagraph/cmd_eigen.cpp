// numagraph eigenvector and numagraph katz: eigenvector and Katz centrality
// (NetworkX's power iterations, kernels/eigen/).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/eigen/centrality.hpp"
#include "numagraph/verify/eigen.hpp"
#include "observe.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct EigenCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  EigenvectorOptions eigen;
  KatzOptions katz;
  bool unweighted = false;
  bool no_normalize = false;
  std::string output;
};

template <typename G>
Summary summarize(profile::Record& rec, const G& g, const CentralityResult& r, const char* what, bool weights) {
  Summary s;
  rec.set("result_bytes", static_cast<std::int64_t>(r.values.size() * sizeof(double)));
  s.lines.push_back(format("%s of %s%s, %s (L1 change %.3g)", what,
                           count_of(g.num_vertices(), "vertex", "vertices").c_str(),
                           weights ? ", weighted by the edge weights (--unweighted ignores them)"
                                   : (g.weighted() ? ", edge weights ignored (--unweighted)" : ""),
                           count_of(r.iterations, "iteration").c_str(), r.last_change));
  summarize_top(s, rec, g, r.values.data(), "centrality");
  return s;
}

// One command for both problems: `katz` picks the options and entry point.
template <typename G>
void run_centrality(const EigenCommand& c, const LoadedGraph& lg, const G& g, bool katz) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  EigenvectorOptions eo = c.eigen;
  KatzOptions ko = c.katz;
  eo.use_weights = ko.use_weights = !c.unweighted;
  ko.normalized = !c.no_normalize;
  const int max_iterations = katz ? ko.max_iterations : eo.max_iterations;
  auto call = [&](const Execution& ex) {
    return katz ? numagraph::katz_centrality(g, ko, ex) : numagraph::eigenvector_centrality(g, eo, ex);
  };
  expect_progress("iteration", static_cast<std::int64_t>(max_iterations) * c.run.trials, "iterations", true);
  CentralityResult r;
  std::vector<double> copy_seconds;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = CentralityResult();
        r = call(x);
        copy_seconds.push_back(r.cache_copy_s);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = katz ? verify::katz_centrality(cg, ko, r.values.data())
                        : verify::eigenvector_centrality(cg, eo, r.values.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { call(ax); });
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.values.data(), "centrality");
  const bool weights = !c.unweighted && g.weighted();
  profile::Record rec = base_record(katz ? "katz" : "eigenvector", lg, c.run);
  rec.set("tolerance", katz ? ko.tolerance : eo.tolerance)
      .set("max_iterations", max_iterations)
      .set("iterations", r.iterations)
      .set("last_change", r.last_change)
      .set("weights_used", weights)
      .set("cache_segments", r.cache_segments)
      .set("cache_copy_s", median(copy_seconds));
  if (katz)
    rec.set("alpha", ko.alpha).set("beta", ko.beta).set("normalized", ko.normalized);
  else
    rec.set("eigenvalue", r.eigenvalue);
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why,
       summarize(rec, cg, r, katz ? "Katz centrality" : "eigenvector centrality", weights));
}

// The flags both commands share.
void add_common(CLI::App& app, const std::shared_ptr<EigenCommand>& c, int& max_iterations, double& tolerance,
                int default_iterations) {
  add_graph_options(app, c->src);
  add_run_options(app, c->run);
  add_engine_options(app, c->engine);
  app.add_option("-i,--max-iterations", max_iterations,
                 "iterations before giving up with an error (" + std::to_string(default_iterations) +
                     ", NetworkX's max_iter)")
      ->check(kPositive);
  app.add_option("--tolerance", tolerance, "stop when the L1 change is below n * tolerance (1e-6, NetworkX's tol)")
      ->check(kNonNegative);
  app.add_flag("--unweighted", c->unweighted,
               "ignore the edge weights of a weighted graph (NetworkX's weight=None); by default an in-edge "
               "counts with its weight");
  app.add_option("--output", c->output, values_output_help("each vertex's centrality", "centrality"));
}

const Register kEigenvector{
    {"eigenvector",
     "eigenvector centrality (power iteration on A^T + I, as networkx.eigenvector_centrality; in-edges)", 205,
     [](CLI::App& app) {
       auto c = std::make_shared<EigenCommand>();
       add_common(app, c, c->eigen.max_iterations, c->eigen.tolerance, 100);
       add_cache_block_option(app, c->eigen.cache_block_bytes, "centralities");
       app.footer("Stops after the first iteration whose L1 change is below n * tolerance; fails (exit 2) "
                  "after --max-iterations. The vector has L2 norm 1. docs/kernels/eigenvector.md");
       app.callback([c] {
         apply_run_options(c->run);
         LoadedGraph lg = load_graph(c->src);
         numagraph::visit([&](const auto& g) { run_centrality(*c, lg, g, false); }, lg.graph);
       });
     },
     {"eigenvector_centrality", "eigenvector-centrality"}}};

const Register kKatz{
    {"katz", "Katz centrality (x = alpha A^T x + beta, as networkx.katz_centrality; in-edges)", 206,
     [](CLI::App& app) {
       auto c = std::make_shared<EigenCommand>();
       add_common(app, c, c->katz.max_iterations, c->katz.tolerance, 1000);
       app.add_option("--alpha", c->katz.alpha,
                      "attenuation factor (0.1); converges when below 1 / (largest eigenvalue of A)");
       app.add_option("--beta", c->katz.beta, "every vertex's own weight (1.0)");
       app.add_flag("--no-normalize", c->no_normalize,
                    "return the fixed point itself (NetworkX's normalized=False); by default it is scaled to "
                    "L2 norm 1");
       add_cache_block_option(app, c->katz.cache_block_bytes, "centralities");
       app.footer("Starts from 0; stops after the first iteration whose L1 change is below n * tolerance; "
                  "fails (exit 2) after --max-iterations. docs/kernels/eigenvector.md");
       app.callback([c] {
         apply_run_options(c->run);
         LoadedGraph lg = load_graph(c->src);
         numagraph::visit([&](const auto& g) { run_centrality(*c, lg, g, true); }, lg.graph);
       });
     },
     {"katz_centrality", "katz-centrality"}}};

}  // namespace
}  // namespace numagraph::cli
