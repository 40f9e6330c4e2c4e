// numagraph bc: betweenness centrality (Brandes), exact or sampled.
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/numa_nwq.hpp"
#include "registry.hpp"
#include "roots_cli.hpp"
#include "numagraph/verify/bc.hpp"

namespace numagraph::cli {
namespace {

struct BcCommand {
  GraphSource src;
  RunOptions run;
  EngineOptions engine;
  RootOptions roots;
  bool exact = false;
  bool normalized = false;
  std::int64_t task_size = 16;
  std::string output;
};

template <typename G>
void run_bc(const BcCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::vector<V> sources;
  if (c.exact) {
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) sources.push_back(static_cast<V>(v));
  } else {
    RootOptions r = c.roots;
    if (r.source < 0 && r.sources == 0 && r.roots_file.empty()) r.sources = 4;
    sources = resolve_roots(g, r, RunOptions{c.run.threads, 1, c.run.verify, c.run.json, c.run.seed});
    if (r.source >= 0) sources.resize(1);
  }
  auto eng = prepare_engine(g, c.engine, {true, false});
  const EngineTopology topo = engine_topology();
  kernels::NumaBcOptions numa_opt;
  numa_opt.task_size = c.task_size;
  numa_opt.node_distance = topo.distance;
  // Time-sliced threads (a synthetic topology bigger than this machine) would
  // steal other nodes' work by accident of scheduling: keep steals on-node.
  numa_opt.steal_across_nodes = static_cast<int>(topo.thread_node.size()) <= topo.hardware_threads;
  NumaArray<double> scores;
  kernels::BrandesWorkspace<V> workspace;  // reused by every trial, as the scores
  const auto seconds = time_trials(c.run.trials, [&](int) {
    if (eng.numa) {
      engine::NoAccounting none;
      scores = kernels::betweenness_numa(*eng.pg, sources, numa_opt, engine::EngineMode::kNuma, none).scores;
    } else {
      kernels::betweenness_brandes(g, sources, scores, workspace);
    }
  });
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::betweenness(g, sources, scores.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, eng, [&](engine::EngineMode m, engine::Accounting& acc) {
    kernels::betweenness_numa(*eng.pg, sources, numa_opt, m, acc);
  });
  kernels::scale_like_networkx(g, scores, sources, c.exact, c.normalized);
  if (!c.output.empty()) write_vertex_values(c.output, g, scores.data());
  profile::Record rec = base_record("bc", lg, c.run);
  std::vector<std::uint64_t> labels;
  if (!c.exact)
    for (V r : sources) labels.push_back(g.label(r));
  rec.set("exact", c.exact).set("num_sources", static_cast<std::int64_t>(sources.size())).set("sources", labels);
  rec.set("normalized", c.normalized);
  if (eng.numa) rec.set("task_size", c.task_size).set("steal_across_nodes", numa_opt.steal_across_nodes);
  report_engine(rec, c.engine, eng.numa, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why);
}

const Register kBc{{"bc", "betweenness centrality (Brandes, exact or sampled sources)", 120, [](CLI::App& app) {
                      auto c = std::make_shared<BcCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_engine_options(app, c->engine);
                      add_root_options(app, c->roots);
                      app.add_flag("--exact", c->exact, "use every vertex as a source (default: 4 random sources)");
                      app.add_flag("--normalized", c->normalized,
                                   "scale as networkx.betweenness_centrality(normalized=True); otherwise as normalized=False");
                      app.add_option("--task-size", c->task_size, "frontier entries per work-queue task (numa engine, 16)")
                          ->check(kPositive);
                      app.add_option("--output", c->output, "write 'id score' per vertex");
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        numagraph::visit([&](const auto& g) { run_bc(*c, lg, g); }, lg.graph);
                      });
                    }}};

}  // namespace
}  // namespace numagraph::cli
