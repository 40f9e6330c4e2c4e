// numagraph-graph500: the Graph500 BFS benchmark over MPI.
//   mpirun -np P numagraph-graph500 --scale S [--edge-factor 16] [--roots 64]
//          [--share none|in|all] [--allgather flat|leader|parallel] [--summary-bits B] ...
// Generates the Kronecker graph in parallel (the same graph as
// `numagraph bfs --kron S`), builds the 1-D partitioned CSR, runs the
// distributed direction-optimizing BFS from NBFS roots, validates every tree
// and prints the Graph500 result block (or one JSON record with --json),
// with the BFS time split into phases (phase_times.hpp).
// docs/graph500.md has the mpirun recipes and measured figures.
#include <mpi.h>
#include <sched.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comm.hpp"
#include "dist_bfs.hpp"
#include "dist_graph.hpp"
#include "dist_validate.hpp"
#include "graph500_report.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/profile_file.hpp"
#include "numagraph/profile/sampler.hpp"
#include "numagraph/profile/source.hpp"
#include "numagraph/util/atomic_file.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {
namespace {

struct Options {
  GeneratorOptions gen;
  int roots = 64;
  std::int64_t source = -1;
  std::uint64_t seed = kDefaultSeed;
  std::string share = "none";
  std::string allgather = "flat";
  bool allgather_given = false;  // --allgather was on the command line
  bool parallel_allgather = false;
  int summary_bits = 256;
  double alpha = 15, beta = 18;
  int threads = 0;
  int ranks_per_node = 0;
  bool no_validate = false;
  bool json = false;
  std::string output;
  std::string profile;  // --profile FILE: each rank's profile of the BFS runs
  int profile_interval_ms = numagraph::profile::kDefaultIntervalMs;
  std::string command_line;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("--scale", o.gen.scale, "log2 of the number of vertices (SCALE), 1..32")->required();
  app.add_option("--edge-factor", o.gen.edge_factor, "edges per vertex (default 16)")->check(CLI::Range(1, 1 << 20));
  app.add_option("--roots", o.roots, "number of BFS roots, NBFS (default 64)")->check(CLI::Range(1, 1 << 20));
  app.add_option("--source", o.source, "run one BFS from this vertex instead of --roots random ones")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--seed", o.seed, "seed for the random roots (default 27491095, as numagraph bfs)");
  app.add_option("--graph-seed", o.gen.seed, "generator seed (default 27491095, as numagraph --kron)");
  app.add_option("--share", o.share, "share frontier bitmaps inside a node: none, in (in_queue) or all (default none)")
      ->check(CLI::IsMember({"none", "in", "all"}));
  app.add_option("--allgather", o.allgather,
                 "frontier allgather of private bitmaps: flat (one allgather over all ranks), leader (node leaders "
                 "gather, exchange, broadcast) or parallel (every rank of a node at once, by node rank); default flat")
      ->check(CLI::IsMember({"flat", "leader", "parallel"}));
  app.add_flag("--parallel-allgather", o.parallel_allgather, "the same as --allgather parallel");
  app.add_option("--summary-bits", o.summary_bits, "vertices per summary-bitmap bit, power of two in 64..4096 (256)");
  app.add_option("--alpha", o.alpha, "go bottom-up when frontier edges > unexplored edges / alpha (15)");
  app.add_option("--beta", o.beta, "go back top-down when the frontier < n / beta vertices (18)");
  app.add_option("-t,--threads", o.threads, "OpenMP threads per rank (default: the rank's cores / ranks sharing them)")
      ->check(CLI::Range(0, 4096));
  app.add_option("--ranks-per-node", o.ranks_per_node,
                 "treat every N ranks of a machine as one node (tests the multi-node paths on one machine)")
      ->check(CLI::Range(0, 1 << 20));
  app.add_flag("--no-validate", o.no_validate, "skip the validation of the BFS trees");
  app.add_flag("--json", o.json, "print one JSON record instead of the Graph500 result block");
  app.add_option("--output", o.output, "write 'id depth' per vertex for the last root (-1: unreached)");
  app.add_option("--profile", o.profile,
                 "sample counters, NUMA traffic and energy over the BFS runs with their phases (levels, compute, "
                 "communication, direction switch) into FILE, one per rank (FILE.rankN.json beyond one rank); "
                 "docs/profiling.md")
      ->type_name("FILE");
  app.add_option("--profile-interval", o.profile_interval_ms, "--profile's sampling interval, 1 to 1000 ms (10)")
      ->type_name("MS")
      ->check(CLI::Range(1, 1000));
}

// Argument checks every rank makes identically, before any communication.
void check_options(const Options& o) {
  if (o.gen.scale < 1 || o.gen.scale > 32)
    throw UsageError("--scale must be in 1..32 (got " + std::to_string(o.gen.scale) + ")");
  const int b = o.summary_bits;
  if (b < 64 || b > 4096 || (b & (b - 1)) != 0)
    throw UsageError("--summary-bits must be a power of two in 64..4096 (got " + std::to_string(b) + ")");
  if (o.source >= (std::int64_t{1} << o.gen.scale))
    throw UsageError("--source " + std::to_string(o.source) + " is not a vertex (ids 0.." +
                     std::to_string((std::int64_t{1} << o.gen.scale) - 1) + ")");
  if (!(o.alpha > 0) || !(o.beta > 0)) throw UsageError("--alpha and --beta must be positive");
  if (o.parallel_allgather && o.allgather_given && o.allgather != "parallel")
    throw UsageError("--parallel-allgather contradicts --allgather " + o.allgather + ": give one of them");
}

Allgather allgather_mode(const Options& o) {
  if (o.parallel_allgather || o.allgather == "parallel") return Allgather::kParallel;
  return o.allgather == "leader" ? Allgather::kLeader : Allgather::kFlat;
}

// Every rank's phase times of one BFS (plus its whole BFS time, last) summed
// and maximised over the ranks, into the report. Collective.
void add_phases(const Layout& l, const PhaseTimes& times, double bfs_s, Report& rep) {
  std::array<double, kNumPhases + 1> mine{}, sum{}, max{};
  std::copy(times.s.begin(), times.s.end(), mine.begin());
  mine[kNumPhases] = bfs_s;
  check(MPI_Allreduce(mine.data(), sum.data(), kNumPhases + 1, MPI_DOUBLE, MPI_SUM, l.world), "MPI_Allreduce");
  check(MPI_Allreduce(mine.data(), max.data(), kNumPhases + 1, MPI_DOUBLE, MPI_MAX, l.world), "MPI_Allreduce");
  PhaseSample p;
  for (std::size_t i = 0; i < kNumPhases; ++i) {
    p.mean[i] = sum[i] / l.size;
    p.max[i] = max[i];
  }
  p.rank_mean_s = sum[kNumPhases] / l.size;
  rep.phases.push_back(p);
}

// Threads per rank when neither --threads nor OMP_NUM_THREADS says: the cores
// this rank may run on, divided among the node's ranks bound to the same set.
int default_threads(const Layout& l) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  const int cpus = CPU_COUNT(&set);
  std::uint64_t h = 1469598103934665603ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&set);
  for (std::size_t i = 0; i < sizeof(set); ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  std::vector<std::uint64_t> all(static_cast<std::size_t>(l.node_size));
  check(MPI_Allgather(&h, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, l.node), "MPI_Allgather");
  int same = 0;
  for (std::uint64_t x : all) same += x == h;
  return std::max(1, cpus / std::max(1, same));
}

