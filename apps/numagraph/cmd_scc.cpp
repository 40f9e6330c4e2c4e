// numagraph scc: strongly connected components (the connected components of
// an undirected graph).
#include <memory>
#include <optional>

#include "common.hpp"
#include "engine_cli.hpp"
#include "numagraph/kernels/scc/scc.hpp"
#include "registry.hpp"
#include "numagraph/verify/scc.hpp"

namespace numagraph::cli {
namespace {

struct SccCommand {
  GraphSource src;
  RunOptions run;
  EngineFlags engine;
  std::string output;
};

// The answer: the number of components and the largest one, named by its
// smallest member (the user's id). `labels` are each component's smallest dense id.
template <typename G>
Summary summarize(profile::Record& rec, const G& g, const NumaArray<std::uint64_t>& labels,
                  std::int64_t result_bytes) {
  const std::int64_t n = g.num_vertices();
  std::vector<std::int64_t> size(static_cast<std::size_t>(n), 0);
  for (std::int64_t v = 0; v < n; ++v) ++size[labels[v]];
  std::int64_t components = 0, largest = 0, largest_label = -1;
  for (std::int64_t v = 0; v < n; ++v) {
    components += size[v] > 0;
    if (size[v] > largest) {
      largest = size[v];
      largest_label = v;
    }
  }
  std::uint64_t member = 0;  // the largest component's smallest user id
  for (std::int64_t v = 0, first = 1; v < n; ++v)
    if (static_cast<std::int64_t>(labels[v]) == largest_label) {
      const std::uint64_t id = g.label(static_cast<typename G::vertex_type>(v));
      if (first || id < member) member = id;
      first = 0;
    }
  rec.set("num_components", components)
      .set("largest_component", largest)
      .set("result_bytes", result_bytes);
  Summary s;
  s.keys = {"num_components", "largest_component"};
  s.lines.push_back(format("%s%s; the largest has %s (vertex %s among them)",
                           count_of(components, "strongly connected component").c_str(), g.directed() ? "" : " (connected components)",
                           share(largest, n).c_str(), id_text(g, member).c_str()));
  return s;
}

template <typename G>
void run_scc(const SccCommand& c, const LoadedGraph& lg, const G& g) {
  using V = typename G::vertex_type;
  std::optional<G> keep;
  const G& cg = caller_graph(g, keep);  // the graph in the ids the kernel answers in
  KernelCache cache;
  const Execution x = make_execution(c.engine, cache, g, cg);
  const SccOptions o;
  SccResult<V> r;
  const auto seconds = time_trials(
      c.run.trials,
      [&](int) {
        r = SccResult<V>();
        r = numagraph::strongly_connected_components(g, o, x);
      },
      r.ran);
  NumaArray<std::uint64_t> labels(r.labels.size());
  parallel::for_static(std::size_t{0}, labels.size(), [&](std::size_t v) { labels[v] = r.labels[v]; });
  std::optional<bool> verified;
  std::string why;
  if (c.run.verify) {
    const auto v = verify::strongly_connected_components(cg, labels.data());
    verified = v.ok;
    why = v.message;
  }
  const auto counts = account_if_asked(c.engine, x, [&](const Execution& ax) {
    numagraph::strongly_connected_components(g, o, ax);
  });
  profile::Record rec = base_record("scc", lg, c.run);
  rec.set("trimmed", r.trimmed).set("color_rounds", r.color_rounds);
  const Summary summary =
      summarize(rec, cg, labels, static_cast<std::int64_t>(r.labels.size() * sizeof(V)));
  // Report labels as the user's id of each component's smallest member.
  for (auto& l : labels) l = cg.label(static_cast<V>(l));
  if (!c.output.empty()) write_vertex_values(c.output, cg, labels.data(), "component", true);
  report_engine(rec, c.engine, r.ran, counts, c.run.json);
  emit(c.run, rec, seconds, verified, why, summary);
}

const Register kScc{{"scc", "strongly connected components (forward-backward with trimming; connected components if undirected)", 232,
                     [](CLI::App& app) {
                       auto c = std::make_shared<SccCommand>();
                       add_graph_options(app, c->src);
                       add_run_options(app, c->run);
                       add_engine_options(app, c->engine);
                       app.add_option("--output", c->output,
                                      values_output_help("each vertex's strongly connected component (its smallest member's id)", "component"));
                       app.callback([c] {
                         apply_run_options(c->run);
                         LoadedGraph lg = load_graph(c->src);
                         note_unused_weights("scc", lg);
                         numagraph::visit([&](const auto& g) { run_scc(*c, lg, g); }, lg.graph);
                       });
                     },
                     {"strongly_connected_components", "strongly-connected-components"}}};

}  // namespace
}  // namespace numagraph::cli
