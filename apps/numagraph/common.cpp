#include "common.hpp"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>

#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "runtime_info.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {

void add_graph_options(CLI::App& app, GraphSource& src, bool raw) {
  auto* positional = app.add_option("FILE", src.file, "graph file (format from extension/content; .gz ok)");
  // One file: given twice, the second used to replace the first silently.
  app.add_option("-f,--file", src.file, "graph file (same as FILE, gapbs style)")->excludes(positional);
  app.add_option("-g,--kron", src.kron_scale, "generate a Graph500 Kronecker graph of 2^N vertices")
      ->check(CLI::Range(1, 40));
  app.add_option("-u,--uniform", src.uniform_scale, "generate a uniform random graph of 2^N vertices")
      ->check(CLI::Range(1, 40));
  app.add_option("--grid", src.grid_scale, "generate a 2-D grid graph of about 2^N vertices")
      ->check(CLI::Range(2, 40));
  app.add_option("-k,--edge-factor", src.edge_factor, "edges per vertex for generators (default 16)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--graph-seed", src.gen_seed, "generator seed (default 27491095)");
  app.add_flag("--weighted", src.weighted, "give generated graphs integer weights in [1, 255]");
  app.add_option("--format", src.format, std::string("force the input format: ") + kInputFormatNames);
  auto* header = app.add_flag("--header", src.header,
                              "text tables (CSV, TSV, edge lists): the first line is a header (default: detected, "
                              "docs/formats.md)");
  app.add_flag("--no-header", src.no_header, "text tables: the first line is an edge, not a header")->excludes(header);
  app.add_option("--weight-column", src.weight_column,
                 "text tables: the column of edge weights (a number from 1, a header name) or none; none also "
                 "reads weighted formats (.wel .gr .mtx .ngr) unweighted (default: decided, docs/formats.md)");
  auto* symmetrize = app.add_flag("-s,--symmetrize", src.symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_flag("--directed", src.directed,
               "the edges are directed arcs, as edge lists and tables are read by default: says so, so the note "
               "about it is not printed (refused for files that declare undirected edges)")
      ->excludes(symmetrize);
  app.add_flag("--no-checksum", src.no_checksum, "load .ngr files without verifying their checksum (trusted files)");
  app.add_option("--relabel", src.relabel, "compact sparse ids to 0..k-1: on, off or auto (default)")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  if (!raw) {
    app.add_flag("--keep-self-loops", src.keep_self_loops,
                 "keep self-loops (by default kernels drop them, as gapbs does)");
    app.add_flag("--keep-duplicates", src.keep_duplicates,
                 "keep parallel edges (by default kernels keep one, the lightest)");
  }
  // Results written over the graph they came from destroy it: refuse before
  // loading (the command's --output is added after this call, so look it up
  // once parsing is complete).
  app.parse_complete_callback([&app, &src] {
    const CLI::Option* out = app.get_option_no_throw("--output");
    if (out && out->count() > 0) {
      refuse_output_onto_input(out->as<std::string>(), src.file, "--output");
      values_layout(out->as<std::string>(), app.get_name());
    }
  });
}

namespace {

bool ends_with_nocase(const std::string& text, const std::string& tail) {
  if (text.size() < tail.size()) return false;
  return std::equal(tail.begin(), tail.end(), text.end() - static_cast<std::ptrdiff_t>(tail.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

// The Python function that computes what CLI `command` does, for messages.
std::string python_function(const std::string& command) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"bc", "betweenness"},   {"pr", "pagerank"},        {"bp", "belief_propagation"},
      {"cc", "connected_components"}, {"tc", "triangles"}, {"kcore", "core_number"}};
  for (const auto& [cli, py] : kNames)
    if (command == cli) return py;
  return command.empty() ? "<kernel>" : command;
}

bool weighted(const LoadedGraph& g) {
  return numagraph::visit([](const auto& graph) { return graph.weighted(); }, g.graph);
}

}  // namespace

ValuesLayout values_layout(const std::string& path, const std::string& command) {
  if (ends_with_nocase(path, ".parquet") || ends_with_nocase(path, ".pq"))
    throw UsageError("--output writes text (.csv, .tsv or 'id value' lines), not Parquet (got '" + path +
                     "'); write Parquet from Python: numagraph." + python_function(command) +
                     "(g, ..., as_frame=True).to_parquet(\"" + path + "\"), or give --output " +
                     path.substr(0, path.rfind('.')) + ".csv");
  if (ends_with_nocase(path, ".gz"))
    throw UsageError("--output writes uncompressed text (got '" + path + "'); give --output " +
                     path.substr(0, path.size() - 3) + " and compress it afterwards");
  if (ends_with_nocase(path, ".csv")) return ValuesLayout::kCsv;
  if (ends_with_nocase(path, ".tsv")) return ValuesLayout::kTsv;
  return ValuesLayout::kLines;
}

LoadedGraph load_graph(const GraphSource& src, bool raw) {
  const int sources = !src.file.empty() + (src.kron_scale > 0) + (src.uniform_scale > 0) +
                      (src.grid_scale > 0);
  if (sources != 1)
    throw UsageError("give exactly one graph: FILE, -f FILE, --kron N, --uniform N or --grid N");
  if (src.file.empty() && !src.weight_column.empty())
    throw UsageError("--weight-column picks a column of a graph file; generated graphs have weights only with "
                     "--weighted");
  BuildOptions build;
  build.symmetrize = src.symmetrize;
  build.drop_self_loops = !raw && !src.keep_self_loops;
  build.dedupe = !raw && !src.keep_duplicates;
  build.relabel = src.relabel == "on" ? Relabel::kOn : src.relabel == "off" ? Relabel::kOff
                                                                             : Relabel::kAuto;
  LoadedGraph out;
  profile::Timer total;
  if (!src.file.empty()) {
    ReadOptions ro;
    if (!src.format.empty()) ro.format = parse_format(src.format);
    ro.verify_checksum = !src.no_checksum;
    ro.header = src.header ? Header::kYes : src.no_header ? Header::kNo : Header::kAuto;
    ro.weight_column = src.weight_column;
    out.name = src.file;
    progress_note("loading " + src.file);
    const Format f = ro.format != Format::kAuto ? ro.format : format_from_extension(src.file);
    if (f == Format::kNgr || f == Format::kGapbs || f == Format::kGapbsWeighted || f == Format::kAuto) {
      out.graph = numagraph::load_graph(src.file, ro, build, &out.report);
      out.read_seconds = total.seconds();
    } else {  // time parsing and building separately (the load benchmark reports both)
      EdgeList edges = read_edge_list(src.file, ro);
      out.read_seconds = total.seconds();
      out.header = edges.header;
      profile::Timer build_timer;
      out.graph = build_graph(std::move(edges), build, &out.report);
      out.build_seconds = build_timer.seconds();
    }
  } else {
    GeneratorOptions go;
    go.edge_factor = src.edge_factor;
    go.seed = src.gen_seed;
    go.weighted = src.weighted;
    EdgeList edges;
    progress_note("generating the graph");
    if (src.kron_scale > 0) {
      go.scale = src.kron_scale;
      edges = generate_kronecker(go);
      out.name = "kron" + std::to_string(go.scale);
    } else if (src.uniform_scale > 0) {
      go.scale = src.uniform_scale;
      edges = generate_uniform(go);
      out.name = "urand" + std::to_string(go.scale);
    } else {
      go.scale = src.grid_scale;
      edges = generate_grid(go);
      out.name = "grid" + std::to_string(go.scale);
    }
    out.read_seconds = total.seconds();
    progress_note("building " + out.name);
    profile::Timer build_timer;
    out.graph = build_graph(std::move(edges), build, &out.report);
    out.build_seconds = build_timer.seconds();
  }
  progress_clear();
  out.load_seconds = total.seconds();
  if (src.directed) {
    const bool directed = numagraph::visit([](const auto& g) { return g.directed(); }, out.graph);
    if (!directed)
      throw UsageError(out.name + " declares its edges undirected (a symmetric Matrix Market or a METIS file), "
                       "so --directed cannot apply: drop it");
    if (find_decision(out.report.decisions, "directed")) set_decision(out.report.decisions, "directed", "true");
  }
  if (!src.file.empty() && !raw)
    note_cleaning(src, out.report, weighted(out));
  print_input_notes(out.name, out.report);
  return out;
}

void note_cleaning(const GraphSource& src, BuildReport& report, bool weighted) {
  const auto loops = report.self_loops_removed;
  if (loops > 0 && !src.keep_self_loops)
    set_decision(report.decisions, "self_loops_removed", std::to_string(loops),
                 "dropped " + count_of(loops, "self-loop") + ", as the kernels do (--keep-self-loops keeps them)");
  const auto duplicates = report.duplicates_removed;
  if (duplicates > 0 && !src.keep_duplicates)
    set_decision(report.decisions, "duplicates_removed", std::to_string(duplicates),
                 "merged " + count_of(duplicates, "parallel arc") + " into one each" +
                     (weighted ? ", keeping the lightest weight" : "") + " (--keep-duplicates keeps them)");
}

void print_input_notes(const std::string& name, const BuildReport& report) {
  bool notice_said = report.notice.empty();
  for (const auto& d : report.decisions) {
    if (d.note.empty()) continue;
    std::fprintf(stderr, "numagraph: note: %s: %s\n", name.c_str(), d.note.c_str());
    notice_said = notice_said || report.notice.find(d.note) != std::string::npos;
  }
  if (!notice_said) std::fprintf(stderr, "numagraph: note: %s: %s\n", name.c_str(), report.notice.c_str());
}

profile::Record input_record(const BuildReport& report) {
  profile::Record input;
  for (const auto& d : report.decisions) {
    if (d.value == "true" || d.value == "false") input.set(d.key, d.value == "true");
    else input.set(d.key, d.value);
  }
  return input;
}

void add_run_options(CLI::App& app, RunOptions& run) {
  app.add_option("-t,--threads", run.threads, "threads (default: all cores)")->check(CLI::Range(0, 4096));
  app.add_option("-n,--trials", run.trials, "timed trials (default 3)")->check(CLI::Range(1, 100000));
  app.add_flag("-v,--verify", run.verify, "check every result with the serial verifier");
  app.add_flag("--json", run.json, "print one JSON object per run instead of a table");
  app.add_option("--seed", run.seed, "seed for random roots/sources (default 27491095)");
  add_runtime_options(app);
  add_observe_options(app, run.observe);
}

void apply_run_options(const RunOptions& run) {
  apply_runtime_options(run.threads);
  start_observing(run.observe);
}

namespace {
// What each kernel that cannot use edge weights computes instead.
const char* without_weights(const std::string& kernel) {
  if (kernel == "bfs") return "depths count hops";
  if (kernel == "bc") return "shortest paths count hops";
  if (kernel == "diameter") return "distances count hops";
  if (kernel == "cc") return "components depend only on which edges exist";
  if (kernel == "tc") return "triangles depend only on which edges exist";
  if (kernel == "kcore") return "core numbers count neighbours";
  if (kernel == "bp") return "every edge has the same coupling, --coupling";
  return nullptr;
}
}  // namespace

void note_unused_weights(const std::string& kernel, const LoadedGraph& g) {
  const char* instead = without_weights(kernel);
  if (instead && weighted(g))
    std::fprintf(stderr, "numagraph: note: %s has edge weights; %s does not use them (%s); sssp does\n",
                 g.name.c_str(), kernel.c_str(), instead);
}

profile::Record base_record(const std::string& kernel, const LoadedGraph& g, const RunOptions&) {
  profile::Record rec;
  rec.set("kernel", kernel).set("graph", g.name);
  numagraph::visit(
      [&](const auto& graph) {
        rec.set("num_vertices", graph.num_vertices())
            .set("num_edges", graph.num_edges())
            .set("directed", graph.directed())
            .set("weighted", graph.weighted());
      },
      g.graph);
  if (g.header) rec.set("header", *g.header);
  if (!g.report.decisions.empty()) rec.set("input", input_record(g.report));  // what was decided about the file
  if (without_weights(kernel) && weighted(g)) rec.set("weights_used", false);  // note_unused_weights said why
  rec.set("threads", parallel::max_threads());
  add_runtime_fields(rec);
  rec.set("load_s", g.load_seconds);
  return rec;
}

std::vector<double> time_trials(int trials, const std::function<void(int)>& trial) {
  std::vector<double> seconds;
  for (int i = 0; i < trials; ++i) {
    begin_timed_calls();
    profile::Timer t;
    trial(i);
    seconds.push_back(t.seconds());
  }
  return seconds;
}

namespace {
CallInfo first_reorder;  // one command per process: the call that renumbered
int kernel_threads = 0;  // threads the last timed call ran on (CallInfo::threads)

// Wall seconds of the calls' "reorder" phase: the renumbering and what
// compute_order measures besides (its BFS-equivalent yardstick), all of which
// time_trials leaves out of the kernel's time.
class ReorderClock final : public PhaseListener {
 public:
  void begin(std::string_view phase) override {
    if (phase == "reorder") timer_.restart();
  }
  void end(std::string_view phase) override {
    if (phase == "reorder") seconds += timer_.seconds();
  }
  double seconds = 0;

 private:
  profile::Timer timer_;
};
ReorderClock reorder_clock;
}  // namespace

const CallInfo& reorder_cost() { return first_reorder; }
PhaseListener* reorder_listener() { return &reorder_clock; }

std::vector<double> time_trials(int trials, const std::function<void(int)>& trial, const CallInfo& ran) {
  std::vector<double> seconds;
  for (int i = 0; i < trials; ++i) {
    const double reorder_before = reorder_clock.seconds;
    begin_timed_calls();
    profile::Timer t;
    trial(i);
    const double reorder_wall = reorder_clock.seconds - reorder_before;
    seconds.push_back(t.seconds() - ran.setup_s - std::max(reorder_wall, ran.reorder_s));
    if (ran.reorder_s > 0 && first_reorder.reorder_s == 0) first_reorder = ran;
    if (ran.threads > 0) kernel_threads = ran.threads;
  }
  return seconds;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void add_cache_block_option(CLI::App& app, std::int64_t& bytes, const std::string& what) {
  app.add_option_function<std::string>(
         "--cache-block",
         [&bytes](const std::string& text) {
           try {
             bytes = numagraph::parse_cache_block(text);
           } catch (const UsageError& e) {
             throw UsageError(std::string("--cache-block: ") + e.what());
           }
         },
         "cache blocking of the pull sweep: bytes of " + what +
             " per block (e.g. 256K), 'off', or 'auto' (default: tiles once the " + what +
             " outgrow one core's L2, for 3 or more iterations, 5 up to 4 L2s; segmented sweeps once they exceed"
             " 1/4 of the last-level cache; the rule and block sizes in docs/kernels/pr.md)")
      ->type_name("SIZE");
}

void emit(const RunOptions& run, profile::Record& rec, const std::vector<double>& seconds,
          std::optional<bool> verified, const std::string& verify_message, const Summary& summary) {
  rec.set("trials", seconds);
  rec.set("median_s", median(seconds));
  rec.set("mean_s", seconds.empty() ? 0.0
                                    : std::accumulate(seconds.begin(), seconds.end(), 0.0) /
                                          static_cast<double>(seconds.size()));
  rec.set("min_s", seconds.empty() ? 0.0 : *std::min_element(seconds.begin(), seconds.end()));
  // Fewer than "threads" when the graph is below the kernel's serial cut-off.
  if (kernel_threads > 0) rec.set("kernel_threads", kernel_threads);
  if (verified) rec.set("verified", *verified); else rec.set_null("verified");
  rec.set("peak_rss_bytes", peak_rss_bytes());
  if (numa::placement_report_on()) {  // --placement-report: the kernel's own arrays, by role
    const auto report = numa::placement_report();
    if (run.json) rec.raw("placement_report", numa::placement_report_json(report));
    else std::fputs(numa::placement_report_text(report).c_str(), stderr);
  }
  finish_observing(rec);  // last: the profile's copy of the record has every result
  if (run.json) {
    std::printf("%s\n", rec.json().c_str());
  } else {
    for (const std::string& line : summary.lines) std::printf("%s\n", line.c_str());
    if (!summary.lines.empty()) std::printf("\n");
    for (const auto& [key, value] : rec.fields()) {
      if (std::find(summary.keys.begin(), summary.keys.end(), key) != summary.keys.end()) continue;
      std::string v = value;
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      std::printf("%-20s %s\n", key.c_str(), v.c_str());
    }
    if (verified) std::printf("%-20s %s\n", "verification", *verified ? "PASS" : "FAIL");
  }
  std::fflush(stdout);
  if (verified && !*verified)
    throw VerifyError("verification failed" + (verify_message.empty() ? "" : ": " + verify_message));
}

}  // namespace numagraph::cli
