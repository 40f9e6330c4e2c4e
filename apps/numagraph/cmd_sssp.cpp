// numagraph sssp: delta-stepping shortest paths from one or several roots.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "paths_cli.hpp"
#include "registry.hpp"
#include "roots_cli.hpp"
#include "numagraph/verify/sssp.hpp"

namespace numagraph::cli {
namespace {

struct SsspCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  RootOptions roots;
  SsspOptions sssp;
  std::string output;
  bool predecessors = false;
};

// The answer for the last root: vertices reached (the root included) and
// the largest finite distance.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const std::vector<std::uint64_t>& roots,
                  const SsspResult& r) {
  std::int64_t reached = 0;
  double max_distance = 0;
  for (std::size_t v = 0; v < r.dist.size(); ++v)
    if (std::isfinite(r.dist[v])) {
      ++reached;
      max_distance = std::max(max_distance, r.dist[v]);
    }
  rec.set("reached", reached)
      .set("max_distance", max_distance)
      .set("result_bytes", static_cast<std::int64_t>(r.dist.size() * sizeof(double)));
  Summary s;
  s.keys = {"reached", "max_distance"};
  // One root run --trials times (--source) is one root, not "the last of 3".
  const bool several = std::adjacent_find(roots.begin(), roots.end(), std::not_equal_to<>()) != roots.end();
  const std::string which = several ? format(" (the last of %zu roots)", roots.size()) : "";
  s.lines.push_back(format("shortest paths from vertex %s%s: reached %s, farthest at distance %.6g",
                           id_text(g, roots.back()).c_str(), which.c_str(),
                           share(reached, g.num_vertices()).c_str(), max_distance));
  return s;
}

template <typename G>
void run_sssp(const SsspCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  const auto roots = resolve_roots(cg, c.roots, c.run);
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  std::vector<double> seconds;
  std::optional<bool> verified;
  std::string why;
  SsspResult r;  // reused across roots
  expect_progress("sssp", static_cast<std::int64_t>(roots.size()), "roots");
  for (const V root : roots) {
    seconds.push_back(time_trials(1, [&](int) { numagraph::sssp(g, root, c.sssp, x, r); }, r.ran)[0]);
    if (c.run.verify) {
      const auto v = verify::sssp(cg, root, r.dist.data());
      merge_verdict(verified, why, v.ok, v.message);
    }
  }
  const auto counts =
      account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::sssp(g, roots[0], c.sssp, ax); });
  if (c.predecessors)  // untimed, for the last root (predecessors.hpp)
    write_values_and_predecessors(c.output, cg, r.dist.data(), "distance",
                                  kernels::sssp_predecessors(g, roots.back(), r.dist.data()).data());
  else if (!c.output.empty())
    write_vertex_values(c.output, cg, r.dist.data(), "distance");
  profile::Record rec = base_record("sssp", lg, c.run);
  std::vector<std::uint64_t> labels;
  for (V root : roots) labels.push_back(cg.label(root));
  set_ids(rec, "roots", cg, labels);
  rec.set("delta", r.delta);
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, labels, r));
}

const Register kSssp{{"sssp", "single-source shortest paths (delta-stepping)", 110, [](CLI::App& app) {
                        auto c = std::make_shared<SsspCommand>();
                        add_graph_options(app, c->src);
                        add_run_options(app, c->run);
                        add_engine_options(app, c->engine);
                        add_root_options(app, c->roots);
                        app.add_option("--delta", c->sssp.delta,
                                       "bucket width, > 0 (default: chosen from the weights, the average degree and, on "
                                       "road-like graphs, the thread count; 32 times the weight when every edge "
                                       "weighs the same, unweighted graphs included; docs/kernels/sssp.md)")
                            ->check(kPositive);
                        app.add_option("--output", c->output, values_output_help("each vertex's distance from the last root (inf: unreachable)", "distance"));
                        app.add_flag("--predecessors", c->predecessors,
                                     "add a column 'predecessor' to --output: the vertex before each one on a "
                                     "shortest path (the smallest id of those that qualify; -1: unreachable)");
                        app.callback([c] {
                          if (c->predecessors && c->output.empty())
                            throw UsageError("--predecessors adds a column to --output: give --output FILE too");
                          apply_run_options(c->run);
                          LoadedGraph lg = load_graph(c->src);
                          numagraph::visit([&](const auto& g) { run_sssp(*c, lg, g); }, lg.graph);
                        });
                      },
                      {"shortest_paths", "shortest-paths"}}};

}  // namespace
}  // namespace numagraph::cli
