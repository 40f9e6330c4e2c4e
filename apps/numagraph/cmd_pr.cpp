// numagraph pr: PageRank (pull; Jacobi or Gauss-Seidel; NetworkX mode).
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
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
  bool unweighted = false;
  std::string personalization;  // files of "id value" lines (empty: not given)
  std::string dangling;
};

// One value per vertex of g (the caller's ids) from a file of "id value"
// lines: the id as the user writes it (a name for graphs read with names;
// everything before the last blank, so names may hold blanks), values >= 0,
// not all 0; unlisted vertices get 0. Blank lines and '#' comments skipped.
template <typename G>
std::vector<double> read_vertex_distribution(const G& g, const std::string& path, const std::string& option) {
  using V = typename G::vertex_type;
  std::ifstream in(path);
  if (!in) throw IoError("cannot open " + path + " (the " + option + " file)");
  std::unordered_map<std::string, V> by_name;  // names looked up once each, not by a scan per line
  if (g.named())
    for (std::int64_t v = 0; v < g.num_vertices(); ++v)
      by_name.emplace((*g.names())[kernels::user_label(g, static_cast<V>(v))], static_cast<V>(v));
  std::vector<double> values(static_cast<std::size_t>(g.num_vertices()), 0.0);
  std::vector<bool> seen(values.size(), false);
  double sum = 0;
  std::string line;
  for (std::int64_t ln = 1; std::getline(in, line); ++ln) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t end = line.find_last_not_of(" \t\r") + 1;
    const std::size_t gap = line.find_last_of(" \t", end - 1);
    if (gap == std::string::npos || gap < first)
      throw InputError(path, ln, "expected a vertex id and a value, found '" + line.substr(first, end - first) + "'");
    const std::string value_text = line.substr(gap + 1, end - gap - 1);
    const std::string id_text = line.substr(first, line.find_last_not_of(" \t", gap) + 1 - first);
    V v;
    try {
      if (g.named()) {
        const auto it = by_name.find(id_text);
        if (it == by_name.end())
          throw UsageError("vertex '" + id_text + "' is not a name in the graph (names are matched exactly, as the "
                           "graph file spells them)");
        v = it->second;
      } else {
        v = kernels::dense_id_of(g, id_text);
      }
    } catch (const UsageError& e) {
      throw InputError(path, ln, e.what());
    }
    double value = 0;
    std::size_t used = 0;
    try {
      value = std::stod(value_text, &used);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != value_text.size() || !std::isfinite(value) || value < 0)
      throw InputError(path, ln, "the value of vertex " + id_text + " must be a finite number >= 0, found '" +
                                     value_text + "'");
    if (seen[v]) throw InputError(path, ln, "vertex " + id_text + " is listed twice");
    seen[v] = true;
    values[v] = value;
    sum += value;
  }
  if (!(sum > 0))
    throw InputError(path, 0, "no vertex has a positive value: the " + option +
                                  " file lists \"id value\" lines, at least one value above 0");
  return values;
}

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
  using V = typename G::vertex_type;
  const bool weights = kernels::pagerank_weights_used(g, o);
  // Dangling vertices, where the default model loses mass: no out-edges, or
  // (weights used) out-edges of weight 0 only.
  std::int64_t dangling = 0;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    double out = static_cast<double>(g.out_degree(static_cast<V>(v)));
    if (weights) {
      out = 0;
      for (const weight_t w : g.out_weights(static_cast<V>(v))) out += static_cast<double>(w);
    }
    dangling += !(out > 0);
  }
  rec.set("dangling_vertices", dangling);
  const char* spread = !o.dangling.empty()        ? "spread as --dangling"
                       : o.personalization.empty() ? "spread over all"
                                                   : "spread as the personalization";
  std::string model;
  if (dangling > 0)
    model = o.networkx ? format(" (%s: their mass %s, as NetworkX)",
                                count_of(dangling, "dangling vertex", "dangling vertices").c_str(), spread)
                       : format(" (%s: their mass dropped, as gapbs; --networkx spreads it, sum 1)",
                                count_of(dangling, "dangling vertex", "dangling vertices").c_str());
  std::string how;  // the model, when not the plain one
  if (weights)
    how = ", weighted by the edge weights (--unweighted ignores them)";
  else if (g.weighted())
    how = ", edge weights ignored (--unweighted)";
  if (!o.personalization.empty()) how += ", personalized";
  s.lines.push_back(format("PageRank of %s%s, %s: scores sum to %.6g%s",
                           count_of(g.num_vertices(), "vertex", "vertices").c_str(), how.c_str(),
                           count_of(r.iterations, "iteration").c_str(), sum, model.c_str()));
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
  o.use_weights = !c.unweighted;
  if (!c.personalization.empty())
    o.personalization = read_vertex_distribution(cg, c.personalization, "--personalization");
  if (!c.dangling.empty()) o.dangling = read_vertex_distribution(cg, c.dangling, "--dangling");
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
      .set("weights_used", kernels::pagerank_weights_used(cg, o))
      .set("personalized", !o.personalization.empty())
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
                          "does. On a weighted graph an edge passes on its source's score in "
                          "proportion to its weight (NetworkX's weighted PageRank; --unweighted: "
                          "every edge counts 1). The first line of the output gives the sum and the "
                          "dangling count. "
                          "On kron20 the NetworkX model reaches the same L1 change in 0.79-0.94x the "
                          "default's time (docs/kernels/pr.md).");
                      app.add_flag("--unweighted", c->unweighted,
                                   "ignore the edge weights of a weighted graph (every edge counts 1, NetworkX's "
                                   "weight=None); by default an edge passes on its source's score in proportion "
                                   "to its weight");
                      app.add_option("--personalization", c->personalization,
                                     "file of \"id value\" lines (ids, or names for graphs read with names): the "
                                     "teleport distribution, normalized; unlisted vertices get 0 (NetworkX's "
                                     "personalization)");
                      app.add_option("--dangling", c->dangling,
                                     "with --networkx: file of \"id value\" lines, where the dangling mass goes "
                                     "(default: as --personalization, else uniform; NetworkX's dangling)");
                      app.add_option("--variant", c->variant,
                                     "jacobi, gauss-seidel, or auto (default): gauss-seidel on the flat engine, "
                                     "jacobi with --networkx, weights, --personalization or on the NUMA engine (which has jacobi "
                                     "only)")
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
