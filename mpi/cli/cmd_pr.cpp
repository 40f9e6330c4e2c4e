// numagraph-mpi pr: PageRank over the ranks (Jacobi; mpi/tool/pagerank.hpp),
// the models of `numagraph pr`: gapbs's default, --networkx, edge weights,
// --personalization and --dangling.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>

#include "agree.hpp"
#include "commands.hpp"
#include "exchange.hpp"
#include "job.hpp"
#include "pagerank.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

namespace {

struct PrFlags {
  GraphFlags graph;
  RunFlags run;
  DistPageRankOptions pr;
  std::string variant = "auto";
  bool unweighted = false;
  std::string personalization, dangling;
};

// The "id value" lines of a distribution file, as `numagraph pr` reads them
// (everything before the last blank is the id, so names may hold blanks).
struct Line {
  std::int64_t number;
  std::string id, value;
};

std::vector<Line> read_lines(const std::string& path, const std::string& option) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot open " + path + " (the " + option + " file)");
  std::vector<Line> lines;
  std::string line;
  for (std::int64_t ln = 1; std::getline(in, line); ++ln) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t end = line.find_last_not_of(" \t\r") + 1;
    const std::size_t gap = line.find_last_of(" \t", end - 1);
    if (gap == std::string::npos || gap < first)
      throw InputError(path, ln, "expected a vertex id and a value, found '" + line.substr(first, end - first) + "'");
    lines.push_back({ln, line.substr(first, line.find_last_not_of(" \t", gap) + 1 - first),
                     line.substr(gap + 1, end - gap - 1)});
  }
  return lines;
}

// My block's share of a distribution file, divided by the file's sum.
// Every rank reads the file; each id is resolved by the ranks that know it.
std::vector<double> read_distribution(const Job& job, const std::string& path, const std::string& option) {
  std::vector<Line> lines;
  agree(job.comm, [&] { lines = read_lines(path, option); });
  const IdMap& ids = job.graph.ids;
  std::vector<std::int64_t> dense(lines.size(), -1), found(lines.size(), -1);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i].id;
    if (ids.named) {
      if (auto it = ids.name_dense.find(t); it != ids.name_dense.end()) dense[i] = static_cast<std::int64_t>(it->second);
    } else {
      std::uint64_t v = 0;
      const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec == std::errc() && p == t.data() + t.size()) dense[i] = ids.known_dense(v);
    }
  }
  if (!lines.empty())
    check(MPI_Allreduce(dense.data(), found.data(), static_cast<int>(lines.size()), MPI_INT64_T, MPI_MAX, job.comm),
          "MPI_Allreduce(ids)");
  const DistCsr& g = job.graph.csr;
  std::vector<double> values(static_cast<std::size_t>(g.local_n), 0.0);
  agree(job.comm, [&] {
    std::vector<std::uint64_t> seen;
    double sum = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const Line& l = lines[i];
      if (found[i] < 0)
        throw InputError(path, l.number,
                         ids.named ? "vertex '" + l.id + "' is not a name in the graph (names are matched exactly, as "
                                                         "the graph file spells them)"
                                   : "vertex " + l.id + " does not appear in the graph");
      double value = 0;
      const auto [p, ec] = std::from_chars(l.value.data(), l.value.data() + l.value.size(), value);
      if (ec != std::errc() || p != l.value.data() + l.value.size() || !std::isfinite(value) || value < 0)
        throw InputError(path, l.number,
                         "the value of vertex " + l.id + " must be a finite number >= 0, found '" + l.value + "'");
      seen.push_back(static_cast<std::uint64_t>(found[i]) << 1);
      sum += value;
      if (g.owns(static_cast<std::uint64_t>(found[i]))) values[static_cast<std::size_t>(found[i] - g.first)] = value;
    }
    std::vector<std::uint64_t> sorted = seen;
    std::sort(sorted.begin(), sorted.end());
    if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
      const auto at = std::find(seen.begin(), seen.end(), *twice);
      const auto k = static_cast<std::size_t>(std::find(at + 1, seen.end(), *twice) - seen.begin());
      throw InputError(path, lines[k].number, "vertex " + lines[k].id + " is listed twice");
    }
    if (!(sum > 0))
      throw InputError(path, 0, "no vertex has a positive value: the " + option +
                                    " file lists \"id value\" lines, at least one value above 0");
    for (double& v : values) v /= sum;
  });
  return values;
}

