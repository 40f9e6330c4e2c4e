// numagraph pr: PageRank (pull; Jacobi or Gauss-Seidel; NetworkX mode).
#include <memory>
#include <optional>
#include <vector>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "registry.hpp"
#include "numagraph/verify/pr.hpp"

namespace numagraph::cli {
namespace {

struct PrCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  PageRankOptions pr;
  std::string variant = "auto";
  std::string output;
};

// The answer: the sum of the scores (below 1 when dangling mass is dropped)
// and the ten best vertices.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const PageRankOptions& o,
                  const PageRankResult& r) {
  Summary s;
  double sum = 0;
  for (std::size_t v = 0; v < r.scores.size(); ++v) sum += r.scores[v];
  rec.set("score_sum", sum)
      .set("result_bytes", static_cast<std::int64_t>(r.scores.size() * sizeof(r.scores[0])));
  std::int64_t dangling = 0;  // vertices without out-edges: where the default model loses mass
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    dangling += g.out_degree(static_cast<typename G::vertex_type>(v)) == 0;
  rec.set("dangling_vertices", dangling);
  std::string model;
  if (dangling > 0)
    model = format(o.networkx ? " (%lld dangling vertices: their mass spread over all, as NetworkX)"
                              : " (%lld dangling vertices: their mass dropped, as gapbs; "
                                "--networkx spreads it, sum 1)",
                   static_cast<long long>(dangling));
  s.lines.push_back(format("PageRank of %lld vertices, %d iterations: scores sum to %.6g%s",
                           static_cast<long long>(g.num_vertices()), r.iterations, sum, model.c_str()));
  summarize_top(s, rec, g, r.scores.data(), "score");
  return s;
}

template <typename G>
void run_pr(const PrCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  PageRankOptions o = c.pr;
  o.variant = kernels::parse_pagerank_variant(c.variant);
  PageRankResult r;
  std::vector<double> copy_seconds;  // per trial: building the blocked copy (flat kernels)
  expect_progress("iteration", static_cast<std::int64_t>(o.max_iterations) * c.run.trials, "iterations",
                  o.tolerance > 0);
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = PageRankResult();  // hand the last trial's arrays back before the next takes its own
        r = numagraph::pagerank(g, o, x);
        copy_seconds.push_back(r.cache_copy_s);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::pagerank(cg, o, r.scores.data(), r.last_change);
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::pagerank(g, o, ax); });
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.scores.data(), "score");
  profile::Record rec = base_record("pr", lg, c.run);
  rec.set("variant", kernels::to_string(r.variant))
      .set("damping", o.damping)
      .set("tolerance", o.tolerance)
      .set("max_iterations", o.max_iterations)
      .set("iterations", r.iterations)
      .set("last_change", r.last_change)
      .set("networkx", o.networkx)
      .set("cache_segments", r.cache_segments)
      .set("tile_row_bits", r.tile_row_bits)
      .set("cache_copy_s", median(copy_seconds));
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, o, r));
}

const Register kPr{{"pr", "PageRank (pull, damping 0.85)", 200, [](CLI::App& app) {
                      auto c = std::make_shared<PrCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_engine_options(app, c->engine);
                      app.add_option("-i,--iterations", c->pr.max_iterations, "maximum iterations (20)")
                          ->check(kPositive);
                      app.add_option("--tolerance", c->pr.tolerance,
                                     "stop when the L1 change is below this (1e-4; 0: run every iteration)")
                          ->check(kNonNegative);
                      app.add_option("--damping", c->pr.damping, "damping factor (0.85)")->check(CLI::Range(0.0, 1.0));
                      app.add_flag("--networkx", c->pr.networkx,
                                   "match networkx.pagerank: dangling mass spread uniformly (scores sum to 1), stop "
                                   "at L1 < n * tolerance (defaults then tolerance 1e-6, 100 iterations, as NetworkX)");
                      app.footer(
                          "Model: by default, as gapbs, the score mass of dangling vertices (no "
                          "out-edges) is dropped, so the scores sum to less than 1 on graphs that "
                          "have them (0.754 on kron16); --networkx spreads it as networkx.pagerank "
                          "does. The first line of the output gives the sum and the dangling count. "
                          "On kron20 the NetworkX model reaches the same L1 change in 0.79-0.94x the "
                          "default's time (docs/kernels/pr.md).");
                      app.add_option("--variant", c->variant,
                                     "jacobi, gauss-seidel, or auto (default): gauss-seidel on the flat engine, "
                                     "jacobi with --networkx or on the NUMA engine (which has jacobi only)")
                          ->check(CLI::IsMember({"jacobi", "gauss-seidel", "auto"}));
                      app.add_option("--output", c->output, values_output_help("each vertex's PageRank score", "score"));
                      add_cache_block_option(app, c->pr.cache_block_bytes, "contributions");
                      app.callback([c, &app] {
                        // NetworkX's own defaults, unless given explicitly.
                        if (c->pr.networkx && app.count("--tolerance") == 0) c->pr.tolerance = 1e-6;
                        if (c->pr.networkx && app.count("--iterations") == 0) c->pr.max_iterations = 100;
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        numagraph::visit([&](const auto& g) { run_pr(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"pagerank"}}};

}  // namespace
}  // namespace numagraph::cli
