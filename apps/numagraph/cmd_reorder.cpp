// numagraph reorder IN OUT.ngr --order ORDER [--root ID]: writes the graph
// renumbered in a vertex order, with its permutation (the original id of each
// new vertex) stored in the .ngr, so every kernel run on OUT answers in IN's
// ids without paying for the order again. IN is cleaned as the kernels load
// it (self-loops and duplicate arcs dropped unless kept), so OUT loads as it
// is stored. With a generator (--kron N ...) the one positional is OUT.
#include <cstdio>
#include <memory>

#include "common.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct ReorderCommand {
  GraphSource src;
  std::string output;
  std::string order;
  std::int64_t root = -1;
  int threads = 0;
  bool json = false;
};

template <typename G>
void run_reorder(const ReorderCommand& c, const LoadedGraph& lg, const G& g) {
  reorder::Spec spec{reorder::parse_order(c.order), -1};
  if (c.root >= 0) {
    // The user's id, in the ids g answers in (g may itself be a reordered file).
    std::optional<G> keep;
    const auto id = kernels::dense_id(caller_graph(g, keep), static_cast<std::uint64_t>(c.root));
    spec.root = static_cast<std::int64_t>(g.permutation().to_new(id));
  }
  reorder::OrderStats stats;
  profile::Timer t;
  const auto perm = reorder::compute_order(g, spec, &stats);
  const double order_s = t.seconds();
  t.restart();
  // apply_permutation composes with g's own permutation: OUT maps to IN's ids
  // even when IN was a reordered file.
  const AnyGraph renumbered = reorder::apply_permutation(g, perm);
  const double apply_s = t.seconds();
  t.restart();
  write_graph(renumbered, c.output, Format::kNgr);
  const double write_s = t.seconds();
  profile::Record rec;
  rec.set("command", "reorder")
      .set("graph", lg.name)
      .set("output", c.output)
      .set("order", reorder::to_string(spec.order))
      .set("num_vertices", g.num_vertices())
      .set("num_edges", g.num_edges())
      .set("load_s", lg.load_seconds)
      .set("order_s", order_s)
      .set("order_bfs_equiv", stats.bfs_equivalents)
      .set("apply_s", apply_s)
      .set("write_s", write_s);
  if (c.json) {
    std::printf("%s\n", rec.json().c_str());
  } else {
    // Status on stderr, as convert: OUT may be /dev/stdout.
    std::fprintf(stderr, "wrote %s: order %s %.3f s (%.2f BFS), renumber %.3f s, write %.3f s\n", c.output.c_str(),
                 reorder::to_string(spec.order), order_s, stats.bfs_equivalents, apply_s, write_s);
  }
}

const Register kReorder{
    {"reorder",
     "write a graph renumbered in a vertex order (.ngr with its permutation; kernels answer in the original ids)", 35,
     [](CLI::App& app) {
       auto c = std::make_shared<ReorderCommand>();
       add_graph_options(app, c->src);
       app.add_option("OUT", c->output, "output .ngr file (keeps the order and the permutation)");
       app.add_option("--order", c->order, "vertex order: none, degree, dbg, rcm, adl or adl-serial (docs/reordering.md)")
           ->type_name("ORDER")
           ->required()
           ->check(kOrderName);
       app.add_option("--root", c->root,
                      "where rcm and adl start their first search (your id; default: the highest-degree vertex)")
           ->type_name("ID")
           ->check(kNonNegative);
       app.add_option("-t,--threads", c->threads, "threads (default: all cores)")->check(CLI::Range(0, 4096));
       app.add_flag("--json", c->json, "print one JSON object (timings) on stdout instead of the status line");
       app.callback([c] {
         const bool generated = c->src.kron_scale > 0 || c->src.uniform_scale > 0 || c->src.grid_scale > 0;
         if (generated && c->output.empty()) std::swap(c->output, c->src.file);  // `reorder --kron 16 OUT`
         if (c->output.empty()) throw UsageError("give the output file: numagraph reorder IN OUT.ngr --order ORDER");
         if (format_from_extension(c->output) != Format::kNgr)
           throw UsageError("the output must be a .ngr file (got '" + c->output +
                            "'): only .ngr keeps the new order and the permutation that maps the new ids back "
                            "to yours (and vertex names); for a table of the edges in your ids or names, "
                            "convert it afterwards: numagraph convert OUT.ngr " + c->output);
         if (!c->src.file.empty()) refuse_output_onto_input(c->output, c->src.file, "OUT");
         parallel::set_threads(c->threads);
         LoadedGraph lg = load_graph(c->src);
         numagraph::visit([&](const auto& g) { run_reorder(*c, lg, g); }, lg.graph);
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