void run_pr(PrFlags f, MPI_Comm comm) {
  Job job = start_job(comm, f.graph, f.run, "pr");
  const DistCsr& g = job.graph.csr;
  agree(comm, [&] {
    if (f.variant == "gauss-seidel")
      throw UsageError("--variant gauss-seidel is not distributed: each rank would sweep its block with the others' "
                       "scores one iteration old, so the iterations would not be numagraph's; numagraph-mpi runs "
                       "jacobi (numagraph pr --variant jacobi gives the same scores on one machine)");
  });
  f.pr.use_weights = !f.unweighted;
  if (!f.personalization.empty()) f.pr.personalization = read_distribution(job, f.personalization, "--personalization");
  if (!f.dangling.empty()) f.pr.dangling = read_distribution(job, f.dangling, "--dangling");
  agree(comm, [&] {
    if (const std::string why = pagerank_input_problem(g, f.pr); !why.empty()) throw UsageError(why);
  });
  StepTimes times;
  DistPageRankResult r;
  std::vector<double> seconds, copy_seconds;  // copy: building the tiles, the slowest rank's
  for (int t = 0; t < f.run.trials; ++t) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    r = pagerank(g, f.pr, times);
    seconds.push_back(max_all(MPI_Wtime() - t0, comm));
    copy_seconds.push_back(max_all(r.cache_copy_s, comm));
  }
  std::sort(copy_seconds.begin(), copy_seconds.end());
  double sum = 0;
  for (double x : r.scores) sum += x;
  sum = sum_all(sum, comm);
  if (!f.run.output.empty())
    write_values(job, f.run.output, "score", [&](std::int64_t v) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", r.scores[static_cast<std::size_t>(v)]);
      return std::string(buf);
    });
  profile::Record rec = base_record(job, "pr");
  rec.set("variant", "jacobi")
      .set("damping", f.pr.damping)
      .set("tolerance", f.pr.tolerance)
      .set("max_iterations", f.pr.max_iterations)
      .set("iterations", r.iterations)
      .set("last_change", r.last_change)
      .set("networkx", f.pr.networkx)
      .set("weights_used", r.weights_used)
      .set("personalized", !f.personalization.empty())
      .set("score_sum", sum)
      // Each rank tiles its own block: the most column ranges and row bits of any rank.
      .set("cache_segments", max_all(std::int64_t{r.cache_segments}, comm))
      .set("tile_row_bits", max_all(std::int64_t{r.tile_row_bits}, comm))
      .set("cache_copy_s", copy_seconds[copy_seconds.size() / 2]);
  add_trials(job, rec, seconds, times);
  using numagraph::cli::count_of;
  using numagraph::cli::format;
  std::string how;
  if (r.weights_used) how = ", weighted by the edge weights (--unweighted ignores them)";
  else if (g.weighted) how = ", edge weights ignored (--unweighted)";
  if (!f.personalization.empty()) how += ", personalized";
  emit(job, rec,
       {format("PageRank of %s%s, %s: scores sum to %.6g", count_of(g.n, "vertex", "vertices").c_str(), how.c_str(),
               count_of(r.iterations, "iteration").c_str(), sum)},
       {});
}

}  // namespace

Command pr_command() {
  return {"pr", "PageRank over the ranks (Jacobi; damping 0.85)", [](CLI::App& app) {
            auto f = std::make_shared<PrFlags>();
            add_graph_flags(app, f->graph);
            add_run_flags(app, f->run,
                          "write each vertex's PageRank score: FILE.csv/.tsv with a header 'vertex,score', any other "
                          "name 'id score' lines");
            app.add_option("-i,--iterations", f->pr.max_iterations, "maximum iterations (20)")
                ->check(CLI::Range(1, 1 << 30));
            app.add_option("--tolerance", f->pr.tolerance,
                           "stop when the L1 change is below this (1e-4; 0: run every iteration)")
                ->check(CLI::NonNegativeNumber);
            app.add_option("--damping", f->pr.damping, "damping factor (0.85)")->check(CLI::Range(0.0, 1.0));
            app.add_flag("--networkx", f->pr.networkx,
                         "match networkx.pagerank: dangling mass spread (scores sum to 1), stop at L1 < n * "
                         "tolerance (defaults then tolerance 1e-6, 100 iterations, as NetworkX)");
            app.add_flag("--unweighted", f->unweighted,
                         "ignore the edge weights of a weighted graph (every edge counts 1, NetworkX's weight=None)");
            app.add_option("--personalization", f->personalization,
                           "file of \"id value\" lines (ids, or names): the teleport distribution, normalized; "
                           "unlisted vertices get 0 (NetworkX's personalization)");
            app.add_option("--dangling", f->dangling,
                           "with --networkx: file of \"id value\" lines, where the dangling mass goes (default: as "
                           "--personalization, else uniform; NetworkX's dangling)");
            app.add_option_function<std::string>(
                "--cache-block",
                [f](const std::string& text) {
                  try {
                    f->pr.cache_block_bytes = parse_cache_block(text);
                  } catch (const UsageError& e) {
                    throw UsageError(std::string("--cache-block: ") + e.what());
                  }
                },
                "tiling of each rank's sweep: bytes of contributions per column range (e.g. 256K), 'off', or "
                "'auto' (default: tiles once a rank's contributions, its ghosts' included, outgrow one core's L2, "
                "as numagraph pr)");
            app.add_option("--variant", f->variant,
                           "jacobi or auto (the same: the distributed PageRank is Jacobi); gauss-seidel is refused "
                           "with the reason")
                ->check(CLI::IsMember({"jacobi", "gauss-seidel", "auto"}));
            return std::function<void(MPI_Comm)>([f, &app](MPI_Comm comm) {
              PrFlags run = *f;
              if (run.pr.networkx && app.count("--tolerance") == 0) run.pr.tolerance = 1e-6;
              if (run.pr.networkx && app.count("--iterations") == 0) run.pr.max_iterations = 100;
              run_pr(run, comm);
            });
          }};
}

}  // namespace numagraph::dist::cli
