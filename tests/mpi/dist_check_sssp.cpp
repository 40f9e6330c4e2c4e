// dist-check-sssp: the distributed delta-stepping (mpi/tool/sssp.hpp) against
// the shared-memory numagraph::sssp on the same graph, from several roots.
// Every rank loads the whole graph as `numagraph` does, keeps its block
// (carve), and both kernels run; every vertex's distance must equal the
// shared kernel's bit for bit (+infinity where unreachable). Unweighted
// graphs are searched with weight 1 per arc, as the shared kernel does.
// Prints one JSON line on rank 0; exit status 1 on a mismatch.
//   mpirun -n 3 build/mpi/dist-check-sssp GRAPH [-s] [--roots N] [--trials N] [--delta D] [--arcs all|split]
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <variant>

#include "carve.hpp"
#include "exchange.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"
#include "sssp.hpp"

namespace {

using namespace numagraph;

struct Settings {
  int roots = 4, trials = 1;
  double delta = 0;
  dist::SsspArcs arcs = dist::SsspArcs::kAll;
};

int check(const Graph32& whole, const std::string& name, const Settings& s) {
  dist::DistCsr g = dist::carve(whole, MPI_COMM_WORLD, dist::ArcWork::kOut);
  const auto roots = kernels::pick_roots(whole, s.roots, kDefaultSeed);
  std::int64_t mismatches = 0, reached = 0, rounds = 0;
  double max_diff = 0, dist_s = 0, shared_s = 0, delta = 0, shared_delta = 0;
  dist::StepTimes times;
  SsspOptions o;
  o.delta = s.delta;
  for (const std::uint32_t root : roots) {
    dist::DistSsspResult r;
    dist::StepTimes fastest;
    double best = std::numeric_limits<double>::max();
    for (int t = 0; t < s.trials; ++t) {
      dist::StepTimes mine;
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      r = dist::sssp(g, root, o, mine, s.arcs);
      const double took = dist::max_all(MPI_Wtime() - t0, g.comm);
      if (took < best) {
        best = took;
        fastest = mine;
      }
    }
    dist_s += best;
    times.compute += fastest.compute;
    times.exchange += fastest.exchange;
    times.wait += fastest.wait;
    best = std::numeric_limits<double>::max();
    SsspResult shared;
    for (int t = 0; t < s.trials; ++t) {
      const profile::Timer timer;
      shared = numagraph::sssp(whole, root, o);
      best = std::min(best, timer.seconds());
    }
    shared_s += best;
    for (std::int64_t v = 0; v < g.local_n; ++v) {
      const double a = r.dist[v], b = shared.dist[g.first + v];
      if (a == b) {
        reached += std::isfinite(a);
        continue;
      }
      ++mismatches;
      max_diff = std::max(max_diff, std::isfinite(a) && std::isfinite(b) ? std::fabs(a - b)
                                                                         : std::numeric_limits<double>::infinity());
    }
    rounds = r.rounds;
    delta = r.delta;
    shared_delta = shared.delta;
  }
  mismatches = dist::sum_all(mismatches, g.comm);
  reached = dist::sum_all(reached, g.comm);
  max_diff = dist::max_all(max_diff, g.comm);
  const bool ok = mismatches == 0;
  const auto per_root = static_cast<double>(std::max<std::size_t>(1, roots.size()));
  const double compute = dist::max_all(times.compute, g.comm) / per_root,
               exchange = dist::max_all(times.exchange, g.comm) / per_root,
               wait = dist::max_all(times.wait, g.comm) / per_root;
  const std::int64_t ghosts = dist::sum_all(g.ghosts(), g.comm);
  if (g.rank == 0)
    std::printf(
        "{\"check\": \"sssp\", \"graph\": \"%s\", \"ranks\": %d, \"threads\": %d, \"vertices\": %lld, \"arcs\": %lld, "
        "\"directed\": %s, \"weighted\": %s, \"ghosts\": %lld, \"roots\": %zu, \"ok\": %s, \"mismatches\": %lld, "
        "\"max_diff\": %g, \"reached\": %lld, \"delta\": %.17g, \"shared_delta\": %.17g, \"arcs_per_round\": \"%s\", "
        "\"rounds\": %lld, \"dist_s\": %.6f, \"compute_s\": %.6f, \"exchange_s\": %.6f, \"wait_s\": %.6f, "
        "\"shared_s\": %.6f}\n",
        name.c_str(), g.ranks, omp_get_max_threads(), static_cast<long long>(g.n),
        static_cast<long long>(g.global_arcs), g.directed ? "true" : "false", g.weighted ? "true" : "false",
        static_cast<long long>(ghosts), roots.size(), ok ? "true" : "false", static_cast<long long>(mismatches),
        max_diff, static_cast<long long>(reached), delta, shared_delta,
        s.arcs == dist::SsspArcs::kAll ? "all" : "split", static_cast<long long>(rounds), dist_s / per_root, compute,
        exchange, wait, shared_s / per_root);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  CLI::App app{"distributed SSSP vs the shared-memory kernel"};
  std::string path;
  bool symmetrize = false;
  Settings s;
  app.add_option("graph", path, "graph file (any format numagraph reads)")->required();
  app.add_flag("-s,--symmetrize", symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_option("--roots", s.roots, "roots to search from (random, with out-arcs)")->check(CLI::PositiveNumber);
  app.add_option("--trials", s.trials, "runs of each kernel per root; the fastest counts (every *_s is a mean over "
                                       "roots; compute/exchange/wait: the slowest rank's)")
      ->check(CLI::PositiveNumber);
  app.add_option("--delta", s.delta, "bucket width for both kernels (default: the shared kernel's rule)")
      ->check(CLI::PositiveNumber);
  app.add_option("--arcs", s.arcs, "what a distributed round relaxes: all (default) or split (light arcs, then "
                                   "heavy ones once per bucket)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, dist::SsspArcs>{{"split", dist::SsspArcs::kLightThenHeavy}, {"all", dist::SsspArcs::kAll}}));
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
    rc = check(*whole, path, s);
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist-check-sssp: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
