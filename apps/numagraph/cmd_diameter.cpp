// numagraph diameter: approximate diameter by repeated double sweep.
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/diameter/diameter.hpp"
#include "registry.hpp"
#include "numagraph/verify/diameter.hpp"

namespace numagraph::cli {
namespace {

struct DiameterCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
};

template <typename G>
void run_diameter(const DiameterCommand& c, const LoadedGraph& lg, const G& g) {
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  DiameterResult<typename G::vertex_type> r;
  const auto seconds = time_trials(c.run.trials, [&](int) { r = numagraph::diameter(g, {}, x); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::diameter_bound(cg, r.from, r.to, r.bound);
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::diameter(g, {}, ax); });
  profile::Record rec = base_record("diameter", lg, c.run);
  rec.set("diameter_lower_bound", r.bound)
      .set("sweeps", r.sweeps);
  set_ids(rec, "endpoints", cg, std::vector<std::uint64_t>{cg.label(r.from), cg.label(r.to)});
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  Summary s;
  s.keys = {"diameter_lower_bound", "endpoints"};
  s.lines.push_back(format("diameter at least %lld: vertices %s and %s are that far apart (%s)",
                           static_cast<long long>(r.bound), id_text(cg, cg.label(r.from)).c_str(),
                           id_text(cg, cg.label(r.to)).c_str(), count_of(r.sweeps, "BFS sweep").c_str()));
  emit(c.run, rec, seconds, verified, why, s);
}

const Register kDiameter{{"diameter", "approximate diameter (repeated double-sweep BFS lower bound)", 130,
                          [](CLI::App& app) {
                            auto c = std::make_shared<DiameterCommand>();
                            add_graph_options(app, c->src);
                            add_run_options(app, c->run);
                            add_engine_options(app, c->engine);
                            app.callback([c] {
                              apply_run_options(c->run);
                              LoadedGraph lg = load_graph(c->src);
                              note_unused_weights("diameter", lg);
                              numagraph::visit([&](const auto& g) { run_diameter(*c, lg, g); }, lg.graph);
                            });
                          }}};

}  // namespace
}  // namespace numagraph::cli
