// numagraph tc: triangle counting (ordered intersection).
#include <memory>
#include <optional>

#include "common.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "registry.hpp"
#include "numagraph/verify/tc.hpp"

namespace numagraph::cli {
namespace {

struct TcCommand {
  GraphSource src;
  RunOptions run;
  std::string output;
};

template <typename G>
void run_tc(const TcCommand& c, const LoadedGraph& lg, const G& g) {
  TcResult r;
  const auto seconds = time_trials(c.run.trials, [&](int) { r = numagraph::triangles(g); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::triangles(g, r.triangles);
    verified = v.ok;
    why = v.message;
  }
  if (!c.output.empty()) {
    const auto per_vertex = numagraph::triangles(g, TcOptions{.per_vertex = true}).per_vertex;
    write_vertex_values(c.output, g, per_vertex.data());
  }
  profile::Record rec = base_record("tc", lg, c.run);
  rec.set("triangles", r.triangles).set("relabelled_by_degree", r.relabelled);
  emit(c.run, rec, seconds, verified, why);
}

const Register kTc{{"tc", "triangle counting (ordered intersection, degree relabelling when it pays)", 240,
                    [](CLI::App& app) {
                      auto c = std::make_shared<TcCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      app.add_option("--output", c->output, "write 'id triangles' per vertex (as networkx.triangles)");
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        numagraph::visit([&](const auto& g) { run_tc(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"triangles"}}};

}  // namespace
}  // namespace numagraph::cli
