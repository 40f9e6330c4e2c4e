// numagraph-mpi sssp: delta-stepping single-source shortest paths over the ranks (mpi/tool/sssp.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "agree.hpp"
#include "commands.hpp"
#include "exchange.hpp"
#include "job.hpp"
#include "roots_flags.hpp"
#include "sssp.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

namespace {

struct SsspFlags {
  GraphFlags graph;
  RunFlags run;
  RootFlags roots;
  kernels::SsspOptions sssp;
};

std::string number_text(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

void run_sssp(const SsspFlags& f, MPI_Comm comm) {
  Job job = start_job(comm, f.graph, f.run, "sssp");
  const DistCsr& g = job.graph.csr;
  agree(comm, [&] {
    const std::int64_t m = g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]);
    for (std::int64_t j = 0; j < m && g.weighted; ++j)
      if (g.out.weights[j] < 0)
        throw InputError(job.graph.name, 0,
                         "negative edge weight " + number_text(g.out.weights[j]) +
                             ": shortest paths need weights >= 0 (delta-stepping, like Dijkstra)");
  });
  const auto roots = pick_roots(job, f.roots.source, f.roots.sources > 0 ? f.roots.sources : f.run.trials);
  StepTimes times;
  DistSsspResult r;
  std::vector<double> seconds;
  for (const std::uint64_t root : roots) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    r = sssp(g, static_cast<std::int64_t>(root), f.sssp, times);
    seconds.push_back(max_all(MPI_Wtime() - t0, comm));
  }
  std::int64_t reached = 0;
  double farthest = 0;
  for (double d : r.dist)
    if (std::isfinite(d)) {
      ++reached;
      farthest = std::max(farthest, d);
    }
  reached = sum_all(reached, comm);
  farthest = max_all(farthest, comm);
  if (!f.run.output.empty())
    write_values(job, f.run.output, "distance", [&](std::int64_t v) { return number_text(r.dist[static_cast<std::size_t>(v)]); });
  profile::Record rec = base_record(job, "sssp");
  std::vector<std::string> root_ids;
  for (std::uint64_t root : roots) root_ids.push_back(user_id_of(job, root));
  rec.raw("roots", ids_json(job, root_ids));
  rec.set("delta", r.delta).set("rounds", r.rounds).set("reached", reached).set("max_distance", farthest);
  add_trials(job, rec, seconds, times);
  using numagraph::cli::format;
  using numagraph::cli::share;
  const bool several = std::adjacent_find(roots.begin(), roots.end(), std::not_equal_to<>()) != roots.end();
  const std::string which = several ? format(" (the last of %zu roots)", roots.size()) : "";
  emit(job, rec,
       {format("shortest paths from vertex %s%s: reached %s, farthest at distance %.6g",
               shown_id(job, root_ids.back()).c_str(), which.c_str(), share(reached, g.n).c_str(), farthest)},
       {"reached", "max_distance"});
}

}  // namespace

Command sssp_command() {
  return {"sssp", "single-source shortest paths (delta-stepping) over the ranks", [](CLI::App& app) {
            auto f = std::make_shared<SsspFlags>();
            add_graph_flags(app, f->graph);
            add_run_flags(app, f->run,
                          "write each vertex's distance from the last root (inf: unreachable): FILE.csv/.tsv with a "
                          "header 'vertex,distance', any other name 'id distance' lines");
            add_root_flags(app, f->roots);
            app.add_option("--delta", f->sssp.delta,
                           "bucket width (default: chosen from the weights and threads, as numagraph sssp does)")
                ->check(CLI::PositiveNumber);
            return std::function<void(MPI_Comm)>([f](MPI_Comm comm) { run_sssp(*f, comm); });
          }};
}

}  // namespace numagraph::dist::cli
