// numagraph path: one shortest path between two vertices, in the user's ids
// (or names), with its hop count and weight. Delta-stepping SSSP with
// predecessors (kernels/sssp/predecessors.hpp); --hops counts hops on a
// weighted graph (BFS depths). Exit 1 when the target is unreachable.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/sssp/predecessors.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/verify/bfs.hpp"
#include "numagraph/verify/paths.hpp"
#include "numagraph/verify/sssp.hpp"
#include "paths_cli.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct PathCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  std::string source, target;
  bool hops = false;
  double delta = 0;
};

// The path's weight: the sum of its arcs' weights (the lightest arc where
// the graph keeps parallel ones), summed as the search did.
template <typename G>
double path_weight(const G& g, const std::vector<std::int64_t>& path) {
  using V = typename G::vertex_type;
  double total = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const auto u = static_cast<V>(path[i - 1]);
    const auto nb = g.out_neighbors(u);
    double lightest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < nb.size(); ++j)
      if (nb[j] == static_cast<V>(path[i])) lightest = std::min(lightest, static_cast<double>(g.out_weights(u)[j]));
    total += lightest;
  }
  return total;
}

template <typename G>
void run_path(const PathCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  const V source = kernels::dense_id_of(cg, c.source, "--source");
  const V target = kernels::dense_id_of(cg, c.target, "--target");
  if (c.hops && c.delta > 0) throw UsageError("--delta applies to the weighted search: drop it or drop --hops");
  const bool by_sssp = !c.hops;  // hop counts of an unweighted graph too: SSSP with weight 1
  const bool weighted = cg.weighted() && by_sssp;
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  SsspOptions so;
  so.delta = c.delta;
  so.predecessors = true;
  SsspResult sr;
  BfsResult<V> br;
  NumaArray<std::int64_t> hop_pred;
  auto search = [&](const Execution& ex) {
    if (by_sssp) {
      numagraph::sssp(g, source, so, ex, sr);
    } else {
      numagraph::bfs(g, source, BfsOptions{}, ex, br);
      hop_pred = kernels::hop_predecessors(g, source, br.depth.data());
    }
  };
  const auto seconds = time_trials(c.run.trials, [&](int) { search(x); }, by_sssp ? sr.ran : br.ran);
  const std::int64_t* pred = by_sssp ? sr.predecessor.data() : hop_pred.data();
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto d = by_sssp ? verify::sssp(cg, source, sr.dist.data())
                           : verify::bfs_tree(cg, source, br.parent.data(), br.depth.data());
    merge_verdict(verified, why, d.ok, d.message);
    const auto p = by_sssp ? verify::predecessors(cg, source, sr.dist.data(), pred, cg.weighted())
                           : verify::predecessors(cg, source, br.depth.data(), pred, false);
    merge_verdict(verified, why, p.ok, p.message);
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { search(ax); });
  const auto path = kernels::path_to(pred, static_cast<std::int64_t>(target));
  if (path.empty())
    throw NoResultError("no path from " + user_text(cg, source) + " to " + user_text(cg, target) + ": " +
                        user_text(cg, target) + " is not reachable from " + user_text(cg, source) +
                        (cg.directed() ? " along the arcs' direction" : ""));
  const auto hops = static_cast<std::int64_t>(path.size()) - 1;
  const double weight = weighted ? path_weight(cg, path) : static_cast<double>(hops);
  profile::Record rec = base_record("path", lg, c.run);
  std::vector<std::uint64_t> labels;
  std::string line;
  for (const std::int64_t v : path) {
    labels.push_back(cg.label(static_cast<V>(v)));
    line += (line.empty() ? "" : " -> ") + user_text(cg, v);
  }
  set_ids(rec, "path", cg, labels);
  rec.set("hops", hops).set("distance", weight).set("weighted", weighted);
  report_engine(rec, c.engine, by_sssp ? sr.ran : br.ran, counts, c.run.json);
  Summary s;
  s.keys = {"path", "hops", "distance"};
  s.lines.push_back(format("shortest path from %s to %s: %s", user_text(cg, source).c_str(),
                           user_text(cg, target).c_str(), line.c_str()));
  s.lines.push_back(weighted ? format("%s, weight %.6g", count_of(hops, "hop").c_str(), weight)
                             : format("%s", count_of(hops, "hop").c_str()));
  emit(c.run, rec, seconds, verified, why, s);
}

const Register kPath{{"path", "one shortest path between two vertices, in your ids (SSSP predecessors)", 115,
                      [](CLI::App& app) {
                        auto c = std::make_shared<PathCommand>();
                        add_graph_options(app, c->src);
                        add_run_options(app, c->run);
                        add_engine_options(app, c->engine);
                        app.add_option("--source,-r", c->source,
                                       "where the path starts: your id (with --relabel, the original id), or its name "
                                       "for a CSV/TSV file with names")
                            ->required();
                        app.add_option("--target", c->target, "where the path ends (an id or name, as --source)")
                            ->required();
                        app.add_flag("--hops", c->hops,
                                     "fewest hops on a weighted graph (default: the lightest path; unweighted graphs "
                                     "always count hops)");
                        app.add_option("--delta", c->delta, "SSSP bucket width, > 0 (default: as numagraph sssp)")
                            ->check(kPositive);
                        app.callback([c] {
                          apply_run_options(c->run);
                          LoadedGraph lg = load_graph(c->src);
                          numagraph::visit([&](const auto& g) { run_path(*c, lg, g); }, lg.graph);
                        });
                      },
                      {"shortest_path", "shortest-path"}}};

}  // namespace
}  // namespace numagraph::cli
