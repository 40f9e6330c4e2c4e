// numagraph communities: modularity communities by parallel Louvain or Leiden
// (undirected graphs, edge weights used when the graph has them).
#include <cmath>
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/community/community.hpp"
#include "numagraph/verify/community.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct CommunitiesCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags reorder{.engine = "flat"};  // --reorder only: no engine choice
  std::string variant = "louvain";
  double resolution = 1.0;
  double threshold = 1e-7;
  int max_levels = 0;
  std::string output;
};

template <typename G>
void run_communities(const CommunitiesCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.reorder, cache, g, cg);
  CommunityOptions o;
  o.variant = kernels::parse_community_variant(c.variant);
  o.resolution = c.resolution;
  o.threshold = c.threshold;
  o.max_levels = c.max_levels;
  o.seed = c.run.seed;
  CommunityResult<V> r;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = CommunityResult<V>();
        r = numagraph::communities(g, o, x);
      },
      r.ran);
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::communities(cg, r.labels.data(), r.communities, r.modularity, o.resolution,
                                       o.variant == CommunityVariant::kLeiden);
    verified = v.ok;
    why = v.message;
  }
  if (!c.output.empty()) write_vertex_values(c.output, cg, r.labels.data(), "community");
  std::int64_t largest = 0;
  {
    std::vector<std::int64_t> size(static_cast<std::size_t>(r.communities), 0);
    for (const V l : r.labels) largest = std::max(largest, ++size[l]);
  }
  profile::Record rec = base_record("communities", lg, c.run);
  rec.set("variant", kernels::to_string(o.variant))
      .set("resolution", o.resolution)
      .set("threshold", o.threshold)
      .set("seed", static_cast<std::int64_t>(o.seed))
      .set("modularity", r.modularity)
      .set("communities", r.communities)
      .set("largest_community", largest)
      .set("levels", r.levels)
      .set("passes", r.passes);
  if (o.variant == CommunityVariant::kLeiden) rec.set("split", r.split);
  rec.set("weights_used", cg.weighted());
  report_reorder(rec, c.reorder);
  Summary s;
  s.keys = {"modularity", "communities", "levels"};
  s.lines.push_back(format("%s: modularity %.6f, %s (largest %s), %d levels", kernels::to_string(o.variant),
                           r.modularity, count_of(static_cast<long long>(r.communities), "community", "communities").c_str(),
                           share(largest, cg.num_vertices()).c_str(), r.levels));
  emit(c.run, rec, seconds, verified, why, s);
}

// The command's flags; `variant` is its default --variant.
void setup_communities(CLI::App& app, const std::string& variant) {
  auto c = std::make_shared<CommunitiesCommand>();
  c->variant = variant;
  add_graph_options(app, c->src);
  add_run_options(app, c->run);
  add_reorder_options(app, c->reorder);
  app.add_option("--variant", c->variant,
                 "louvain (as networkx.louvain_communities) or leiden (refined: every community connected); "
                 "default " + variant);
  app.add_option("--resolution", c->resolution, "modularity resolution gamma (default 1)")->check(CLI::Range(0.0, 1e300));
  app.add_option("--threshold", c->threshold,
                 "stop after the level whose modularity gain is at most this (default 1e-7, as NetworkX)");
  app.add_option("--max-levels", c->max_levels, "levels at most (default 0: no limit)")->check(CLI::Range(0, 1 << 30));
  app.add_option("--output", c->output,
                 values_output_help("each vertex's community (dense ids by smallest member)", "community"));
  app.callback([c] {
    apply_run_options(c->run);
    kernels::parse_community_variant(c->variant);  // refuse a bad name before loading
    LoadedGraph lg = load_graph(c->src);
    numagraph::visit([&](const auto& g) { run_communities(*c, lg, g); }, lg.graph);
  });
}

const Register kCommunities{{"communities",
                             "modularity communities: parallel Louvain, or Leiden with --variant leiden (undirected, "
                             "weights used)",
                             244, [](CLI::App& app) { setup_communities(app, "louvain"); },
                             {"louvain", "louvain_communities", "louvain-communities"}}};
const Register kLeiden{{"leiden", "communities by parallel Leiden: as communities --variant leiden", 245,
                        [](CLI::App& app) { setup_communities(app, "leiden"); },
                        {"leiden_communities", "leiden-communities"}}};

}  // namespace
}  // namespace numagraph::cli
