// numagraph tc: triangle counting (ordered intersection).
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "registry.hpp"
#include "numagraph/verify/tc.hpp"

namespace numagraph::cli {
namespace {

struct TcCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags reorder{.engine = "flat"};  // --reorder only: TC has no engine choice
  std::string output;
};

template <typename G>
void run_tc(const TcCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.reorder, cache, g, cg);
  TcResult r;
  const auto seconds = time_trials(c.run.trials, [&](int) { r = numagraph::triangles(g, {}, x); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::triangles(cg, r.triangles);
    verified = v.ok;
    why = v.message;
  }
  if (!c.output.empty()) {
    const auto per_vertex = numagraph::triangles(g, TcOptions{.per_vertex = true}, x).per_vertex;
    write_vertex_values(c.output, cg, per_vertex.data(), "triangles");
  }
  profile::Record rec = base_record("tc", lg, c.run);
  rec.set("triangles", r.triangles).set("relabelled_by_degree", r.relabelled);
  report_reorder(rec, c.reorder);
  Summary s;
  s.keys = {"triangles"};
  s.lines.push_back(count_of(static_cast<long long>(r.triangles), "triangle"));
  emit(c.run, rec, seconds, verified, why, s);
}

const Register kTc{{"tc", "triangle counting (ordered intersection, degree relabelling when it pays)", 240,
                    [](CLI::App& app) {
                      auto c = std::make_shared<TcCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_reorder_options(app, c->reorder);
                      app.add_option("--output", c->output, values_output_help("each vertex's triangle count (as networkx.triangles)", "triangles"));
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        note_unused_weights("tc", lg);
                        numagraph::visit([&](const auto& g) { run_tc(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"triangles"}}};

}  // namespace
}  // namespace numagraph::cli