// The same roots as kernels::pick_roots on the whole graph: the same stream,
// skipping vertices without edges and repeats.
std::vector<std::uint64_t> pick_roots(const Layout& l, const DistGraph& g, std::int64_t count, std::uint64_t seed) {
  const std::int64_t bw = g.part.block_words();
  std::vector<std::uint64_t> has_edges(static_cast<std::size_t>(g.part.padded_words()), 0);
  std::uint64_t* mine = has_edges.data() + l.my_block * bw;
  for (std::int64_t v = 0; v < g.local_n; ++v)
    if (g.degree(v) > 0) mine[v >> 6] |= 1ULL << (v & 63);
  std::vector<int> counts(static_cast<std::size_t>(l.size), static_cast<int>(bw)), displs(counts.size());
  for (int r = 0; r < l.size; ++r) displs[r] = static_cast<int>(l.block_of_rank[r] * bw);
  check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, has_edges.data(), counts.data(), displs.data(),
                       MPI_UINT64_T, l.world),
        "MPI_Allgatherv(degrees)");
  std::int64_t candidates = 0;
  for (std::uint64_t w : has_edges) candidates += std::popcount(w);
  if (candidates == 0) throw UsageError("the graph has no edges: there is no root to start from");
  count = std::min(count, candidates);
  std::vector<std::uint64_t> roots, taken(has_edges.size(), 0);
  const auto n = static_cast<std::uint64_t>(g.part.n);
  for (std::uint64_t i = 0; static_cast<std::int64_t>(roots.size()) < count; ++i) {
    const std::uint64_t v = kernels::root_stream(seed, i) % n;
    const std::uint64_t bit = 1ULL << (v & 63);
    if (!(has_edges[v >> 6] & bit) || (taken[v >> 6] & bit)) continue;
    taken[v >> 6] |= bit;
    roots.push_back(v);
  }
  return roots;
}

