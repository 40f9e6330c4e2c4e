// numagraph cc: connected components (weakly connected for directed graphs).
#include <memory>
#include <optional>
#include <unordered_set>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/cc/afforest.hpp"
#include "numagraph/kernels/cc/numa_afforest.hpp"
#include "numagraph/kernels/cc/numa_label_propagation.hpp"
#include "numagraph/kernels/cc/shiloach_vishkin.hpp"
#include "registry.hpp"
#include "numagraph/verify/cc.hpp"

namespace numagraph::cli {
namespace {

struct CcCommand {
  GraphSource src;
  RunOptions run;
  EngineOptions engine;
  std::string variant = "afforest";
  std::string output;
};

// Labels in the id type widened to 64 bits.
template <typename V>
NumaArray<std::uint64_t> widen_labels(const NumaArray<V>& comp) {
  NumaArray<std::uint64_t> labels(comp.size());
  parallel::for_static(std::size_t{0}, comp.size(), [&](std::size_t v) { labels[v] = comp[v]; });
  return labels;
}

// A trial's labels in the type its kernel returns: the id type (Afforest on
// either engine, SV) or 64 bits (label propagation). They are widened after
// the timed trials, not in them: gapbs times its kernels' 32-bit labels too,
// and the 64-bit copy of kron22's labels (32 MiB of fresh pages per trial)
// was 7 % of the samples of an Afforest run.
template <typename V>
struct CcLabels {
  NumaArray<V> ids;
  NumaArray<std::uint64_t> wide;

  NumaArray<std::uint64_t> widened() && { return ids.size() > 0 ? widen_labels(ids) : std::move(wide); }
};

// The engine variants: Afforest over the node parts (default) or min-label
// propagation (lp, Polymer's choice: no remote random reads, one edge scan per round).
template <typename V, typename Acc>
void run_engine_cc(const std::string& variant, const engine::PartitionedGraph<V>& pg, engine::EngineMode mode,
                   Acc& acc, CcLabels<V>& out) {
  if (variant == "lp")
    out.wide = kernels::connected_components_numa(pg, mode, acc).labels;
  else
    out.ids = kernels::components_afforest_numa(pg, mode, acc).labels;
}

template <typename G>
void run_cc(const CcCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  // An explicit variant decides `--engine auto`: sv exists only flat, lp only on the engine.
  EngineOptions eo = c.engine;
  if (eo.engine == "auto" && c.variant != "afforest") eo.engine = c.variant == "sv" ? "flat" : "numa";
  // Refused before the partitioned graph is built (sv and lp no longer leave the engine on auto).
  if (eo.engine == "numa" && c.variant == "sv")
    throw UsageError("--variant sv has no NUMA-engine version: use --variant afforest or lp, or --engine flat");
  if (eo.engine == "flat" && c.variant == "lp")
    throw UsageError("--variant lp runs on the NUMA engine only: add --engine numa, or use afforest or sv");
  if (c.engine.account && c.variant == "sv")
    throw UsageError("--account counts the engine's accesses, and sv has no engine version: use --variant afforest or lp");
  auto eng = prepare_engine(g, eo, {false, true});
  CcLabels<V> result;
  const auto seconds = time_trials(c.run.trials, [&](int) {
    if (eng.numa) {
      engine::NoAccounting none;
      run_engine_cc(c.variant, *eng.pg, engine::EngineMode::kNuma, none, result);
      return;
    }
    result.ids = c.variant == "sv" ? kernels::components_shiloach_vishkin(g) : kernels::components_afforest(g);
  });
  NumaArray<std::uint64_t> labels = std::move(result).widened();
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::components(g, labels.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(eo, eng, [&](engine::EngineMode m, engine::Accounting& acc) {
    CcLabels<V> unused;
    run_engine_cc(c.variant, *eng.pg, m, acc, unused);
  });
  std::unordered_set<std::uint64_t> distinct(labels.begin(), labels.end());
  // Report labels as the user's id of each component's representative.
  for (auto& l : labels) l = g.label(static_cast<V>(l));
  if (!c.output.empty()) write_vertex_values(c.output, g, labels.data());
  profile::Record rec = base_record("cc", lg, c.run);
  rec.set("variant", eng.numa ? "numa-" + c.variant : c.variant)
      .set("num_components", static_cast<std::int64_t>(distinct.size()));
  report_engine(rec, eo, eng.numa, counts, c.run.json);
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
                    }}};

}  // namespace
}  // namespace numagraph::cli
