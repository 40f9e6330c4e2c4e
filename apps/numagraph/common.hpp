// Shared CLI pieces: where the graph comes from (a file or a generator), the
// run flags every kernel takes, and the trial harness that prints results for
// people (fixed-width text) or machines (--json, one object per run).
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "numagraph/execution.hpp"
#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/profile/record.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/util/atomic_file.hpp"
#include "numagraph/util/error.hpp"
#include "observe.hpp"
#include "summary.hpp"

namespace numagraph::cli {

// Flags that choose and shape the input graph.
struct GraphSource {
  std::string file;            // FILE or -f FILE
  int kron_scale = 0;          // --kron N / -g N
  int uniform_scale = 0;       // --uniform N / -u N
  int grid_scale = 0;          // --grid N
  int edge_factor = 16;        // --edge-factor / -k
  std::uint64_t gen_seed = kDefaultSeed;  // --graph-seed
  bool weighted = false;       // --weighted: generated graphs get weights in [1,255]
  std::string format;          // --format
  bool symmetrize = false;     // --symmetrize / -s
  bool directed = false;       // --directed: the edges are arcs (settles what an edge list leaves open)
  std::string relabel = "auto";  // --relabel on|off|auto
  bool keep_self_loops = false;  // --keep-self-loops
  bool keep_duplicates = false;  // --keep-duplicates
  bool no_checksum = false;      // --no-checksum: skip the .ngr checksum pass
  bool header = false;           // --header: CSV/TSV first line is a header
  bool no_header = false;        // --no-header: it is an edge (default: detected)
  std::string weight_column;     // --weight-column N|NAME|none (default: decided)
};

// kernels: positional FILE and the generator flags, with kernel-style cleaning
// (self-loops and duplicates removed unless kept). `raw` = info/convert
// style: the file is loaded as it is (no cleaning) unless flags ask.
void add_graph_options(CLI::App& app, GraphSource& src, bool raw = false);

struct LoadedGraph {
  AnyGraph graph;
  std::string name;     // file name or "kron20" etc.
  double load_seconds = 0;   // read/generate + build
  double read_seconds = 0;   // read or generate only
  double build_seconds = 0;  // builder only
  BuildReport report;
  std::optional<bool> header;  // CSV/TSV: whether the first line was a header
};

// Loads or generates the graph; prints the builder notice (if any) to stderr.
// add_graph_options also refuses (exit 2, before loading) an `--output` that
// is the input file itself.
// `raw` must match the value given to add_graph_options.
LoadedGraph load_graph(const GraphSource& src, bool raw = false);

// What was decided about an input file (BuildReport::decisions): each note
// once on stderr, "numagraph: note: NAME: ...", then the report's notice when
// no decision said it.
void print_input_notes(const std::string& name, const BuildReport& report);
// Records, with a note, the self-loops and parallel arcs a kernel's load
// dropped by default (not when the flags that keep them were given).
void note_cleaning(const GraphSource& src, BuildReport& report, bool weighted);
// The decisions as a record: key -> value ("true"/"false" as booleans), the
// "input" object of every --json record.
profile::Record input_record(const BuildReport& report);

// Flags every kernel takes.
struct RunOptions {
  int threads = 0;           // --threads / -t (0 = all cores)
  int trials = 3;            // --trials / -n
  bool verify = false;       // --verify / -v
  bool json = false;         // --json
  std::uint64_t seed = kDefaultSeed;  // --seed: roots / sampled sources
  ObserveFlags observe;      // --profile, --profile-interval, --quiet, --prefetchers
};

void add_run_options(CLI::App& app, RunOptions& run);
// Applies --threads and the runtime flags (pinning, topology, pages), then
// the observing ones (observe.hpp).
void apply_run_options(const RunOptions& run);

// Kernels that cannot use edge weights (bfs, bc, diameter, cc, tc, kcore,
// bp) say so: on a weighted graph, one note on stderr per run naming what the
// kernel computes instead and the command that uses weights (sssp), and the
// record gets "weights_used": false (base_record).
void note_unused_weights(const std::string& kernel, const LoadedGraph& g);

// A record pre-filled with kernel, graph, sizes, threads and the runtime
// configuration (topology, bind, placement, pages).
profile::Record base_record(const std::string& kernel, const LoadedGraph& g, const RunOptions& run);

// Times `trial(i)` for i in [0, trials); returns seconds per trial.
std::vector<double> time_trials(int trials, const std::function<void(int)>& trial);
// As above, less the setup and the renumbering each call reports in `ran`
// (the NUMA engine's partitioned graph and the --reorder graph, built by the
// first call): loading is not timed either.
std::vector<double> time_trials(int trials, const std::function<void(int)>& trial, const CallInfo& ran);
// The renumbering cost time_trials saw (reorder_s and reorder_bfs_equiv of the
// call that built the renumbered graph; zeros when none did), for the record.
const CallInfo& reorder_cost();
// The phase listener make_execution installs: it clocks the calls' "reorder"
// phase so time_trials can leave all of it out.
PhaseListener* reorder_listener();

// A graph loaded renumbered (a .ngr written by `numagraph reorder`) keeps its
// order for the kernels, which answer in the ids it had before; roots,
// verifiers and --output work in those ids, on this graph in its original
// order. Returns g itself when it was not renumbered, else that graph, built
// into `keep` (a second copy of the edges, untimed).
template <typename G>
const G& caller_graph(const G& g, std::optional<G>& keep) {
  if (!g.reordered()) return g;
  using V = typename G::vertex_type;
  keep.emplace(reorder::apply_permutation(
      g, reorder::Permutation<V>::from_old_of_new(g.permutation().new_of_old.clone(), "the graph's permutation")));
  return *keep;
}

// Adds trials/median/mean/min, `verified` and peak_rss_bytes to `rec`,
// finishes the profile (finish_observing), prints the record (JSON line, or
// for people the summary's lines above the table of the other fields) and
// throws VerifyError if verified == false.
void emit(const RunOptions& run, profile::Record& rec, const std::vector<double>& seconds,
          std::optional<bool> verified, const std::string& verify_message = "", const Summary& summary = {});

double median(std::vector<double> v);

// --cache-block for the pull kernels (values as parse_cache_block in
// graph/cache_blocking.hpp). `what` names the values that are blocked, for
// the help text.
void add_cache_block_option(CLI::App& app, std::int64_t& bytes, const std::string& what);

// Folds one verifier result into a run's verdict: the run passes only if
// every check passed, and keeps the first failure's message.
inline void merge_verdict(std::optional<bool>& verified, std::string& why, bool ok, const std::string& message) {
  if (!ok && (!verified || *verified)) why = message;
  verified = (!verified || *verified) && ok;
}

}  // namespace numagraph::cli

