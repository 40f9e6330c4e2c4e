// numagraph bfs: direction-optimizing BFS from one or several roots, with
// Graph500 TEPS and verification.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/verify/bfs.hpp"
#include "numagraph/kernels/sssp/predecessors.hpp"
#include "paths_cli.hpp"
#include "registry.hpp"
#include "roots_cli.hpp"

namespace numagraph::cli {
namespace {

struct BfsCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  RootOptions roots;
  BfsOptions bfs;
  std::string output;
  bool predecessors = false;
};

// Edges of the traversed component (Graph500 TEPS numerator): arcs leaving
// reached vertices; an undirected edge counts once.
template <typename G, typename P>
double traversed_edges(const G& g, const P* parent) {
  double arcs = 0;
#pragma omp parallel for reduction(+ : arcs) schedule(static)
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (parent[v] >= 0) arcs += static_cast<double>(g.out_degree(static_cast<typename G::vertex_type>(v)));
  return g.directed() ? arcs : arcs / 2;
}

// The answer for the last root: vertices reached (the root included) and
// the depth of the search tree.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const std::vector<std::uint64_t>& roots,
                  const NumaArray<std::int32_t>& depth) {
  std::int64_t reached = 0;
  std::int32_t max_depth = 0;
  for (std::size_t v = 0; v < depth.size(); ++v)
    if (depth[v] >= 0) {
      ++reached;
      max_depth = std::max(max_depth, depth[v]);
    }
  rec.set("reached", reached)
      .set("max_depth", max_depth)
      .set("result_bytes",  // the parent array: one id per vertex
           static_cast<std::int64_t>(depth.size() * sizeof(typename G::vertex_type)));
  Summary s;
  s.keys = {"reached", "max_depth"};
  // One root run --trials times (--source) is one root, not "the last of 3".
  const bool several = std::adjacent_find(roots.begin(), roots.end(), std::not_equal_to<>()) != roots.end();
  const std::string which = several ? format(" (the last of %zu roots)", roots.size()) : "";
  s.lines.push_back(format("BFS from vertex %s%s: reached %s in %s (max depth %d)",
                           id_text(g, roots.back()).c_str(), which.c_str(), share(reached, g.num_vertices()).c_str(),
                           count_of(max_depth + 1, "level").c_str(), max_depth));
  return s;
}

template <typename G>
void run_bfs(const BfsCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  const auto roots = resolve_roots(cg, c.roots, c.run);
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  // Timed: the parent array only (Graph500's BFS output); depths, when the
  // verifier or --output needs them, are derived afterwards, untimed.
  BfsOptions timed = c.bfs;
  timed.compute_depth = false;
  BfsResult<V> r;  // reused across roots
  std::vector<double> seconds, teps;
  std::optional<bool> verified;
  std::string why;
  NumaArray<std::int32_t> last_depth;
  expect_progress("bfs", static_cast<std::int64_t>(roots.size()), "roots");
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const V root = roots[i];
    const double s = time_trials(1, [&](int) { numagraph::bfs(g, root, timed, x, r); }, r.ran)[0];
    seconds.push_back(s);
    teps.push_back(traversed_edges(cg, r.parent.data()) / s);
    const bool last_root = i + 1 == roots.size();
    if (!c.run.verify && !(last_root && !c.output.empty())) continue;
    NumaArray<std::int32_t> depth = kernels::depths_from_parents(cg, root, r.parent.data());
    if (c.run.verify) {
      const auto v = verify::bfs_tree(cg, root, r.parent.data(), depth.data());
      merge_verdict(verified, why, v.ok, v.message);
    }
    if (last_root) last_depth = std::move(depth);
  }
  const auto counts =
      account_if_asked(c.engine, x, [&](const Execution& ax) { numagraph::bfs(g, roots[0], timed, ax); });
  if (last_depth.size() == 0)  // the summary's depths, when neither --verify nor --output made them
    last_depth = kernels::depths_from_parents(cg, roots.back(), r.parent.data());
  if (c.predecessors)  // untimed, for the last root: the smallest in-neighbour one level up
    write_values_and_predecessors(
        c.output, cg, last_depth.data(), "depth",
        kernels::hop_predecessors(g, roots.back(), last_depth.data()).data());
  else if (!c.output.empty())
    write_vertex_values(c.output, cg, last_depth.data(), "depth");
  double inverse = 0;
  for (double t : teps) inverse += 1.0 / t;
  profile::Record rec = base_record("bfs", lg, c.run);
  std::vector<std::uint64_t> labels;
  for (V root : roots) labels.push_back(cg.label(root));
  set_ids(rec, "roots", cg, labels);
  rec.set("teps", teps)
      .set("teps_harmonic_mean", static_cast<double>(teps.size()) / inverse)
      .set("summary_bits", c.bfs.summary_bits)
      .set("alpha", c.bfs.alpha)
      .set("beta", c.bfs.beta)
      .set("top_down_steps", r.top_down_steps)
      .set("bottom_up_steps", r.bottom_up_steps);
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summarize(rec, cg, labels, last_depth));
}

const Register kBfs{{"bfs", "breadth-first search (direction-optimizing), Graph500 TEPS", 100, [](CLI::App& app) {
                       auto c = std::make_shared<BfsCommand>();
                       add_graph_options(app, c->src);
                       add_run_options(app, c->run);
                       add_engine_options(app, c->engine);
                       add_root_options(app, c->roots);
                       app.add_option("--alpha", c->bfs.alpha, "switch to bottom-up when frontier edges > unexplored / alpha (15)")
                           ->check(kPositive);
                       app.add_option("--beta", c->bfs.beta, "switch back to top-down when frontier < n / beta vertices (18)")
                           ->check(kPositive);
                       app.add_option("--summary-bits", c->bfs.summary_bits,
                                      "vertices per summary-bitmap bit, power of two in 64..4096 (256; flat engine only)");
                       app.add_option("--output", c->output, values_output_help("each vertex's depth from the last root (-1: unreached)", "depth"));
                       app.add_flag("--predecessors", c->predecessors,
                                    "add a column 'predecessor' to --output: the smallest in-neighbour one level up "
                                    "(the same on every engine; -1: unreached)");
                       app.callback([c] {
                         if (c->predecessors && c->output.empty())
                           throw UsageError("--predecessors adds a column to --output: give --output FILE too");
                         apply_run_options(c->run);
                         LoadedGraph lg = load_graph(c->src);
                         note_unused_weights("bfs", lg);
                         numagraph::visit([&](const auto& g) { run_bfs(*c, lg, g); }, lg.graph);
                       });
                     }}};

}  // namespace
}  // namespace numagraph::cli
