// dist-check-pr: the distributed PageRank (mpi/tool/pagerank.hpp) against the
// shared-memory numagraph::pagerank, Jacobi variant, on the same graph and
// options. Every rank loads the whole graph as `numagraph` does and keeps its
// block (carve); the scores must agree within --max-diff per vertex and the
// iteration counts must be equal. A run forced to tile checks the tiled copy
// read from the columns against the one sorted from the rows (bit for bit). --personalization / --dangling give a
// random distribution (fixed seed, some vertices 0), handed to the shared
// kernel whole and to the distributed one as each rank's normalized slice.
// Prints one JSON line on rank 0; exit status 1 on a mismatch.
//   mpirun -n 3 build/mpi/dist-check-pr GRAPH [-s] [--networkx] [--unweighted] [--personalization] ...
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <variant>

#include "carve.hpp"
#include "ghost_targets.hpp"
#include "exchange.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"
#include "pagerank.hpp"

namespace {

using namespace numagraph;

struct Args {
  std::string path;
  bool symmetrize = false, networkx = false, unweighted = false, personalization = false, dangling = false;
  int iterations = 0;        // 0: the CLI's default (20; 100 with --networkx)
  double tolerance = -1;     // < 0: the CLI's default (1e-4; 1e-6 with --networkx)
  double damping = 0.85;
  double max_diff = 1e-9;
  int trials = 1;
};

// n values in [0, 1), about a fifth of them 0; the same on every rank.
std::vector<double> random_distribution(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> values(static_cast<std::size_t>(n));
  for (auto& x : values) {
    x = u(rng);
    if (x < 0.2) x = 0;
  }
  return values;
}

// My block of a distribution, divided by its sum over the whole graph.
std::vector<double> normalized_slice(const std::vector<double>& whole, const dist::DistCsr& g, const char* what) {
  if (whole.empty()) return {};
  const double sum = kernels::distribution_sum(whole, g.n, what);
  std::vector<double> mine(static_cast<std::size_t>(g.local_n));
  for (std::int64_t v = 0; v < g.local_n; ++v) mine[v] = whole[g.first + v] / sum;
  return mine;
}

int check(const Graph32& whole, const Args& a) {
  PageRankOptions so;
  so.variant = PageRankVariant::kJacobi;
  so.networkx = a.networkx;
  so.damping = a.damping;
  so.max_iterations = a.iterations > 0 ? a.iterations : a.networkx ? 100 : 20;
  so.tolerance = a.tolerance >= 0 ? a.tolerance : a.networkx ? 1e-6 : 1e-4;
  so.use_weights = !a.unweighted;
  if (a.personalization) so.personalization = random_distribution(whole.num_vertices(), 1);
  if (a.dangling) so.dangling = random_distribution(whole.num_vertices(), 2);

  dist::DistCsr g = dist::carve(whole, MPI_COMM_WORLD, dist::ArcWork::kIn);
  dist::DistPageRankOptions o;
  o.damping = so.damping;
  o.max_iterations = so.max_iterations;
  o.tolerance = so.tolerance;
  o.networkx = so.networkx;
  o.use_weights = so.use_weights;
  o.personalization = normalized_slice(so.personalization, g, "personalization");
  o.dangling = normalized_slice(so.dangling, g, "dangling distribution");
  const std::string problem = dist::pagerank_input_problem(g, o);
  if (dist::any_all(!problem.empty(), g.comm)) {
    if (!problem.empty()) std::fprintf(stderr, "dist-check-pr: rank %d: %s\n", g.rank, problem.c_str());
    return 2;
  }
  dist::DistPageRankResult r;
  dist::StepTimes times;
  double dist_s = std::numeric_limits<double>::max();
  for (int t = 0; t < a.trials; ++t) {
    times = {};
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    r = dist::pagerank(g, o, times);
    dist_s = std::min(dist_s, dist::max_all(MPI_Wtime() - t0, g.comm));
  }

  // The tiled copy read from the columns (ghost targets, as numagraph-mpi
  // loads for pr) against the copy sorted from the rows, both forced to
  // tile: the same tiles word for word, so the same scores bit for bit.
  dist::DistPageRankOptions tiny_tiles = o;
  tiny_tiles.cache_block_bytes = 4096;
  dist::StepTimes unused;
  const dist::DistPageRankResult by_rows = dist::pagerank(g, tiny_tiles, unused);
  dist::add_ghost_targets(g);
  const dist::DistPageRankResult by_columns = dist::pagerank(g, tiny_tiles, unused);
  bool columns_same = by_rows.iterations == by_columns.iterations && by_rows.cache_segments == by_columns.cache_segments;
  for (std::int64_t v = 0; v < g.local_n; ++v) columns_same = columns_same && by_rows.scores[v] == by_columns.scores[v];
  columns_same = !dist::any_all(!columns_same, g.comm);

  double shared_s = std::numeric_limits<double>::max();
  PageRankResult shared;
  for (int t = 0; t < a.trials; ++t) {
    shared = PageRankResult();
    const profile::Timer timer;
    shared = numagraph::pagerank(whole, so);
    shared_s = std::min(shared_s, timer.seconds());
  }
  double diff = 0, sum = 0;
  for (std::int64_t v = 0; v < g.local_n; ++v) {
    diff = std::max(diff, std::fabs(r.scores[v] - shared.scores[g.first + v]));
    sum += r.scores[v];
  }
  diff = dist::max_all(diff, g.comm);
  sum = dist::sum_all(sum, g.comm);
  const bool ok = diff <= a.max_diff && r.iterations == shared.iterations && columns_same;
  const double compute = dist::max_all(times.compute, g.comm), exchange = dist::max_all(times.exchange, g.comm),
               wait = dist::max_all(times.wait, g.comm);
  if (g.rank == 0)
    std::printf(
        "{\"check\": \"pr\", \"graph\": \"%s\", \"ranks\": %d, \"threads\": %d, \"vertices\": %lld, \"arcs\": %lld, "
        "\"directed\": %s, \"networkx\": %s, \"weights_used\": %s, \"personalized\": %s, \"dangling\": %s, "
        "\"double_contributions\": %s, \"ok\": %s, \"tiles_from_columns_same\": %s, \"tiled_segments\": %d, "
        "\"max_diff\": %.3e, \"iterations\": %d, "
        "\"expected_iterations\": %d, \"last_change\": %.17g, \"expected_last_change\": %.17g, \"score_sum\": %.17g, "
        "\"dist_s\": %.6f, \"compute_s\": %.6f, \"exchange_s\": %.6f, \"wait_s\": %.6f, \"shared_s\": %.6f, "
        "\"shared_variant\": \"%s\"}\n",
        a.path.c_str(), g.ranks, omp_get_max_threads(), static_cast<long long>(g.n),
        static_cast<long long>(g.global_arcs), g.directed ? "true" : "false", o.networkx ? "true" : "false",
        r.weights_used ? "true" : "false", a.personalization ? "true" : "false", a.dangling ? "true" : "false",
        r.double_contributions ? "true" : "false", ok ? "true" : "false", columns_same ? "true" : "false",
        by_columns.cache_segments, diff, r.iterations, shared.iterations,
        r.last_change, shared.last_change, sum, dist_s, compute, exchange, wait, shared_s,
        kernels::to_string(shared.variant));
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  CLI::App app{"distributed PageRank vs the shared-memory Jacobi kernel"};
  Args a;
  app.add_option("graph", a.path, "graph file (any format numagraph reads)")->required();
  app.add_flag("-s,--symmetrize", a.symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_flag("--networkx", a.networkx, "NetworkX's model (tolerance 1e-6 and 100 iterations unless given)");
  app.add_flag("--unweighted", a.unweighted, "ignore the edge weights");
  app.add_flag("--personalization", a.personalization, "a random personalization (seed 1)");
  app.add_flag("--dangling", a.dangling, "a random dangling distribution (seed 2; needs --networkx)");
  app.add_option("-i,--iterations", a.iterations, "maximum iterations");
  app.add_option("--tolerance", a.tolerance, "stop when the L1 change is below this");
  app.add_option("--damping", a.damping, "damping factor");
  app.add_option("--max-diff", a.max_diff, "largest per-vertex score difference accepted (1e-9)");
  app.add_option("--trials", a.trials, "runs of each kernel; the fastest is reported")->check(CLI::PositiveNumber);
  int rc = 0;
  try {
    app.parse(argc, argv);
    BuildOptions build;  // as `numagraph` builds a file's graph by default
    build.symmetrize = a.symmetrize;
    build.drop_self_loops = true;
    build.dedupe = true;
    AnyGraph any = load_graph(a.path, ReadOptions{}, build);
    const auto* whole = std::get_if<Graph32>(&any);
    if (!whole) throw UsageError(a.path + " needs 64-bit ids; the checks take graphs below 2^32 vertices");
    rc = check(*whole, a);
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist-check-pr: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
