// numagraph-mpi bfs: direction-optimizing BFS over the ranks (mpi/tool/bfs.hpp).
#include <algorithm>
#include <cmath>
#include <memory>

#include "agree.hpp"
#include "bfs.hpp"
#include "commands.hpp"
#include "exchange.hpp"
#include "job.hpp"
#include "roots_flags.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

namespace {

struct BfsFlags {
  GraphFlags graph;
  RunFlags run;
  RootFlags roots;
  kernels::BfsOptions bfs;
};

void run_bfs(const BfsFlags& f, MPI_Comm comm) {
  Job job = start_job(comm, f.graph, f.run, "bfs");
  const DistCsr& g = job.graph.csr;
  if (g.weighted) note_once(comm, job.graph.name + " has edge weights; bfs does not use them (depths count hops); sssp does");
  const auto roots = pick_roots(job, f.roots.source, f.roots.sources > 0 ? f.roots.sources : f.run.trials);
  StepTimes times;
  DistBfsResult r;
  std::vector<double> seconds, teps;
  for (const std::uint64_t root : roots) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    r = bfs(g, static_cast<std::int64_t>(root), f.bfs, times);
    const double s = max_all(MPI_Wtime() - t0, comm);
    seconds.push_back(s);
    double arcs = 0;  // edges of the traversed component (Graph500's TEPS numerator)
    for (std::int64_t v = 0; v < g.local_n; ++v)
      if (r.depth[static_cast<std::size_t>(v)] >= 0) arcs += static_cast<double>(g.out_degree(v));
    arcs = sum_all(arcs, comm);
    teps.push_back((g.directed ? arcs : arcs / 2) / s);
  }
  std::int64_t reached = 0, max_depth = 0;
  for (std::int32_t d : r.depth)
    if (d >= 0) {
      ++reached;
      max_depth = std::max<std::int64_t>(max_depth, d);
    }
  reached = sum_all(reached, comm);
  max_depth = max_all(max_depth, comm);
  if (!f.run.output.empty())
    write_values(job, f.run.output, "depth", [&](std::int64_t v) { return std::to_string(r.depth[static_cast<std::size_t>(v)]); });
  profile::Record rec = base_record(job, "bfs");
  std::vector<std::string> root_ids;
  for (std::uint64_t root : roots) root_ids.push_back(user_id_of(job, root));
  double inverse = 0;
  for (double t : teps) inverse += 1.0 / t;
  rec.raw("roots", ids_json(job, root_ids));
  rec.set("teps", teps)
      .set("teps_harmonic_mean", static_cast<double>(teps.size()) / inverse)
      .set("alpha", f.bfs.alpha)
      .set("beta", f.bfs.beta)
      .set("top_down_steps", r.top_down_steps)
      .set("bottom_up_steps", r.bottom_up_steps)
      .set("reached", reached)
      .set("max_depth", max_depth);
  add_trials(job, rec, seconds, times);
  using numagraph::cli::count_of;
  using numagraph::cli::format;
  using numagraph::cli::share;
  const bool several = std::adjacent_find(roots.begin(), roots.end(), std::not_equal_to<>()) != roots.end();
  const std::string which = several ? format(" (the last of %zu roots)", roots.size()) : "";
  emit(job, rec,
       {format("BFS from vertex %s%s: reached %s in %s (max depth %lld)", shown_id(job, root_ids.back()).c_str(), which.c_str(),
               share(reached, g.n).c_str(), count_of(max_depth + 1, "level").c_str(),
               static_cast<long long>(max_depth))},
       {"reached", "max_depth"});
}

}  // namespace

Command bfs_command() {
  return {"bfs", "breadth-first search (direction-optimizing) over the ranks", [](CLI::App& app) {
            auto f = std::make_shared<BfsFlags>();
            add_graph_flags(app, f->graph);
            add_run_flags(app, f->run,
                          "write each vertex's depth from the last root (-1: unreached): FILE.csv/.tsv with a header "
                          "'vertex,depth', any other name 'id depth' lines");
            add_root_flags(app, f->roots);
            app.add_option("--alpha", f->bfs.alpha, "switch to bottom-up when frontier edges > unexplored / alpha (15)")
                ->check(CLI::PositiveNumber);
            app.add_option("--beta", f->bfs.beta, "switch back to top-down when frontier < n / beta vertices (18)")
                ->check(CLI::PositiveNumber);
            return std::function<void(MPI_Comm)>([f](MPI_Comm comm) { run_bfs(*f, comm); });
          }};
}

}  // namespace numagraph::dist::cli
