// dist-check-bfs: the distributed BFS (mpi/tool/bfs.hpp) against the
// shared-memory numagraph::bfs on the same graph, from several roots.
// Every rank loads the whole graph as `numagraph` does, keeps its block
// (carve), and both kernels run. Checked on every vertex: the depths equal
// the shared kernel's; an unreached vertex has parent -1; the root is its own
// parent; every other reached vertex's parent is one level up and has an arc
// to it, which the parent's owner confirms (each rank sends (parent, child)
// pairs to the parents' owners, who look at their own depths and arcs). The
// step counts must equal the flat kernel's, whose switching rule the
// distributed one follows. Prints one JSON line on rank 0; exit status 1 on
// a mismatch.
//   mpirun -n 3 build/mpi/dist-check-bfs GRAPH [-s] [--roots N] [--trials N]
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <variant>

#include "bfs.hpp"
#include "carve.hpp"
#include "exchange.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"

namespace {

using namespace numagraph;

// A reached vertex and the parent the distributed search gave it, sent to
// the parent's owner to confirm.
struct Edge {
  std::int64_t parent;
  std::int64_t child;
  std::int32_t child_depth;
  std::int32_t unused;
};

// Tree errors of one search: checked by each parent's owner.
std::int64_t bad_tree_edges(const dist::DistCsr& g, std::int64_t root, const dist::DistBfsResult& r) {
  std::int64_t bad = 0;
  std::vector<std::vector<Edge>> ask(static_cast<std::size_t>(g.ranks));
  for (std::int64_t v = 0; v < g.local_n; ++v) {
    const std::int64_t p = r.parent[v], global = g.first + v;
    const std::int32_t d = r.depth[v];
    if (d < 0 || p < 0) {
      bad += (d < 0) != (p < 0);  // reached in one array, not the other
      continue;
    }
    if (global == root) {
      bad += p != root || d != 0;
      continue;
    }
    if (p >= g.n || d == 0) {
      ++bad;
      continue;
    }
    ask[static_cast<std::size_t>(g.blocks.owner(static_cast<std::uint64_t>(p)))].push_back({p, global, d, 0});
  }
  const dist::Received<Edge> got = dist::exchange(ask, g.comm, "the BFS tree check");
  for (const Edge& e : got.items) {
    const std::int64_t u = e.parent - g.first;
    if (!g.owns(static_cast<std::uint64_t>(e.parent)) || r.depth[u] != e.child_depth - 1) {
      ++bad;
      continue;
    }
    bool arc = false;
    for (eid_t k = g.out.offsets[u]; k < g.out.offsets[u + 1] && !arc; ++k)
      arc = static_cast<std::int64_t>(g.global_of(g.out.neighbors[k])) == e.child;
    bad += !arc;
  }
  return bad;
}

int check(const Graph32& whole, const std::string& name, int num_roots, int trials) {
  dist::DistCsr g = dist::carve(whole, MPI_COMM_WORLD);
  const auto roots = kernels::pick_roots(whole, num_roots, kDefaultSeed);
  std::int64_t depth_mismatches = 0, bad_parents = 0, step_mismatches = 0, reached = 0;
  double dist_s = 0, shared_s = 0;
  dist::StepTimes times;
  int td = 0, bu = 0, flat_td = 0, flat_bu = 0;
  for (const std::uint32_t root : roots) {
    dist::DistBfsResult r;
    dist::StepTimes fastest;
    double best = std::numeric_limits<double>::max();
    for (int t = 0; t < trials; ++t) {
      dist::StepTimes mine;
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      r = dist::bfs(g, root, BfsOptions{}, mine);
      const double s = dist::max_all(MPI_Wtime() - t0, g.comm);
      if (s < best) {
        best = s;
        fastest = mine;
      }
    }
    dist_s += best;
    times.compute += fastest.compute;
    times.exchange += fastest.exchange;
    times.wait += fastest.wait;
    best = std::numeric_limits<double>::max();
    BfsResult<std::uint32_t> shared;
    for (int t = 0; t < trials; ++t) {
      const profile::Timer timer;
      shared = numagraph::bfs(whole, root);
      best = std::min(best, timer.seconds());
    }
    shared_s += best;
    const auto flat = kernels::bfs_direction_optimizing(whole, root);
    for (std::int64_t v = 0; v < g.local_n; ++v) {
      depth_mismatches += r.depth[v] != shared.depth[g.first + v];
      reached += r.depth[v] >= 0;
    }
    bad_parents += bad_tree_edges(g, root, r);
    step_mismatches += r.top_down_steps != flat.top_down_steps || r.bottom_up_steps != flat.bottom_up_steps;
    td = r.top_down_steps;
    bu = r.bottom_up_steps;
    flat_td = flat.top_down_steps;
    flat_bu = flat.bottom_up_steps;
  }
  depth_mismatches = dist::sum_all(depth_mismatches, g.comm);
  bad_parents = dist::sum_all(bad_parents, g.comm);
  reached = dist::sum_all(reached, g.comm);
  step_mismatches = dist::max_all(step_mismatches, g.comm);
  const bool ok = depth_mismatches == 0 && bad_parents == 0 && step_mismatches == 0;
  const auto per_root = static_cast<double>(std::max<std::size_t>(1, roots.size()));
  const double compute = dist::max_all(times.compute, g.comm) / per_root,
               exchange = dist::max_all(times.exchange, g.comm) / per_root,
               wait = dist::max_all(times.wait, g.comm) / per_root;
  const std::int64_t ghosts = dist::sum_all(g.ghosts(), g.comm);
  if (g.rank == 0)
    std::printf(
        "{\"check\": \"bfs\", \"graph\": \"%s\", \"ranks\": %d, \"threads\": %d, \"vertices\": %lld, \"arcs\": %lld, "
        "\"directed\": %s, \"ghosts\": %lld, \"roots\": %zu, \"ok\": %s, \"depth_mismatches\": %lld, "
        "\"bad_parents\": %lld, \"step_mismatches\": %lld, \"max_diff\": %lld, \"reached\": %lld, "
        "\"top_down_steps\": %d, \"bottom_up_steps\": %d, \"flat_top_down_steps\": %d, \"flat_bottom_up_steps\": %d, "
        "\"dist_s\": %.6f, \"compute_s\": %.6f, \"exchange_s\": %.6f, \"wait_s\": %.6f, \"shared_s\": %.6f}\n",
        name.c_str(), g.ranks, omp_get_max_threads(), static_cast<long long>(g.n),
        static_cast<long long>(g.global_arcs), g.directed ? "true" : "false", static_cast<long long>(ghosts),
        roots.size(), ok ? "true" : "false", static_cast<long long>(depth_mismatches),
        static_cast<long long>(bad_parents), static_cast<long long>(step_mismatches),
        static_cast<long long>(depth_mismatches + bad_parents), static_cast<long long>(reached), td, bu, flat_td,
        flat_bu, dist_s / per_root, compute, exchange, wait, shared_s / per_root);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  CLI::App app{"distributed BFS vs the shared-memory kernel"};
  std::string path;
  bool symmetrize = false;
  int roots = 4, trials = 1;
  app.add_option("graph", path, "graph file (any format numagraph reads)")->required();
  app.add_flag("-s,--symmetrize", symmetrize, "treat edges as undirected (add reverse edges)");
  app.add_option("--roots", roots, "roots to search from (random, with out-arcs)")->check(CLI::PositiveNumber);
  app.add_option("--trials", trials, "runs of each kernel per root; the fastest counts (every *_s is a mean over "
                                     "roots; compute/exchange/wait: the slowest rank's)")
      ->check(CLI::PositiveNumber);
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
    rc = check(*whole, path, roots, trials);
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist-check-bfs: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
