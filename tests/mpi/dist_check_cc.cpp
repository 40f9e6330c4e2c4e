// dist-check-cc: the distributed connected components (mpi/tool/components.hpp)
// against the shared-memory numagraph::connected_components on the same graph.
// Every rank loads the whole graph as `numagraph` does, keeps its block
// (carve), and both kernels run; the partitions must be equal (the shared
// labels mapped to each component's smallest member must equal the
// distributed labels, which are that member by construction), and so must
// the component count and the largest component's size. Both ways of tying
// the ranks' local components are checked: gathering the contracted graph
// (the default limit) and the label rounds (limit 0, and limit 1, where the
// contracted graph is built and found too large). Prints one JSON line
// on rank 0; exit status 1 on a mismatch.
//   mpirun -n 3 build/mpi/dist-check-cc GRAPH [-s] [--trials N]
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <variant>

#include "carve.hpp"
#include "components.hpp"
#include "components_gathered.hpp"
#include "exchange.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/cc/components.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"

namespace {

using namespace numagraph;

int check(const Graph32& whole, const std::string& name, int trials) {
  dist::DistCsr g = dist::carve(whole, MPI_COMM_WORLD);
  dist::DistCcResult r, by_gathering;
  dist::StepTimes times;
  double dist_s = std::numeric_limits<double>::max(), gathered_s = std::numeric_limits<double>::max();
  for (int t = 0; t < trials; ++t) {
    times = {};
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    r = dist::connected_components(g, 0, times);
    dist_s = std::min(dist_s, dist::max_all(MPI_Wtime() - t0, g.comm));
  }
  for (int t = 0; t < trials; ++t) {
    dist::StepTimes unused;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    by_gathering = dist::connected_components(g, dist::default_gather_limit(g), unused);
    gathered_s = std::min(gathered_s, dist::max_all(MPI_Wtime() - t0, g.comm));
  }
  // A limit below the contracted graph's size: built, refused, then the rounds.
  dist::StepTimes unused;
  const dist::DistCcResult refused = dist::connected_components(g, 1, unused);
  const dist::ComponentSummary summary = dist::summarize_components(g, r.labels);

  double shared_s = std::numeric_limits<double>::max();
  CcResult<std::uint32_t> shared;
  for (int t = 0; t < trials; ++t) {
    const profile::Timer timer;
    shared = numagraph::connected_components(whole);
    shared_s = std::min(shared_s, timer.seconds());
  }
  const std::int64_t n = whole.num_vertices();
  std::vector<std::uint32_t> smallest(static_cast<std::size_t>(n), std::numeric_limits<std::uint32_t>::max());
  for (std::int64_t v = 0; v < n; ++v)
    smallest[shared.labels[v]] = std::min(smallest[shared.labels[v]], static_cast<std::uint32_t>(v));
  std::vector<std::int64_t> size(static_cast<std::size_t>(n), 0);
  for (std::int64_t v = 0; v < n; ++v) ++size[smallest[shared.labels[v]]];
  std::int64_t components = 0, largest = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    components += size[v] > 0;
    largest = std::max(largest, size[v]);
  }
  std::int64_t mismatches = 0;
  for (std::int64_t v = 0; v < g.local_n; ++v) {
    mismatches += r.labels[v] != smallest[shared.labels[g.first + v]];
    mismatches += by_gathering.labels[v] != smallest[shared.labels[g.first + v]];
    mismatches += refused.labels[v] != smallest[shared.labels[g.first + v]];
  }
  mismatches = dist::sum_all(mismatches, g.comm);
  const std::int64_t messages = dist::sum_all(r.label_messages, g.comm);
  const bool ok = mismatches == 0 && summary.num_components == components && summary.largest_component == largest;
  const double compute = dist::max_all(times.compute, g.comm), exchange = dist::max_all(times.exchange, g.comm),
               wait = dist::max_all(times.wait, g.comm);
  const std::int64_t ghosts = dist::sum_all(g.ghosts(), g.comm);
  if (g.rank == 0)
    std::printf(
        "{\"check\": \"cc\", \"graph\": \"%s\", \"ranks\": %d, \"threads\": %d, \"vertices\": %lld, \"arcs\": %lld, "
        "\"directed\": %s, \"ghosts\": %lld, \"ok\": %s, \"mismatches\": %lld, \"num_components\": %lld, "
        "\"expected_components\": %lld, \"largest_component\": %lld, \"expected_largest\": %lld, \"rounds\": %d, "
        "\"label_messages\": %lld, \"gathered_method\": \"%s\", \"contracted_edges\": %lld, \"gathered_s\": %.6f, "
        "\"dist_s\": %.6f, \"compute_s\": %.6f, \"exchange_s\": %.6f, \"wait_s\": %.6f, "
        "\"shared_s\": %.6f}\n",
        name.c_str(), g.ranks, omp_get_max_threads(), static_cast<long long>(g.n),
        static_cast<long long>(g.global_arcs), g.directed ? "true" : "false", static_cast<long long>(ghosts),
        ok ? "true" : "false", static_cast<long long>(mismatches), static_cast<long long>(summary.num_components),
        static_cast<long long>(components), static_cast<long long>(summary.largest_component),
        static_cast<long long>(largest), r.rounds, static_cast<long long>(messages), by_gathering.method,
        static_cast<long long>(by_gathering.contracted_edges), gathered_s, dist_s, compute, exchange, wait,
        shared_s);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  CLI::App app{"distributed CC vs the shared-memory kernel"};
  std::string path;
  bool symmetrize = false;
  int trials = 1;
  app.add_option("graph", path, "graph file (any format numagraph reads)")->required();
  app.add_flag("-s,--symmetrize", symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_option("--trials", trials, "runs of each kernel; the fastest is reported")->check(CLI::PositiveNumber);
  int rc = 0;
  try {
    app.parse(argc, argv);
    BuildOptions build;  // as `numagraph` builds a file's graph by default
    build.symmetrize = symmetrize;
    build.drop_self_loops = true;
    build.dedupe = true;
    AnyGraph any = load_graph(path, ReadOptions{}, build);
    const auto* whole = std::get_if<Graph32>(&any);
    if (!whole) throw UsageError(path + " needs 64-bit ids; the checks take graphs below 2^32 vertices");
    rc = check(*whole, path, trials);
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist-check-cc: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
