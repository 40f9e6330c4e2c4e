// numagraph cc: connected components (weakly connected for directed graphs).
#include <memory>
#include <optional>
#include <unordered_set>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/cc/components.hpp"
#include "registry.hpp"
#include "numagraph/verify/cc.hpp"

namespace numagraph::cli {
namespace {

struct CcCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  std::string variant = "afforest";
  std::string output;
};

template <typename G>
void run_cc(const CcCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  const CcOptions o{kernels::parse_cc_variant(c.variant)};
  // Labels stay in the id type inside the timed trials (gapbs times its
  // 32-bit labels too) and are widened to 64 bits afterwards.
  CcResult<V> r;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = CcResult<V>();
        r = numagraph::connected_components(g, o, x);
      },
      r.ran);
  NumaArray<std::uint64_t> labels(r.labels.size());
  parallel::for_static(std::size_t{0}, labels.size(), [&](std::size_t v) { labels[v] = r.labels[v]; });
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::components(cg, labels.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts =
      account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::connected_components(g, o, ax); });
  std::unordered_set<std::uint64_t> distinct(labels.begin(), labels.end());
  // Report labels as the user's id of each component's representative.
  for (auto& l : labels) l = cg.label(static_cast<V>(l));
  if (!c.output.empty()) write_vertex_values(c.output, cg, labels.data());
  profile::Record rec = base_record("cc", lg, c.run);
  rec.set("variant", kernels::to_string(r.variant)).set("num_components", static_cast<std::int64_t>(distinct.size()));
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why);
}

const Register kCc{{"cc", "connected components (Afforest, Shiloach-Vishkin or label propagation; weak for directed graphs)", 230,
                    [](CLI::App& app) {
                      auto c = std::make_shared<CcCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_engine_options(app, c->engine);
                      app.add_option("--variant", c->variant,
                                     "afforest (default), sv (flat engine only) or lp (min-label propagation, "
                                     "NUMA engine only)")
                          ->check(CLI::IsMember({"afforest", "sv", "lp"}));
                      app.add_option("--output", c->output, "write 'id component' per vertex (component = a member's id)");
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        numagraph::visit([&](const auto& g) { run_cc(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"connected_components", "connected-components"}}};

}  // namespace
}  // namespace numagraph::cli