// One "id depth" line per vertex, written to a temporary file renamed over
// `path` when complete (util/atomic_file.hpp).
void write_depths(const std::string& path, const std::vector<std::int32_t>& depth) {
  AtomicFile out(path);
  std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
  if (!f) throw IoError("cannot write " + path + ": check the directory exists and is writable");
  for (std::size_t v = 0; v < depth.size(); ++v) std::fprintf(f, "%zu %d\n", v, depth[v]);
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) throw IoError("error writing " + path + " (disk full?)");
  out.commit();
}

// More threads than this rank's share of its CPUs (ranks x threads beyond
// the cores: `mpirun -n 4` with OMP_NUM_THREADS=2 on 2 cores) makes the
// busy-waiting collectives and barriers take turns on the cores: scale 18 ran
// 70x slower. Warns once, on rank 0, with the fix. Collective.
void warn_if_oversubscribed(const Layout& l, int fair_threads) {
  const int threads = parallel::max_threads();
  int over = threads > fair_threads ? 1 : 0;
  check(MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, l.world), "MPI_Allreduce");
  if (over && l.rank == 0)
    std::fprintf(stderr,
                 "numagraph-graph500: warning: %d ranks on this node run %d threads each, but their CPUs allow "
                 "%d per rank: the cores are oversubscribed and the BFS may run many times slower; use "
                 "--threads %d (or unset OMP_NUM_THREADS), or fewer ranks per node\n",
                 l.node_size, threads, fair_threads, fair_threads);
}

