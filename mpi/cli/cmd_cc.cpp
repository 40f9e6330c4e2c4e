// numagraph-mpi cc: connected components over the ranks (weak for directed
// graphs; mpi/tool/components.hpp). Each component is reported by its member
// with the smallest dense id, in the user's ids.
#include <algorithm>
#include <memory>
#include <unordered_map>

#include "commands.hpp"
#include "components.hpp"
#include "components_gathered.hpp"
#include "agree.hpp"
#include "exchange.hpp"
#include "job.hpp"
#include "numagraph/graph/io.hpp"
#include "summary.hpp"

namespace numagraph::dist::cli {

namespace {

struct CcFlags {
  GraphFlags graph;
  RunFlags run;
  std::int64_t gather_limit = -1;  // -1: default_gather_limit(g)
};

void run_cc(const CcFlags& f, MPI_Comm comm) {
  Job job = start_job(comm, f.graph, f.run, "cc");
  const DistCsr& g = job.graph.csr;
  if (g.weighted)
    note_once(comm, job.graph.name + " has edge weights; cc does not use them (components depend only on which edges "
                                     "exist); sssp does");
  const std::int64_t gather_limit = f.gather_limit < 0 ? default_gather_limit(g) : f.gather_limit;
  StepTimes times;
  DistCcResult r;
  std::vector<double> seconds;
  for (int t = 0; t < f.run.trials; ++t) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    r = connected_components(g, gather_limit, times);
    seconds.push_back(max_all(MPI_Wtime() - t0, comm));
  }
  const ComponentSummary sum = summarize_components(g, r.labels);
  if (!f.run.output.empty()) {
    // Labels in the user's ids: each distinct label asked of its owner once.
    std::vector<std::uint64_t> distinct(r.labels.begin(), r.labels.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const std::vector<std::string> ids = user_ids_of(job.graph, distinct);
    const char sep = output_separator(f.run.output);
    write_values(job, f.run.output, "component", [&](std::int64_t v) {
      const auto at = std::lower_bound(distinct.begin(), distinct.end(), r.labels[static_cast<std::size_t>(v)]);
      const std::string& id = ids[static_cast<std::size_t>(at - distinct.begin())];
      return job.graph.named() ? io::csv_field_text(id, sep) : id;
    });
  }
  const std::string largest = user_id_of(job, sum.largest_label);
  profile::Record rec = base_record(job, "cc");
  // components.hpp: local union-find, then the contracted graph gathered or label rounds between ranks
  rec.set("variant", std::string("union-find+") + r.method)
      .set("gather_limit", gather_limit)
      .set("contracted_edges", r.contracted_edges)
      .set("num_components", sum.num_components)
      .set("largest_component", sum.largest_component)
      .set("rounds", r.rounds)
      .set("label_messages", sum_all(r.label_messages, comm));
  add_trials(job, rec, seconds, times);
  using numagraph::cli::count_of;
  using numagraph::cli::format;
  using numagraph::cli::share;
  emit(job, rec,
       {format("%s%s; the largest has %s (vertex %s among them)",
               count_of(sum.num_components, "connected component").c_str(), g.directed ? " (weak)" : "",
               share(sum.largest_component, g.n).c_str(), shown_id(job, largest).c_str())},
       {"num_components", "largest_component"});
}

}  // namespace

Command cc_command() {
  return {"cc", "connected components over the ranks (weak for directed graphs)", [](CLI::App& app) {
            auto f = std::make_shared<CcFlags>();
            add_graph_flags(app, f->graph);
            app.add_option("--gather-limit", f->gather_limit,
                           "after each rank links its own arcs, gather the ties between the ranks' components on "
                           "every rank when there are at most EDGES of them (default: the vertices over the "
                           "ranks, at least 65536), else run label rounds that keep each rank's memory at its "
                           "share; 0 always runs the rounds")
                ->type_name("EDGES")
                ->check(CLI::NonNegativeNumber);
            add_run_flags(app, f->run,
                          "write each vertex's component (its member with the smallest id, in your ids): "
                          "FILE.csv/.tsv with a header 'vertex,component', any other name 'id component' lines");
            return std::function<void(MPI_Comm)>([f](MPI_Comm comm) { run_cc(*f, comm); });
          }};
}

}  // namespace numagraph::dist::cli
