// numagraph clustering: local clustering coefficients, average clustering
// and transitivity (from the per-vertex triangle count).
#include <cstdio>
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/clustering/clustering.hpp"
#include "numagraph/verify/clustering.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct ClusteringCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags reorder{.engine = "flat"};  // --reorder only: no engine choice
  std::string output;
};

template <typename G>
void run_clustering(const ClusteringCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.reorder, cache, g, cg);
  ClusteringResult r;
  const auto seconds = time_trials(c.run.trials, [&](int) { r = numagraph::clustering(g, {}, x); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::clustering(cg, r);
    verified = v.ok;
    why = v.message;
  }
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.coefficient.data(), "clustering");
  profile::Record rec = base_record("clustering", lg, c.run);
  rec.set("average_clustering", r.average())
      .set("average_clustering_nonzero", r.average(false))
      .set("transitivity", r.transitivity())
      .set("triangles", r.total_triangles)
      .set("connected_triples", r.connected_triples);
  if (cg.weighted()) rec.set("weights_used", false);
  report_reorder(rec, c.reorder);
  Summary s;
  s.keys = {"average_clustering", "transitivity", "triangles"};
  s.lines.push_back(format("average clustering %.6g, transitivity %.6g, %s", r.average(), r.transitivity(),
                           count_of(static_cast<long long>(r.total_triangles), "triangle").c_str()));
  emit(c.run, rec, seconds, verified, why, s);
}

const Register kClustering{
    {"clustering", "local clustering coefficients, average clustering and transitivity (undirected, unweighted)", 242,
     [](CLI::App& app) {
       auto c = std::make_shared<ClusteringCommand>();
       add_graph_options(app, c->src);
       add_run_options(app, c->run);
       add_reorder_options(app, c->reorder);
       app.add_option("--output", c->output,
                      values_output_help("each vertex's clustering coefficient (as networkx.clustering)", "clustering"));
       app.callback([c] {
         apply_run_options(c->run);
         LoadedGraph lg = load_graph(c->src);
         numagraph::visit(
             [&](const auto& g) {
               if (g.weighted())
                 std::fprintf(stderr,
                              "numagraph: note: %s has edge weights; clustering does not use them (unweighted "
                              "coefficients; networkx.clustering(G, weight=...) computes the weighted ones)\n",
                              lg.name.c_str());
               run_clustering(*c, lg, g);
             },
             lg.graph);
       });
     },
     {"average_clustering", "average-clustering", "transitivity"}}};

}  // namespace
}  // namespace numagraph::cli
