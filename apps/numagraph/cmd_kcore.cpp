// numagraph kcore: k-core decomposition (the coreness of every vertex).
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/kcore/kcore.hpp"
#include "numagraph/verify/kcore.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct KcoreCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  std::string output;
};

// The answer: the largest core number and how many vertices have it (the
// innermost core).
template <typename G, typename R>
Summary summarize(profile::Record& rec, const G& g, const R& r) {
  std::int64_t innermost = 0;
  for (std::size_t v = 0; v < r.core.size(); ++v) innermost += r.core[v] == r.max_core;
  rec.set("max_core_size", innermost)
      .set("result_bytes", static_cast<std::int64_t>(r.core.size() * sizeof(r.core[0])));
  Summary s;
  s.keys = {"max_core", "max_core_size"};
  s.lines.push_back(format("max core number %lld, held by %s (the innermost core)",
                           static_cast<long long>(r.max_core),
                           share(innermost, g.num_vertices()).c_str()));
  return s;
}

template <typename G>
void run_kcore(const KcoreCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  const KcoreOptions o;
  KcoreResult<V> r;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = KcoreResult<V>();
        r = numagraph::core_numbers(g, o, x);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::core_numbers(cg, r.core.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::core_numbers(g, o, ax); });
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.core.data(), "core");
  profile::Record rec = base_record("kcore", lg, c.run);
  rec.set("max_core", static_cast<std::int64_t>(r.max_core)).set("rounds", static_cast<std::int64_t>(r.rounds));
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, r));
}

const Register kKcore{{"kcore", "k-core decomposition: the coreness of every vertex (parallel peeling; undirected graphs)",
                       235, [](CLI::App& app) {
                         auto c = std::make_shared<KcoreCommand>();
                         add_graph_options(app, c->src);
                         add_run_options(app, c->run);
                         add_engine_options(app, c->engine);
                         app.add_option("--output", c->output, values_output_help("each vertex's core number (as networkx.core_number)", "core"));
                         app.callback([c] {
                           apply_run_options(c->run);
                           LoadedGraph lg = load_graph(c->src);
                           note_unused_weights("kcore", lg);
                           numagraph::visit([&](const auto& g) { run_kcore(*c, lg, g); }, lg.graph);
                         });
                       },
                       {"core_number", "core-number"}}};

}  // namespace
}  // namespace numagraph::cli
