// numagraph bp: loopy belief propagation on a pairwise binary MRF.
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/bp/belief_propagation.hpp"
#include "registry.hpp"
#include "numagraph/verify/bp.hpp"

namespace numagraph::cli {
namespace {

struct BpCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  BpOptions model;
  std::string output;
};

// The answer: how the beliefs P(x=1) spread: their mean, range, and how
// many vertices lean to 1.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const BpResult& r) {
  double sum = 0, low = 1, high = 0;
  std::int64_t leaning = 0;
  for (std::size_t v = 0; v < r.belief.size(); ++v) {
    sum += r.belief[v];
    low = std::min(low, static_cast<double>(r.belief[v]));
    high = std::max(high, static_cast<double>(r.belief[v]));
    leaning += r.belief[v] > 0.5;
  }
  const double mean = r.belief.size() ? sum / static_cast<double>(r.belief.size()) : 0.0;
  rec.set("belief_mean", mean)
      .set("belief_above_half", leaning)
      .set("result_bytes", static_cast<std::int64_t>(r.belief.size() * sizeof(r.belief[0])));
  Summary s;
  s.keys = {"belief_mean", "belief_above_half"};
  s.lines.push_back(format("beliefs P(x=1): mean %.6g, range %.6g..%.6g; %s above 1/2", mean,
                           r.belief.size() ? low : 0.0, high, share(leaning, g.num_vertices()).c_str()));
  return s;
}

template <typename G>
void run_bp(const BpCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  BpResult r;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = BpResult();
        r = numagraph::belief_propagation(g, c.model, x);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::belief_propagation(cg, c.model, r.belief.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts =
      account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::belief_propagation(g, c.model, ax); });
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.belief.data(), "probability");
  profile::Record rec = base_record("bp", lg, c.run);
  rec.set("iterations", c.model.iterations).set("coupling", c.model.coupling).set("prior_seed", c.model.seed);
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, r));
}

const Register kBp{{"bp", "loopy belief propagation (pairwise binary MRF, synchronous schedule)", 220, [](CLI::App& app) {
                      auto c = std::make_shared<BpCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_engine_options(app, c->engine);
                      app.add_option("-i,--iterations", c->model.iterations, "message-passing rounds (5)")
                          ->check(kPositive);
                      app.add_option("--coupling", c->model.coupling,
                                     "edge potential: psi(x,x) = c, psi(x,1-x) = 1-c (0.7)")
                          ->check(CLI::Range(0.0, 1.0));
                      app.add_option("--prior-seed", c->model.seed, "seed of the per-vertex priors");
                      app.add_option("--output", c->output, values_output_help("each vertex's belief P(x=1)", "probability"));
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        note_unused_weights("bp", lg);
                        numagraph::visit([&](const auto& g) { run_bp(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"belief_propagation", "belief-propagation"}}};

}  // namespace
}  // namespace numagraph::cli
