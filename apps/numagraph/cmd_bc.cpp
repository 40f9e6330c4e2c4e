// numagraph bc: betweenness centrality (Brandes), exact or sampled.
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "registry.hpp"
#include "roots_cli.hpp"
#include "numagraph/verify/bc.hpp"

namespace numagraph::cli {
namespace {

struct BcCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  RootOptions roots;
  BcOptions bc;
  std::string variant = "auto";
  std::string schedule = "nwq";
  bool exact = false;
  bool normalized = false;
  std::string output;
};

// The answer: the ten most central vertices, scaled as the record says.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const BcResult& r, std::size_t sources,
                  bool exact) {
  rec.set("result_bytes", static_cast<std::int64_t>(r.scores.size() * sizeof(r.scores[0])));
  Summary s;
  const std::string of = count_of(g.num_vertices(), "vertex", "vertices");
  s.lines.push_back(exact ? format("betweenness centrality of %s, exact (every vertex a source)", of.c_str())
                          : format("betweenness centrality of %s, estimated from %s (--exact for all)", of.c_str(),
                                   count_of(static_cast<long long>(sources), "sampled source").c_str()));
  summarize_top(s, rec, g, r.scores.data(), "score");
  return s;
}

template <typename G>
void run_bc(const BcCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  std::vector<V> sources;
  const bool named = !c.roots.source.empty() || c.roots.sources > 0 || !c.roots.roots_file.empty();
  if (c.exact && named) throw UsageError("--exact uses every vertex as a source: drop --source, --sources or --roots");
  // No sources named: exact while that is cheap, else sampled (the rule in kernels/bc/options.hpp).
  const bool exact = c.exact || (!named && kernels::bc_exact_by_default(g.num_vertices(), g.num_arcs()));
  if (exact) {
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) sources.push_back(static_cast<V>(v));
  } else {
    RootOptions r = c.roots;
    if (!named) {
      r.sources = kernels::kBcDefaultSamples;
      std::fprintf(stderr,
                   "numagraph: note: bc estimates the scores from %s: exact betweenness here would visit "
                   "%.0f arcs (vertices x arcs), more than the default's 2^30 (%.0f); --exact runs every vertex, "
                   "--sources K samples K\n",
                   count_of(r.sources, "random source").c_str(),
                   static_cast<double>(g.num_vertices()) * static_cast<double>(g.num_arcs()), kernels::kBcExactWork);
    }
    sources = resolve_roots(cg, r, RunOptions{c.run.threads, 1, c.run.verify, c.run.json, c.run.seed, {}});
    if (!r.source.empty()) sources.resize(1);
  }
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  BcOptions o = c.bc;
  o.variant = kernels::parse_bc_variant(c.variant);
  o.schedule = kernels::parse_bc_schedule(c.schedule);
  BcResult r;  // reused by every trial
  {  // the progress line counts backward phases (kernels::bc_progress_plan)
    const auto plan = kernels::bc_progress_plan(g, sources.size(), o, x);
    const bool rounds = plan.variant == BcVariant::kSourceParallel;
    const auto per_trial = static_cast<std::int64_t>((sources.size() + plan.sources_per_phase - 1) /
                                                     plan.sources_per_phase);
    expect_progress("backward", per_trial * c.run.trials,
                    plan.variant == BcVariant::kBatched ? "batches of sources"
                    : rounds                            ? "rounds of sources"
                                                        : "sources",
                    rounds);
  }
  const auto seconds = time_trials(c.run.trials, [&](int) { numagraph::betweenness(g, sources, o, x, r); }, r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::betweenness(cg, sources, r.scores.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts =
      account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::betweenness(g, sources, o, ax); });
  kernels::scale_like_networkx(cg, r.scores, sources, exact, c.normalized);
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.scores.data(), "betweenness");
  profile::Record rec = base_record("bc", lg, c.run);
  std::vector<std::uint64_t> labels;
  if (!exact)
    for (V s : sources) labels.push_back(cg.label(s));
  rec.set("exact", exact).set("num_sources", static_cast<std::int64_t>(sources.size()));
  set_ids(rec, "sources", cg, labels);
  rec.set("normalized", c.normalized).set("variant", r.ran.numa ? "work-queues" : kernels::to_string(r.variant));
  if (r.ran.numa || o.variant == BcVariant::kWorkQueues)
    rec.set("task_size", c.bc.task_size)
        .set("steal_across_nodes", r.steal_across_nodes)
        .set("stolen_tasks", r.stolen_tasks);
  if (!r.ran.numa && o.variant == BcVariant::kWorkQueues) rec.set("schedule", c.schedule);
  if (!r.working_set.empty()) {
    double sum = 0;
    for (double w : r.working_set) sum += w;
    rec.set("working_set", sum / static_cast<double>(r.working_set.size())).set("working_set_per_thread", r.working_set);
  }
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, r, sources.size(), exact));
}

const Register kBc{{"bc", "betweenness centrality (Brandes, exact or sampled sources)", 120, [](CLI::App& app) {
                      auto c = std::make_shared<BcCommand>();
                      add_graph_options(app, c->src);
                      add_run_options(app, c->run);
                      add_engine_options(app, c->engine);
                      add_root_options(app, c->roots);
                      app.add_flag("--exact", c->exact,
                                   "use every vertex as a source (default: exact while vertices x arcs <= 2^30, "
                                   "else 4 random sources, with a note)");
                      app.add_flag("--normalized", c->normalized,
                                   "scale as networkx.betweenness_centrality(normalized=True); otherwise as normalized=False");
                      app.add_option("--variant", c->variant,
                                     "flat kernel: brandes (push only, each vertex sums its own path count), "
                                     "direction-optimizing, batched (16 sources share each sweep), source-parallel "
                                     "(one serial search per thread at a time), "
                                     "work-queues (the BC paper's NUMA-aware queues, see --schedule; also the numa "
                                     "engine's), or auto (default: on graphs of average degree 8+, batched for 8+ "
                                     "sources when its lanes fit a quarter of memory, at most 8 GiB, else "
                                     "direction-optimizing; on sparser graphs source-parallel for as many sources as "
                                     "threads, else brandes)")
                          ->check(CLI::IsMember({"auto", "brandes", "direction-optimizing", "batched", "source-parallel",
                                                 "work-queues"}));
                      app.add_option("--task-size", c->bc.task_size,
                                     "frontier entries per work-queue task (work-queues variant or numa engine, 16)")
                          ->check(kPositive);
                      app.add_option("--schedule", c->schedule,
                                     "work-queues variant, flat engine: nwq (each thread's discoveries are its next "
                                     "queue, dry threads steal by NUMA distance; default) or dynamic (OpenMP dynamic "
                                     "over each level, the BC paper's baseline)")
                          ->check(CLI::IsMember({"nwq", "dynamic"}));
                      app.add_flag("--working-set", c->bc.measure_working_set,
                                   "work-queues variant, flat engine: count the distinct vertices each thread touches "
                                   "per source in the forward sweep (slower; record: working_set)");
                      app.add_option("--output", c->output, values_output_help("each vertex's betweenness score", "betweenness"));
                      app.callback([c] {
                        apply_run_options(c->run);
                        LoadedGraph lg = load_graph(c->src);
                        note_unused_weights("bc", lg);
                        numagraph::visit([&](const auto& g) { run_bc(*c, lg, g); }, lg.graph);
                      });
                    },
                    {"betweenness", "betweenness_centrality"}}};

}  // namespace
}  // namespace numagraph::cli
