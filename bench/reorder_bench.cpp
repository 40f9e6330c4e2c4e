// Cost and effect of the vertex orders (reorder/, docs/reordering.md): per
// order, the median seconds of compute_order and its cost in BFS-equivalents
// (OrderStats), and the bandwidth and average log2 gap of the numbering.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja bench_reorder_bench`.
// Usage:
//   bench_reorder_bench GRAPH [TRIALS] [ORDERS] [--symmetrize] [--dump DIR]
//     ORDERS: comma-separated (default degree,dbg,rcm,adl,adl-serial); "none" measures the
//       input numbering.
//     --symmetrize: build the undirected graph (both directions of every arc, deduplicated),
//       as bench/rcm_vs_scipy.py compares with SciPy on a symmetric matrix.
//     --dump DIR: write DIR/arcs.u32 (the out-arcs as uint32 sources then targets, dense ids)
//       and DIR/ORDER.u32 (old_of_new of the last trial), for bench/rcm_vs_scipy.py.
// Threads: OMP_NUM_THREADS. Prints one line per order (medians over the trials):
//   ORDER seconds S bfs_equivalents B bandwidth W log_gap G cpu_seconds C
// C: the calling thread's CPU seconds (the serial orders' cost without the
// time the thread was descheduled on a busy machine).
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/reorder/gaps.hpp"

using namespace numagraph;

namespace {

// CPU seconds of the calling thread: on a shared machine, the cost of a
// serial order without the time it spent descheduled (for the parallel
// orders it leaves out the other threads' work: compare wall seconds there).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
void write_u32(const std::string& path, const T* data, std::size_t n) {
  std::vector<std::uint32_t> buf(data, data + n);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(buf.data(), 4, n, f) != n) {
    std::fprintf(stderr, "reorder_bench: cannot write %s\n", path.c_str());
    std::exit(4);
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [TRIALS] [ORDERS] [--symmetrize] [--dump DIR]\n", argv[0]);
    return 2;
  }
  int trials = 5;
  std::string orders = "degree,dbg,rcm,adl,adl-serial", dump;
  BuildOptions build;
  int positional = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--symmetrize") {
      build.symmetrize = build.dedupe = build.drop_self_loops = true;
    } else if (a == "--dump" && i + 1 < argc) {
      dump = argv[++i];
    } else if (positional++ == 0) {
      trials = std::atoi(a.c_str());
    } else {
      orders = a;
    }
  }
  try {
    AnyGraph any = load_graph(argv[1], {}, build);
    visit(
        [&](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          std::printf("graph %s vertices %lld arcs %lld directed %d threads %d\n", argv[1],
                      static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_arcs()),
                      g.directed() ? 1 : 0, parallel::max_threads());
          if (!dump.empty()) {
            std::vector<std::uint32_t> src;
            src.reserve(static_cast<std::size_t>(g.num_arcs()));
            for (std::int64_t u = 0; u < g.num_vertices(); ++u)
              for (std::size_t k = 0; k < g.out_neighbors(static_cast<V>(u)).size(); ++k)
                src.push_back(static_cast<std::uint32_t>(u));
            write_u32(dump + "/arcs.u32", src.data(), src.size());
            FILE* f = std::fopen((dump + "/arcs.u32").c_str(), "ab");
            std::vector<std::uint32_t> dst(g.out().neighbors.begin(), g.out().neighbors.end());
            std::fwrite(dst.data(), 4, dst.size(), f);
            std::fclose(f);
          }
          std::stringstream list(orders);
          for (std::string name; std::getline(list, name, ',');) {
            const reorder::Spec spec{reorder::parse_order(name), -1};
            std::vector<double> secs, equivs;
            reorder::Permutation<V> p;
            // Seconds: trials of the order alone (the BFS that OrderStats
            // times after each order leaves its threads spinning into the
            // next trial of a serial order). BFS-equivalents: the median
            // seconds over the median BFS of separate calls with stats.
            std::vector<double> cpu;
            for (int t = 0; t < trials; ++t) {
              const double c0 = thread_cpu_seconds();
              profile::Timer timer;
              p = reorder::compute_order(g, spec);
              secs.push_back(timer.seconds());
              cpu.push_back(thread_cpu_seconds() - c0);
            }
            std::vector<double> bfs;
            for (int t = 0; t < trials; ++t) {
              reorder::OrderStats stats;
              reorder::compute_order(g, spec, &stats);
              if (stats.bfs_equivalents > 0) bfs.push_back(stats.seconds / stats.bfs_equivalents);
            }
            equivs.push_back(bfs.empty() ? 0.0 : median(secs) / median(bfs));
            const reorder::Gaps gaps = reorder::measure_gaps(g, p.identity() ? nullptr : p.new_of_old.data());
            std::printf("%s seconds %.6f bfs_equivalents %.3f bandwidth %lld log_gap %.3f cpu_seconds %.6f\n",
                        name.c_str(), median(secs), median(equivs), static_cast<long long>(gaps.bandwidth),
                        gaps.average_log_gap, median(cpu));
            std::fflush(stdout);
            if (!dump.empty() && !p.identity()) write_u32(dump + "/" + name + ".u32", p.old_of_new.data(), p.size());
          }
        },
        any);
  } catch (const Error& e) {
    std::fprintf(stderr, "reorder_bench: %s\n", e.what());
    return static_cast<int>(e.exit_code());
  }
  return 0;
}
