#include "job.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "agree.hpp"
#include "exchange.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/util/error.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

using numagraph::cli::count_of;
using numagraph::cli::peak_rss_bytes;

void add_graph_flags(CLI::App& app, GraphFlags& g, bool raw) {
  auto* positional = app.add_option("FILE", g.file, "graph file (format from extension/content), read in parallel: "
                                                    "every rank parses its byte range");
  app.add_option("-f,--file", g.file, "graph file (same as FILE)")->excludes(positional);
  app.add_option("--format", g.format, "force the input format: el wel snap mtx gr metis csv tsv ngr");
  app.add_flag("--no-checksum", g.no_checksum, "load a .ngr without verifying its checksum (trusted files)");
  auto* header = app.add_flag("--header", g.header, "text tables: the first line is a header");
  app.add_flag("--no-header", g.no_header, "text tables: the first line is an edge, not a header")->excludes(header);
  app.add_option("--weight-column", g.weight_column,
                 "text tables: the column holding weights (number or header name), or 'none' to read unweighted");
  auto* sym = app.add_flag("-s,--symmetrize", g.symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_flag("--directed", g.directed, "the file's edges are directed (settles the note; the default)")
      ->excludes(sym);
  app.add_option("--relabel", g.relabel, "compact sparse ids to 0..k-1: on, off or auto (default)")
      ->check(CLI::IsMember({"on", "off", "auto"}));
  if (raw) {  // the graph as stored
    g.keep_self_loops = g.keep_duplicates = true;
    return;
  }
  app.add_flag("--keep-self-loops", g.keep_self_loops, "keep self-loops (dropped by default)");
  app.add_flag("--keep-duplicates", g.keep_duplicates, "keep parallel edges (merged by default)");
}

void add_run_flags(CLI::App& app, RunFlags& r, const std::string& output_help) {
  app.add_option("-t,--threads", r.threads, "OpenMP threads per rank (default: OMP_NUM_THREADS, else the rank's cores)")
      ->check(CLI::Range(0, 4096));
  app.add_option("-n,--trials", r.trials, "timed trials (default 3)")->check(CLI::Range(1, 100000));
  app.add_flag("--json", r.json, "print one JSON object (rank 0) instead of a table");
  app.add_option("--seed", r.seed, "seed for random roots (default 27491095, the same roots as numagraph)");
  if (!output_help.empty()) app.add_option("--output", r.output, output_help);
}

namespace {

bool ends_with_nocase(const std::string& s, const std::string& tail) {
  if (s.size() < tail.size()) return false;
  return std::equal(tail.rbegin(), tail.rend(), s.rbegin(),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

void check_output_name(const std::string& path, const std::string& command) {
  if (ends_with_nocase(path, ".parquet"))
    throw UsageError("--output " + path + ": Parquet is written from Python (numagraph." + command +
                     "(...) and pandas' to_parquet); give a .csv, .tsv or any other name for text");
  if (ends_with_nocase(path, ".gz"))
    throw UsageError("--output " + path + ": the file would be plain text; write " + path.substr(0, path.size() - 3) +
                     " and compress it afterwards");
}

}  // namespace

char output_separator(const std::string& path) {
  if (ends_with_nocase(path, ".csv")) return ',';
  if (ends_with_nocase(path, ".tsv")) return '\t';
  return ' ';
}

Job start_job(MPI_Comm comm, const GraphFlags& g, const RunFlags& r, const std::string& command) {
  Job job;
  job.comm = comm;
  job.run = r;
  MPI_Comm_rank(comm, &job.rank);
  MPI_Comm_size(comm, &job.ranks);
  LoadRequest rq;
  agree(comm, [&] {
    if (g.file.empty()) throw UsageError("give a graph file: numagraph-mpi " + command + " FILE");
    if (!r.output.empty()) check_output_name(r.output, command);
    rq.path = g.file;
    if (!g.format.empty()) rq.read.format = parse_format(g.format);
    rq.read.header = g.header ? Header::kYes : g.no_header ? Header::kNo : Header::kAuto;
    rq.read.weight_column = g.weight_column;
    rq.read.verify_checksum = !g.no_checksum;
  });
  if (r.threads > 0) omp_set_num_threads(r.threads);
  rq.symmetrize = g.symmetrize;
  rq.directed = g.directed;
  rq.keep_self_loops = g.keep_self_loops;
  rq.keep_duplicates = g.keep_duplicates;
  rq.relabel = g.relabel == "on" ? Relabel::kOn : g.relabel == "off" ? Relabel::kOff : Relabel::kAuto;
  rq.work = command == "pr" ? ArcWork::kIn : command == "sssp" ? ArcWork::kOut : ArcWork::kBoth;
  job.balance = rq.work;
  job.graph = load_distributed(rq, comm);
  BuildReport& rep = job.graph.report;
  const bool weighted = job.graph.csr.weighted;
  if (rep.self_loops_removed > 0 && !g.keep_self_loops)
    set_decision(rep.decisions, "self_loops_removed", std::to_string(rep.self_loops_removed),
                 "dropped " + count_of(rep.self_loops_removed, "self-loop") +
                     ", as the kernels do (--keep-self-loops keeps them)");
  if (rep.duplicates_removed > 0 && !g.keep_duplicates)
    set_decision(rep.decisions, "duplicates_removed", std::to_string(rep.duplicates_removed),
                 "merged " + count_of(rep.duplicates_removed, "parallel arc") + " into one each" +
                     (weighted ? ", keeping the lightest weight" : "") + " (--keep-duplicates keeps them)");
  if (job.rank == 0) {
    bool notice_said = rep.notice.empty();
    for (const auto& d : rep.decisions) {
      if (d.note.empty()) continue;
      std::fprintf(stderr, "%s: note: %s: %s\n", kToolName, job.graph.name.c_str(), d.note.c_str());
      notice_said = notice_said || rep.notice.find(d.note) != std::string::npos;
    }
    if (!notice_said) std::fprintf(stderr, "%s: note: %s: %s\n", kToolName, job.graph.name.c_str(), rep.notice.c_str());
  }
  return job;
}

profile::Record base_record(const Job& job, const std::string& kernel) {
  const DistCsr& g = job.graph.csr;
  profile::Record rec;
  rec.set("kernel", kernel).set("graph", job.graph.name);
  rec.set("num_vertices", g.n)
      .set("num_edges", g.directed ? g.global_arcs : (g.global_arcs + job.graph.self_loops_kept) / 2)
      .set("directed", g.directed)
      .set("weighted", g.weighted);
  if (!job.graph.report.decisions.empty()) {
    profile::Record input;
    for (const auto& d : job.graph.report.decisions) {
      if (d.value == "true" || d.value == "false") input.set(d.key, d.value == "true");
      else input.set(d.key, d.value);
    }
    rec.set("input", input);
  }
  rec.set("ranks", job.ranks).set("threads", omp_get_max_threads());
  rec.set("blocks_balance", std::string(arc_work_name(job.balance)) + " plus vertices");
  const LoadTimes& t = job.graph.times;
  rec.set("load_s", max_all(t.total, job.comm))
      .set("read_s", max_all(t.read, job.comm))
      .set("partition_s", max_all(t.partition + t.shuffle + t.lists, job.comm));
  const std::int64_t bytes = sum_all(t.bytes, job.comm);
  rec.set("input_bytes", bytes);
  return rec;
}

void add_per_rank(const Job& job, profile::Record& rec, const StepTimes& k) {
  const LoadTimes& t = job.graph.times;
  constexpr int kFields = 12;
  const double mine[kFields] = {t.total,   t.read,     t.ids,  t.partition + t.shuffle + t.lists,
                                k.compute, k.exchange, k.wait, static_cast<double>(peak_rss_bytes()),
                                static_cast<double>(job.graph.csr.ghosts()), t.partition, t.shuffle, t.lists};
  std::vector<double> all(static_cast<std::size_t>(kFields) * job.ranks);
  check(MPI_Gather(mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, job.comm), "MPI_Gather(times)");
  const std::int64_t local_n = job.graph.csr.local_n;
  const std::int64_t local_arcs = local_n == 0 ? 0 : static_cast<std::int64_t>(job.graph.csr.out.offsets[local_n]);
  std::vector<std::int64_t> sizes(2 * static_cast<std::size_t>(job.ranks));
  const std::int64_t my_sizes[2] = {local_n, local_arcs};
  check(MPI_Gather(my_sizes, 2, MPI_INT64_T, sizes.data(), 2, MPI_INT64_T, 0, job.comm), "MPI_Gather(sizes)");
  if (job.rank != 0) return;
  std::string list = "[";
  for (int r = 0; r < job.ranks; ++r) {
    const double* x = &all[static_cast<std::size_t>(r) * kFields];
    profile::Record one;
    one.set("rank", r)
        .set("vertices", sizes[2 * r])
        .set("arcs", sizes[2 * r + 1])
        .set("ghosts", static_cast<std::int64_t>(x[8]))
        .set("load_s", x[0])
        .set("read_s", x[1])
        .set("ids_s", x[2])
        .set("partition_s", x[3])
        .set("cut_s", x[9])
        .set("shuffle_s", x[10])
        .set("lists_s", x[11])
        .set("compute_s", x[4])
        .set("exchange_s", x[5])
        .set("wait_s", x[6])
        .set("peak_rss_bytes", static_cast<std::int64_t>(x[7]));
    list += (r ? "," : "") + one.json();
  }
  rec.raw("per_rank", list + "]");
}

void add_trials(const Job& job, profile::Record& rec, const std::vector<double>& seconds, const StepTimes& kernel) {
  rec.set("trials", seconds);
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  rec.set("median_s", sorted[sorted.size() / 2]);
  add_per_rank(job, rec, kernel);
}

void emit(const Job& job, profile::Record& rec, const std::vector<std::string>& lines,
          const std::vector<std::string>& keys) {
  if (job.rank != 0) return;
  if (job.run.json) {
    std::printf("%s\n", rec.json().c_str());
  } else {
    for (const std::string& l : lines) std::printf("%s\n", l.c_str());
    if (!lines.empty()) std::printf("\n");
    for (const auto& [key, value] : rec.fields()) {
      if (key == "per_rank" || key == "input" || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      std::string v = value;
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      std::printf("%-20s %s\n", key.c_str(), v.c_str());
    }
  }
  std::fflush(stdout);
}

std::string user_id_of(const Job& job, std::uint64_t v) {
  const DistGraph& g = job.graph;
  std::string text;
  if (g.csr.owns(v)) {
    text = g.user_id(static_cast<std::int64_t>(v) - g.csr.first);
  }
  // The owner broadcasts the text.
  int len = static_cast<int>(text.size());
  const int owner = g.csr.blocks.owner(v);
  MPI_Bcast(&len, 1, MPI_INT, owner, job.comm);
  text.resize(static_cast<std::size_t>(len));
  MPI_Bcast(text.data(), len, MPI_CHAR, owner, job.comm);
  return text;
}

std::string shown_id(const Job& job, const std::string& id) { return job.graph.named() ? "'" + id + "'" : id; }

std::string ids_json(const Job& job, const std::vector<std::string>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ',';
    if (!job.graph.named()) {
      out += ids[i];
      continue;
    }
    out += '"';
    for (const char ch : ids[i]) {
      if (ch == '"' || ch == '\\') {
        out += '\\';
        out += ch;
      } else if (static_cast<unsigned char>(ch) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", ch);
        out += buf;
      } else {
        out += ch;
      }
    }
    out += '"';
  }
  return out + "]";
}

std::vector<std::uint64_t> pick_roots(const Job& job, const std::string& source, std::int64_t count) {
  const DistCsr& g = job.graph.csr;
  if (!source.empty()) {
    const std::int64_t v = dense_id_of(job.graph.ids, source, job.comm);
    agree(job.comm, [&] {
      if (v >= 0) return;
      if (job.graph.named())
        throw UsageError("--source: vertex '" + source +
                         "' is not a name in the graph (names are matched exactly, case and blanks included, as "
                         "the file spells them)");
      throw UsageError("--source: vertex " + source + " does not appear in the graph");
    });
    return std::vector<std::uint64_t>(static_cast<std::size_t>(job.run.trials), static_cast<std::uint64_t>(v));
  }
  std::int64_t with_edges = 0;
  for (std::int64_t v = 0; v < g.local_n; ++v) with_edges += g.out_degree(v) > 0;
  with_edges = sum_all(with_edges, job.comm);
  agree(job.comm, [&] {
    if (g.n == 0 || g.global_arcs == 0) throw UsageError("the graph has no edges: there is no root to start from");
  });
  count = std::min(count, with_edges);
  std::vector<std::uint64_t> roots;
  std::vector<char> taken;  // candidates already picked, by position in `roots`
  constexpr std::uint64_t kBatch = 64;
  for (std::uint64_t i = 0; static_cast<std::int64_t>(roots.size()) < count; i += kBatch) {
    std::vector<std::uint64_t> cand(kBatch);
    std::vector<std::int64_t> has(kBatch, 0), any(kBatch, 0);
    // Drawn among the caller's ids, as numagraph draws them (a renumbered
    // .ngr: the ids of the graph it was made from).
    for (std::uint64_t k = 0; k < kBatch; ++k)
      cand[k] = kernels::root_stream(job.run.seed, i + k) % static_cast<std::uint64_t>(g.n);
    cand = dense_of_callers(job.graph, cand);
    for (std::uint64_t k = 0; k < kBatch; ++k)
      if (g.owns(cand[k])) has[k] = g.out_degree(static_cast<std::int64_t>(cand[k]) - g.first) > 0;
    check(MPI_Allreduce(has.data(), any.data(), static_cast<int>(kBatch), MPI_INT64_T, MPI_MAX, job.comm),
          "MPI_Allreduce(roots)");
    for (std::uint64_t k = 0; k < kBatch && static_cast<std::int64_t>(roots.size()) < count; ++k)
      if (any[k] && std::find(roots.begin(), roots.end(), cand[k]) == roots.end()) roots.push_back(cand[k]);
  }
  return roots;
}

void write_values(const Job& job, const std::string& path, const char* column,
                  const std::function<std::string(std::int64_t)>& value_text) {
  const DistGraph& g = job.graph;
  const char sep = output_separator(path);
  std::string text;
  if (job.rank == 0 && sep != ' ') text += std::string("vertex") + sep + column + "\n";
  for (std::int64_t v = 0; v < g.csr.local_n; ++v) {
    const std::string id = g.named() ? io::csv_field_text(g.labels.names[static_cast<std::size_t>(v)], sep) : g.user_id(v);
    text += id;
    text += sep;
    text += value_text(v);
    text += '\n';
  }
  std::int64_t size = static_cast<std::int64_t>(text.size()), offset = 0;
  check(MPI_Exscan(&size, &offset, 1, MPI_INT64_T, MPI_SUM, job.comm), "MPI_Exscan");
  if (job.rank == 0) offset = 0;
  // A temporary name in the same directory, the same on every rank.
  long tag = job.rank == 0 ? static_cast<long>(getpid()) : 0;
  MPI_Bcast(&tag, 1, MPI_LONG, 0, job.comm);
  const std::string temp = path + ".tmp-" + std::to_string(tag);
  MPI_File f;
  int rc = MPI_File_open(job.comm, temp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
  agree(job.comm, [&] {
    if (rc != MPI_SUCCESS) throw IoError("cannot write " + path + ": check the directory exists and is writable");
  });
  MPI_File_set_errhandler(f, MPI_ERRORS_RETURN);
  // Written in pieces below 1 GiB: MPI counts are ints.
  constexpr std::int64_t kPiece = std::int64_t{1} << 30;
  std::int64_t pieces = (size + kPiece - 1) / kPiece;
  const std::int64_t rounds = max_all(pieces, job.comm);
  bool failed = false;
  for (std::int64_t k = 0; k < rounds; ++k) {
    const std::int64_t lo = std::min(size, k * kPiece), len = std::min(size, lo + kPiece) - lo;
    MPI_Status st;
    rc = MPI_File_write_at_all(f, offset + lo, text.data() + lo, static_cast<int>(len), MPI_CHAR, &st);
    failed = failed || rc != MPI_SUCCESS;
  }
  rc = MPI_File_close(&f);
  failed = failed || rc != MPI_SUCCESS;
  const bool any_failed = any_all(failed, job.comm);
  if (any_failed && job.rank == 0) std::remove(temp.c_str());
  agree(job.comm, [&] {
    if (any_failed) throw IoError("error writing " + path + " (disk full?)");
    if (job.rank == 0 && std::rename(temp.c_str(), path.c_str()) != 0) {
      std::remove(temp.c_str());
      throw IoError("cannot write " + path + ": renaming the finished file failed (check the directory)");
    }
  });
}

}  // namespace numagraph::dist::cli
