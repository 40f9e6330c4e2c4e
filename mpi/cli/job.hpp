// What every numagraph-mpi command shares: the graph flags (the same names
// and meanings as `numagraph`), the run flags, loading, the per-rank time
// table of the --json record, and writing --output.
#pragma once

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dist_load.hpp"
#include "numagraph/profile/record.hpp"
#include "step_times.hpp"

namespace numagraph::dist::cli {

struct GraphFlags {
  std::string file;
  std::string format;
  bool header = false, no_header = false;
  std::string weight_column;
  bool symmetrize = false, directed = false;
  std::string relabel = "auto";
  bool keep_self_loops = false, keep_duplicates = false;
  bool no_checksum = false;
};

struct RunFlags {
  int threads = 0;  // 0: OMP_NUM_THREADS, else the cores of the rank's binding
  int trials = 3;
  bool json = false;
  std::uint64_t seed = 27491095;
  std::string output;
};

// raw: the graph as stored (info): no --keep-* flags, nothing dropped.
void add_graph_flags(CLI::App& app, GraphFlags& g, bool raw = false);
void add_run_flags(CLI::App& app, RunFlags& r, const std::string& output_help);

// Everything a command needs once the flags are parsed.
struct Job {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, ranks = 1;
  RunFlags run;
  DistGraph graph;
  ArcWork balance = ArcWork::kBoth;  // what the block cut balanced
};

// Checks the flags (every rank, agreed), loads the graph, prints the input
// notes once. Collective.
Job start_job(MPI_Comm comm, const GraphFlags& g, const RunFlags& r, const std::string& command);

// The record fields every command has: kernel, graph, sizes, input
// decisions, ranks, threads, the load's times (max over ranks).
profile::Record base_record(const Job& job, const std::string& kernel);

// Adds "per_rank": one object per rank with its load and kernel times
// (load, partition, compute, exchange, wait) and its peak RSS. Collective.
void add_per_rank(const Job& job, profile::Record& rec, const StepTimes& kernel);

// Adds "trials" (each trial's seconds, the slowest rank's), "median_s"
// and "per_rank" (add_per_rank). Collective.
void add_trials(const Job& job, profile::Record& rec, const std::vector<double>& seconds, const StepTimes& kernel);

// Prints the record (--json) or the summary lines and a key/value table, on rank 0.
void emit(const Job& job, profile::Record& rec, const std::vector<std::string>& summary_lines,
          const std::vector<std::string>& summary_keys);

// Roots: --source (a user id or name), else `count` random non-isolated
// vertices drawn from --seed as `numagraph` draws them (kernels/roots.hpp).
// Collective; an unknown id ends the job with numagraph's message.
std::vector<std::uint64_t> pick_roots(const Job& job, const std::string& source, std::int64_t count);

// Writes one line per vertex in dense id order ("id value", or a CSV/TSV
// with the header `vertex,<column>`), each rank its block, with MPI-IO into
// a temporary file that rank 0 renames over `path` once every rank wrote: no
// partial file on any failure. format(v) is the value text of local vertex v.
void write_values(const Job& job, const std::string& path, const char* column,
                  const std::function<std::string(std::int64_t)>& value_text);

// The --output separator: ',' for .csv, tab for .tsv, else a blank.
char output_separator(const std::string& path);

// The user's id (or name) of global dense id v. Collective.
std::string user_id_of(const Job& job, std::uint64_t v);
// An id as messages show it: names in quotes.
std::string shown_id(const Job& job, const std::string& id);
// User ids as a JSON array: numbers, or strings for names.
std::string ids_json(const Job& job, const std::vector<std::string>& ids);

}  // namespace numagraph::dist::cli
