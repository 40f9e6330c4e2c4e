// In-process timings of the betweenness and SSSP kernels, for A/B runs of
// their variants and parameters (every trial of every variant alternates in
// one process, so all see the same pages and the same moments of a noisy
// host) and for bench/peers.py, which reads its "Trial Time:" lines.
//
// Build (after `ninja -C build-bc numagraph_core`, from the repository root; one command):
//   c++ -O3 -march=x86-64-v3 -falign-loops=32 -fopenmp -std=c++20 -DNDEBUG -Iinclude bench/bc_sssp_driver.cpp
//       build-bc/libnumagraph_core.a -lz -lhwloc -lnuma -o build-bc/bc_sssp_driver
// Usage:
//   bc_sssp_driver GRAPH roots K SEED             K vertices with out-edges (seeded), comma-separated
//   bc_sssp_driver GRAPH bc ROOTS TRIALS VARIANT...
//       ROOTS: comma-separated ids; one trial runs all of them (one call of the kernel).
//       VARIANT: brandes (kernels/bc/brandes.hpp),
//       do[:ALPHA[:SERIAL_EDGES[:BACK_PUSH_RATIO[:BRANCH_FREE[:PACK[:OWNER_PUSH_RATIO]]]]]]
//       (BrandesDoOptions; BRANCH_FREE and PACK -1 auto, 0 off, 1 on),
//       batched[:BATCH[:ALPHA[:BACK_PUSH_RATIO[:OWNER_PUSH[:SKIP_EMPTY_LINES[:STARTS]]]]]]
//       (BrandesBatchedOptions; OWNER_PUSH 0 or 1, SKIP_EMPTY_LINES -1 auto, 0 off, 1 on,
//       STARTS -1 aligned starts, 0 every lane on level 0, =DIGITS lane i on level DIGITS[i]),
//       source-parallel,
//       or auto (the entry point's choice, kernels/bc/betweenness.hpp)
//   bc_sssp_driver GRAPH scores ROOTS|all VARIANT...  raw Brandes sums, "VARIANT id score" per
//       vertex (ids as in the input file), for oracle tests (tests/python/test_bc_fast.py)
//   bc_sssp_driver GRAPH sssp ROOT TRIALS DELTA...  DELTA: a number or auto (choose_delta)
//   bc_sssp_driver GRAPH adj OUT [plain]          Ligra/GBBS (Weighted)AdjacencyGraph text of the
//       out-CSR, weights rounded to integers (none with plain); prints "symmetric" or "directed"
// Threads: OMP_NUM_THREADS (default 2), pinned one per core as the CLI pins
// them (compact), less where the library would use less: below the problem's
// small-graph cut-off bc runs on one thread and sssp starts on one and calls
// the team at its first wide round, as numagraph::betweenness and
// numagraph::sssp do (kernels/thread_budget.hpp; NUMAGRAPH_SERIAL_BELOW=0 turns it off), and
// print "kernel threads: N" and "pinned threads: N" (the runtime's team, one
// core each while the machine has enough). Prints each trial as "VARIANT Trial Time: S" and then each
// variant's median and fastest trial.
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "in_process_driver.hpp"
#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/brandes_batched.hpp"
#include "numagraph/kernels/bc/brandes_direction_optimizing.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/thread_budget.hpp"

using namespace numagraph;
using V = std::uint32_t;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// do[:ALPHA[:SERIAL_EDGES[:BACK_PUSH_RATIO[:BRANCH_FREE[:PACK[:OWNER_PUSH_RATIO]]]]]], split at ':'.
kernels::BrandesDoOptions do_options(const std::vector<std::string>& parts) {
  kernels::BrandesDoOptions o;
  if (parts.size() > 1) o.alpha = std::stod(parts[1]);
  if (parts.size() > 2) o.serial_edges = std::stoll(parts[2]);
  if (parts.size() > 3) o.back_push_ratio = std::stod(parts[3]);
  if (parts.size() > 4) o.branch_free = std::stoi(parts[4]);
  if (parts.size() > 5) o.pack_frontier = std::stoi(parts[5]);
  if (parts.size() > 6) o.owner_push_ratio = std::stod(parts[6]);
  return o;
}

