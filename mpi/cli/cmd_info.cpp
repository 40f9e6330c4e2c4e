// numagraph-mpi info FILE: load the graph over the ranks and report its size,
// the partition (vertices, arcs and ghosts per rank) and the load's times and
// throughput.
#include <memory>

#include "commands.hpp"
#include "exchange.hpp"
#include "job.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

Command info_command() {
  return {"info", "load a graph over the ranks as stored (nothing dropped): sizes, partition, load times and throughput", [](CLI::App& app) {
            auto g = std::make_shared<GraphFlags>();
            auto r = std::make_shared<RunFlags>();
            add_graph_flags(app, *g, true);
            app.add_flag("--json", r->json, "print one JSON object (rank 0) instead of a table");
            app.add_option("-t,--threads", r->threads, "OpenMP threads per rank")->check(CLI::Range(0, 4096));
            return std::function<void(MPI_Comm)>([g, r](MPI_Comm comm) {
              Job job = start_job(comm, *g, *r, "info");
              profile::Record rec = base_record(job, "info");
              const double read_s = max_all(job.graph.times.read, comm);
              const auto bytes = sum_all(job.graph.times.bytes, comm);
              rec.set("read_mb_per_s", read_s > 0 ? static_cast<double>(bytes) / 1e6 / read_s : 0.0);
              const std::int64_t ghosts = sum_all(job.graph.csr.ghosts(), comm);
              rec.set("ghosts", ghosts);
              add_per_rank(job, rec, StepTimes{});
              using numagraph::cli::count_of;
              using numagraph::cli::format;
              const DistCsr& c = job.graph.csr;
              std::vector<std::string> lines{format(
                  "%s: %s and %s over %s, %s", job.graph.name.c_str(), count_of(c.n, "vertex", "vertices").c_str(),
                  count_of(c.directed ? c.global_arcs : (c.global_arcs + job.graph.self_loops_kept) / 2,
                           c.directed ? "arc" : "edge")
                      .c_str(),
                  count_of(job.ranks, "rank").c_str(), count_of(ghosts, "ghost vertex", "ghost vertices").c_str())};
              emit(job, rec, lines, {});
            });
          }};
}

}  // namespace numagraph::dist::cli