namespace numagraph::cli {

// Flag checks whose messages say what to do. CLI11's PositiveNumber and
// NonNegativeNumber answer `--delta 0` with "Value 0 not in range 0.000000 to"
// and the 309 digits of DBL_MAX.
inline CLI::Validator number_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& text) -> std::string {
        double value = 0;
        std::size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::out_of_range&) {
          return "is out of the range of a double (got '" + text + "')";
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size() || value != value)
          return "expects a number (got '" + text + "')";
        if (zero_allowed ? value >= 0 : value > 0) return {};
        return (zero_allowed ? "must be zero or positive (got " : "must be positive (got ") + text + ")";
      },
      zero_allowed ? "NONNEGATIVE" : "POSITIVE");
}
inline const CLI::Validator kPositive = number_check(false);
inline const CLI::Validator kNonNegative = number_check(true);
// A vertex order name (reorder::parse_order's message when it is not one).
inline const CLI::Validator kOrderName(
    [](std::string& text) -> std::string {
      try {
        reorder::parse_order(text);
        return {};
      } catch (const UsageError& e) {
        return e.what();
      }
    },
    "ORDER");

// How --output lays out its per-vertex values, chosen by the file's extension
// (case-insensitive): .csv and .tsv a header row `vertex,<column>` and then one
// RFC 4180 record per vertex, comma- or tab-separated; any other name the
// header-less "<id> <value>" lines split on blanks.
enum class ValuesLayout { kLines, kCsv, kTsv };
// Refuses (UsageError) a name it cannot honour: .parquet (with the Python call
// that writes one; `command` is the CLI command, e.g. "bc") and .gz (the file
// would be plain text). Every command with --output calls it before loading.
ValuesLayout values_layout(const std::string& path, const std::string& command = "");

// --output's help text: `what` ("each vertex's depth for the last root") and
// the two layouts, with `column` as the .csv/.tsv header names it.
inline std::string values_output_help(const std::string& what, const std::string& column) {
  return "write " + what + ": FILE.csv/.tsv with a header 'vertex," + column +
         "' (names quoted as in CSV), any other name 'id " + column + "' lines";
}

// Writes one record per vertex, its id and its value, with ids in the user's
// original labels: the files oracle tests and users read (--output FILE, laid
// out as values_layout says; `column` names the value in the .csv/.tsv header:
// depth, distance, score, ...). For a graph read with vertex names the id is the
// name (double-quoted, RFC 4180, when it holds the separator, a blank, a quote
// or a comma), and so is the value when `values_are_ids` (component
// representatives). The records go to a temporary file renamed over `path`
// when complete (util/atomic_file.hpp): an error or a signal never leaves a
// partial file.
template <typename G, typename T>
void write_vertex_values(const std::string& path, const G& g, const T* values, const char* column,
                         bool values_are_ids = false) {
  const ValuesLayout layout = values_layout(path);
  const char sep = layout == ValuesLayout::kCsv ? ',' : layout == ValuesLayout::kTsv ? '\t' : ' ';
  AtomicFile out(path);
  std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
  if (!f) throw IoError("cannot write " + path + ": check the directory exists and is writable");
  if (layout != ValuesLayout::kLines) std::fprintf(f, "vertex%c%s\n", sep, column);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const auto label = g.label(static_cast<typename G::vertex_type>(v));
    // The first column: the user's id, or the vertex's name for a named graph.
    const std::string id = g.named() ? io::csv_field_text((*g.names())[label], sep) : std::to_string(label);
    if constexpr (std::is_integral_v<T>) {
      if (values_are_ids && g.named()) {
        const auto value = static_cast<std::uint64_t>(values[v]);
        std::fprintf(f, "%s%c%s\n", id.c_str(), sep, io::csv_field_text((*g.names())[value], sep).c_str());
        continue;
      }
    }
    if constexpr (std::is_floating_point_v<T>)
      std::fprintf(f, "%s%c%.17g\n", id.c_str(), sep, static_cast<double>(values[v]));
    else if constexpr (std::is_signed_v<T>)
      std::fprintf(f, "%s%c%lld\n", id.c_str(), sep, static_cast<long long>(values[v]));
    else
      std::fprintf(f, "%s%c%llu\n", id.c_str(), sep, static_cast<unsigned long long>(values[v]));
  }
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) throw IoError("error writing " + path + " (disk full?)");
  out.commit();
}

}  // namespace numagraph::cli