// batched[:BATCH[:ALPHA[:BACK_PUSH_RATIO[:OWNER_PUSH[:SKIP_EMPTY_LINES[:STARTS]]]]]], split at ':'.
kernels::BrandesBatchedOptions batched_options(const std::vector<std::string>& parts) {
  kernels::BrandesBatchedOptions o;
  if (parts.size() > 1) o.batch = std::stoi(parts[1]);
  if (parts.size() > 2) o.alpha = std::stod(parts[2]);
  if (parts.size() > 3) o.back_push_ratio = std::stod(parts[3]);
  if (parts.size() > 4) o.owner_push = std::stoi(parts[4]) != 0;
  if (parts.size() > 5) o.skip_empty_lines = std::stoi(parts[5]);
  if (parts.size() > 6) {
    if (parts[6].starts_with("=")) {
      for (char digit : parts[6].substr(1)) {
        if (digit < '0' || digit > '9') throw std::invalid_argument("STARTS: =DIGITS, one level per lane");
        o.start_levels.push_back(digit - '0');
      }
    } else {
      o.align_starts = std::stoi(parts[6]) != 0;
    }
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Timed {
  std::string name;
  std::vector<double> seconds;
};

void report(const std::vector<Timed>& runs) {
  for (const auto& r : runs) {
    auto sorted = r.seconds;
    std::sort(sorted.begin(), sorted.end());
    std::printf("%s: median %.5f s, fastest %.5f s (%zu trials)\n", r.name.c_str(), bench::median(r.seconds),
                sorted.front(), r.seconds.size());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bc_sssp_driver GRAPH roots K SEED | bc ROOTS TRIALS VARIANT... | sssp ROOT TRIALS DELTA...\n");
    return 2;
  }
  const int threads = std::getenv("OMP_NUM_THREADS") ? std::atoi(std::getenv("OMP_NUM_THREADS")) : 2;
  if (threads < 1) {
    std::fprintf(stderr, "bc_sssp_driver: OMP_NUM_THREADS must be a positive number of threads\n");
    return 2;
  }
  const Graph32 g = bench::graph32_on_threads(argv[1], "bc_sssp_driver", threads);
  parallel::set_threads(threads);
  const std::string mode = argv[2];
  if (mode == "roots") {
    const int k = std::atoi(argv[3]);
    std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 27491095);
    std::uniform_int_distribution<std::int64_t> pick(0, g.num_vertices() - 1);
    std::string out;
    for (int found = 0; found < k;) {
      const auto v = static_cast<V>(pick(rng));
      if (g.out_degree(v) == 0) continue;
      out += (found++ ? "," : "") + std::to_string(v);
    }
    std::printf("%s\n", out.c_str());
    return 0;
  }
  if (mode == "adj") {
    std::FILE* f = std::fopen(argv[3], "wb");
    if (!f) {
      std::fprintf(stderr, "bc_sssp_driver: cannot write %s\n", argv[3]);
      return 2;
    }
    std::vector<char> buf;
    auto put = [&](std::int64_t x) {
      char tmp[24];
      auto res = std::to_chars(tmp, tmp + sizeof tmp, x);
      buf.insert(buf.end(), tmp, res.ptr);
      buf.push_back('\n');
      if (buf.size() > (1 << 22)) {
        std::fwrite(buf.data(), 1, buf.size(), f);
        buf.clear();
      }
    };
    const auto& out = g.out();
    const bool weighted = g.weighted() && !(argc > 4 && std::string(argv[4]) == "plain");
    std::fprintf(f, "%s\n", weighted ? "WeightedAdjacencyGraph" : "AdjacencyGraph");
    put(g.num_vertices());
    put(static_cast<std::int64_t>(g.num_arcs()));
    for (std::int64_t v = 0; v < g.num_vertices(); ++v) put(static_cast<std::int64_t>(out.offsets[v]));
    for (eid_t e = 0; e < g.num_arcs(); ++e) put(out.neighbors[e]);
    if (weighted)
      for (eid_t e = 0; e < g.num_arcs(); ++e) put(std::llround(out.weights[e]));
    std::fwrite(buf.data(), 1, buf.size(), f);
    std::fclose(f);
    std::printf("%s\n", g.directed() ? "directed" : "symmetric");
    return 0;
  }
  if (mode == "scores" && argc >= 5) {
    std::vector<V> sources;
    if (std::string(argv[3]) == "all") {
      for (std::int64_t v = 0; v < g.num_vertices(); ++v) sources.push_back(static_cast<V>(v));
    } else {
      for (const auto& r : split(argv[3], ',')) sources.push_back(static_cast<V>(std::stoul(r)));
    }
    for (int a = 4; a < argc; ++a) {
      const auto parts = split(argv[a], ':');
      NumaArray<double> scores;
      if (parts[0] == "brandes") {
        scores = kernels::betweenness_brandes(g, sources);
      } else if (parts[0] == "do") {
        scores = kernels::betweenness_brandes_do(g, sources, do_options(parts));
      } else if (parts[0] == "batched") {
        scores = kernels::betweenness_brandes_batched(g, sources, batched_options(parts));
      } else if (parts[0] == "source-parallel") {
        kernels::betweenness_brandes_source_parallel(g, sources, scores);
      } else {
        std::fprintf(stderr, "bc_sssp_driver: unknown bc variant %s\n", argv[a]);
        return 2;
      }
      for (std::int64_t v = 0; v < g.num_vertices(); ++v)
        std::printf("%s %llu %.17g\n", argv[a], static_cast<unsigned long long>(g.label(static_cast<V>(v))), scores[v]);
    }
    return 0;
  }
  if (argc < 6) {
    std::fprintf(stderr, "bc_sssp_driver: %s needs ROOTS TRIALS and at least one variant\n", mode.c_str());
    return 2;
  }
  std::vector<V> roots;
  for (const auto& r : split(argv[3], ',')) roots.push_back(static_cast<V>(std::stoul(r)));
  const int trials = std::atoi(argv[4]);
  std::vector<Timed> runs;
  for (int a = 5; a < argc; ++a) runs.push_back({argv[a], {}});
  // The entry points' thread rule: BC weighs one sweep per source.
  const eid_t work = g.num_arcs() * static_cast<eid_t>(mode == "bc" ? roots.size() : 1);
  const char* problem = mode == "bc" ? "betweenness" : "sssp";
  kernels::ThreadLimit limit(kernels::call_threads(problem, work, threads));
  const bool start_alone = kernels::call_starts_alone(problem, work, threads);
  std::printf("kernel threads: %d\n", parallel::max_threads());
  std::printf("pinned threads: %d\n", numa::Runtime::get().threads());

  if (mode == "bc") {
    NumaArray<double> scores;
    kernels::BrandesWorkspace<V> ws_plain;
    kernels::BrandesDoWorkspace<V> ws_do;
    kernels::BrandesBatchedWorkspace<V> ws_batched;
    const BcVariant chosen = kernels::flat_bc_variant(g, roots.size(), BcVariant::kAuto, parallel::max_threads());
    std::printf("auto: %s\n", kernels::to_string(chosen));
    for (int t = 0; t < trials; ++t)
      for (auto& r : runs) {
        auto parts = split(r.name, ':');
        if (parts[0] == "auto")
          parts = {chosen == BcVariant::kBatched          ? "batched"
                   : chosen == BcVariant::kSourceParallel ? "source-parallel"
                   : chosen == BcVariant::kBrandes        ? "brandes"
                                                          : "do"};
        const auto start = std::chrono::steady_clock::now();
        if (parts[0] == "brandes") {
          kernels::betweenness_brandes(g, roots, scores, ws_plain);
        } else if (parts[0] == "do") {
          kernels::betweenness_brandes_do(g, roots, scores, ws_do, do_options(parts));
        } else if (parts[0] == "batched") {
          kernels::betweenness_brandes_batched(g, roots, scores, ws_batched, batched_options(parts));
        } else if (parts[0] == "source-parallel") {
          kernels::betweenness_brandes_source_parallel(g, roots, scores);
        } else {
          std::fprintf(stderr, "bc_sssp_driver: unknown bc variant %s\n", r.name.c_str());
          return 2;
        }
        r.seconds.push_back(seconds_since(start));
        std::printf("%s Trial Time: %.6f\n", r.name.c_str(), r.seconds.back());
        std::fflush(stdout);
      }
  } else if (mode == "sssp") {
    NumaArray<double> dist;
    kernels::SsspWorkspace ws;
    // The rule is computed once per graph, outside the trials, for the
    // threads the search runs on (numagraph::sssp's choice).
    double auto_delta = 0;
    for (auto& r : runs)
      if (r.name == "auto") {
        const auto start = std::chrono::steady_clock::now();
        auto_delta = kernels::choose_delta(g, start_alone ? 1 : threads);
        std::printf("auto delta: %g (rule %.5f s)\n", auto_delta, seconds_since(start));
      }
    for (int t = 0; t < trials; ++t)
      for (auto& r : runs) {
        const double delta = r.name == "auto" ? auto_delta : std::stod(r.name);
        const auto start = std::chrono::steady_clock::now();
        kernels::sssp_delta_stepping(g, roots[static_cast<std::size_t>(t) % roots.size()], delta, dist, &ws,
                                     start_alone);
        r.seconds.push_back(seconds_since(start));
        std::printf("%s Trial Time: %.6f\n", r.name.c_str(), r.seconds.back());
        std::fflush(stdout);
      }
  } else {
    std::fprintf(stderr, "bc_sssp_driver: mode is roots, bc or sssp\n");
    return 2;
  }
  report(runs);
  return 0;
}
