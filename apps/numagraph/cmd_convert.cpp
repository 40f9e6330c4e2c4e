// numagraph convert IN OUT [--symmetrize --drop-self-loops --dedupe --relabel]
// OUT is written whole or not at all (a temporary file renamed into place) and
// may not be IN itself; the status line goes to stderr, so OUT may be a pipe.
#include <cstdio>
#include <memory>

#include "common.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "registry.hpp"

namespace numagraph::cli {
namespace {

struct ConvertOptions {
  std::string input, output, in_format, out_format, relabel = "auto";
  BuildOptions build;
  int threads = 0;
  bool quiet = false;
  bool header = false, no_header = false;
  std::string weight_column;  // --weight-column
};

const Register kConvert{
    {"convert", "convert a graph between formats, optionally cleaning it", 30, [](CLI::App& app) {
       auto o = std::make_shared<ConvertOptions>();
       app.add_option("IN", o->input, "input graph file")->required();
       app.add_option("OUT", o->output,
                      "output file (.ngr .el .wel .mtx .sg .wsg .csv .tsv; a graph with vertex names: .ngr .csv .tsv only)")
           ->required();
       app.add_option("--format", o->in_format, "force the input format");
       auto* header = app.add_flag("--header", o->header,
                                   "CSV/TSV input: the first line is a header (default: detected, docs/formats.md)");
       app.add_flag("--no-header", o->no_header, "CSV/TSV input: the first line is an edge")->excludes(header);
       app.add_option("--weight-column", o->weight_column,
                      "text tables: the column of edge weights (a number from 1, a header name) or none (drops "
                      "the weights of any format)");
       app.add_option("--to", o->out_format, "force the output format: el wel mtx ngr sg wsg csv tsv");
       app.add_flag("-s,--symmetrize", o->build.symmetrize, "make the graph undirected");
       app.add_flag("--drop-self-loops", o->build.drop_self_loops, "remove u->u edges");
       app.add_flag("--dedupe", o->build.dedupe, "keep one of parallel edges (the lightest)");
       app.add_option("--relabel", o->relabel, "compact sparse ids: on, off or auto (default)")
           ->check(CLI::IsMember({"on", "off", "auto"}));
       app.add_option("-t,--threads", o->threads, "threads (default: all cores)")->check(CLI::Range(0, 4096));
       add_quiet_option(app, o->quiet);
       app.callback([o] {
         parallel::set_threads(o->threads);
         start_progress(o->quiet);
         o->build.relabel = o->relabel == "on"    ? Relabel::kOn
                            : o->relabel == "off" ? Relabel::kOff
                                                  : Relabel::kAuto;
         ReadOptions ro;
         if (!o->in_format.empty()) ro.format = parse_format(o->in_format);
         ro.header = o->header ? Header::kYes : o->no_header ? Header::kNo : Header::kAuto;
         ro.weight_column = o->weight_column;
         refuse_output_onto_input(o->output, o->input, "OUT");
         profile::Timer t;
         BuildReport report;
         progress_note("loading " + o->input);
         AnyGraph g = load_graph(o->input, ro, o->build, &report);
         const double load_s = t.seconds();
         progress_clear();
         print_input_notes(o->input, report);
         t.restart();
         progress_note("writing " + o->output);
         write_graph(g, o->output, o->out_format.empty() ? Format::kAuto : parse_format(o->out_format));
         progress_clear();
         // Status goes to stderr: OUT may be /dev/stdout.
         std::fprintf(stderr, "wrote %s: load %.3f s, write %.3f s; removed %s, %s\n", o->output.c_str(), load_s,
                      t.seconds(), count_of(report.self_loops_removed, "self-loop").c_str(),
                      count_of(report.duplicates_removed, "duplicate arc").c_str());
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