int run(const Options& o) {
  Layout l = make_layout(o.ranks_per_node);
  const int fair_threads = default_threads(l);
  if (o.threads > 0)
    parallel::set_threads(o.threads);
  else if (!std::getenv("OMP_NUM_THREADS"))
    parallel::set_threads(fair_threads);
  warn_if_oversubscribed(l, fair_threads);

  BfsConfig cfg;
  cfg.share = o.share == "in" ? Share::kIn : o.share == "all" ? Share::kAll : Share::kNone;
  cfg.allgather = allgather_mode(o);
  cfg.summary_bits = o.summary_bits;
  cfg.alpha = o.alpha;
  cfg.beta = o.beta;
  DistGraph g = build_kronecker(l, o.gen);
  std::vector<std::uint64_t> roots;
  if (o.source >= 0) {
    roots.push_back(static_cast<std::uint64_t>(o.source));
  } else {
    roots = pick_roots(l, g, o.roots, o.seed);
  }

  Report rep;
  // The profile covers the BFS runs and their validation; the phases come
  // from DistBfs through the current listener (profile/current.hpp).
  std::unique_ptr<profile::Sampler> sampler;
  if (!o.profile.empty())
    sampler = std::make_unique<profile::Sampler>(profile::default_sources(),
                                                 profile::SamplerOptions{o.profile_interval_ms});
  {
    profile::ListenerScope listening(sampler.get());
    if (sampler) sampler->start();
    DistBfs bfs(l, g, cfg);
    std::vector<std::int32_t> all_depth;
    for (std::uint64_t root : roots) {
      MPI_Barrier(l.world);
      const double t0 = MPI_Wtime();
      std::optional<profile::InnerPhase> phase(std::in_place, "bfs");
      bfs.run(root);
      phase.reset();
      double t = MPI_Wtime() - t0, tmax = 0;
      check(MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, l.world), "MPI_Allreduce");
      const std::int64_t edges = traversed_edges(l, g, bfs.parent());
      if (edges == 0)
        throw UsageError("root " + std::to_string(root) + " has no edges: Graph500 roots must have degree > 0");
      rep.add_bfs(root, tmax, edges, bfs.top_down_steps(), bfs.bottom_up_steps());
      add_phases(l, bfs.phase_times(), t, rep);
      if (!o.no_validate) {
        const double v0 = MPI_Wtime();
        profile::InnerPhase validating("validate");
        const Verdict v = validate_bfs(l, g, root, bfs.parent(), bfs.depth(), all_depth);
        rep.add_validation(root, MPI_Wtime() - v0, v.ok, v.message);
      }
    }
    if (!o.output.empty()) {
      allgather_depths(l, g, bfs.depth(), all_depth);
      if (l.rank == 0) write_depths(o.output, all_depth);
    }
    rep.allgather = allgather_name(bfs.allgather());
  }
  rep.scale = o.gen.scale;
  rep.edge_factor = o.gen.edge_factor;
  rep.ranks = l.size;
  rep.nodes = l.num_nodes;
  rep.threads = parallel::max_threads();
  rep.share = o.share;
  rep.summary_bits = o.summary_bits;
  rep.num_edges = g.global_arcs / 2;
  rep.generation_s = g.generation_s;
  rep.construction_s = g.construction_s;
  rep.validated = !o.no_validate;
  if (sampler) {
    const profile::Profile p = sampler->stop();
    profile::Record meta = profile::profile_metadata(o.command_line);
    meta.set("rank", l.rank).set("ranks", l.size).raw("record", rep.json());
    std::string path = o.profile;
    if (l.size > 1) {  // run.json -> run.rank3.json
      const auto dot = path.rfind('.');
      const auto slash = path.rfind('/');
      const bool ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
      path = ext ? path.substr(0, dot) + ".rank" + std::to_string(l.rank) + path.substr(dot)
                 : path + ".rank" + std::to_string(l.rank);
    }
    profile::write_profile_json(path, p, meta);
  }
  if (l.rank == 0) {
    if (cfg.allgather == Allgather::kParallel && rep.allgather != "parallel")
      std::fprintf(stderr, "numagraph-graph500: note: nodes differ in rank count; the parallel allgather is off "
                           "(flat instead)\n");
    std::fputs(o.json ? (rep.json() + "\n").c_str() : rep.text().c_str(), stdout);
    std::fflush(stdout);
  }
  free_layout(l);
  return rep.all_valid() ? 0 : static_cast<int>(ExitCode::kVerifyFailed);
}

}  // namespace
}  // namespace numagraph::dist

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  numagraph::dist::Options o;
  CLI::App app{"numagraph-graph500: distributed Graph500 BFS (run under mpirun)"};
  numagraph::dist::add_options(app, o);
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(i ? argv[i] : "numagraph-graph500");
  int rc = 0;
  try {  // every rank sees the same arguments and fails the same way
    app.parse(argc, argv);
    o.allgather_given = app.count("--allgather") > 0;
    numagraph::dist::check_options(o);
  } catch (const CLI::ParseError& e) {
    // --help exits 0; every flag error is the documented usage code 2 (CLI11's own codes are 100+).
    if (rank == 0) rc = app.exit(e) == 0 ? 0 : static_cast<int>(numagraph::ExitCode::kUsage);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
  } catch (const numagraph::UsageError& e) {
    if (rank == 0) std::fprintf(stderr, "numagraph-graph500: error: %s\n", e.what());
    MPI_Finalize();
    return static_cast<int>(numagraph::ExitCode::kUsage);
  }
  try {
    rc = numagraph::dist::run(o);
  } catch (const numagraph::Error& e) {
    std::fprintf(stderr, "numagraph-graph500: error (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, static_cast<int>(e.exit_code()));
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "numagraph-graph500: error (rank %d): out of memory: use more ranks or a smaller --scale\n",
                 rank);
    MPI_Abort(MPI_COMM_WORLD, static_cast<int>(numagraph::ExitCode::kResource));
  }
  MPI_Finalize();
  return rc;
}
