// numagraph generate kron|uniform|grid --scale N -o FILE
#include <cstdio>
#include <memory>

#include "common.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct GenerateOptions {
  std::string kind;
  GeneratorOptions gen;
  std::string output;
  std::string format;
  int threads = 0;
  bool keep_self_loops = false;
  bool keep_duplicates = false;
  bool quiet = false;
};

const Register kGenerate{
    {"generate", "generate a Kronecker, uniform or grid graph and write it", 20, [](CLI::App& app) {
       auto o = std::make_shared<GenerateOptions>();
       app.add_option("KIND", o->kind, "kron, uniform or grid")
           ->required()
           ->check(CLI::IsMember({"kron", "uniform", "grid"}));
       app.add_option("--scale", o->gen.scale, "2^N vertices")->required()->check(CLI::Range(1, 40));
       app.add_option("-k,--edge-factor", o->gen.edge_factor, "edges per vertex (default 16)")
           ->check(CLI::Range(1, 1 << 20));
       app.add_option("--seed", o->gen.seed, "generator seed (default 27491095)");
       app.add_flag("--weighted", o->gen.weighted, "integer weights uniform in [1, 255]");
       app.add_option("-o,--output", o->output, "output file (.ngr .el .wel .mtx)")->required();
       app.add_option("--format", o->format, "force the output format: el wel mtx ngr");
       app.add_option("-t,--threads", o->threads, "threads (default: all cores)")->check(CLI::Range(0, 4096));
       app.add_flag("--keep-self-loops", o->keep_self_loops,
                    "keep generated self-loops (by default they are dropped, as kernels do)");
       app.add_flag("--keep-duplicates", o->keep_duplicates,
                    "keep parallel edges (by default one is kept, as kernels do)");
       add_quiet_option(app, o->quiet);
       app.callback([o] {
         parallel::set_threads(o->threads);
         start_progress(o->quiet);
         progress_note("generating " + o->kind + " scale " + std::to_string(o->gen.scale));
         profile::Timer t;
         EdgeList edges = o->kind == "kron"      ? generate_kronecker(o->gen)
                          : o->kind == "uniform" ? generate_uniform(o->gen)
                                                 : generate_grid(o->gen);
         const double gen_s = t.seconds();
         t.restart();
         progress_note("building the graph");
         BuildOptions build;
         build.relabel = Relabel::kOff;
         build.drop_self_loops = !o->keep_self_loops;
         build.dedupe = !o->keep_duplicates;
         AnyGraph g = build_graph(std::move(edges), build);
         const double build_s = t.seconds();
         t.restart();
         progress_note("writing " + o->output);
         write_graph(g, o->output, o->format.empty() ? Format::kAuto : parse_format(o->format));
         progress_clear();
         // Status goes to stderr: the output may be /dev/stdout.
         std::fprintf(stderr, "wrote %s: generate %.3f s, build %.3f s, write %.3f s\n", o->output.c_str(),
                     gen_s, build_s, t.seconds());
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
