// Runs inside the emulated NUMA machine (../shared/tools/numa-vm): checks
// that every placement policy puts pages where it says, that replicas and
// engine partitions sit on their own nodes, that pinned threads run on their
// node's CPUs and that thp gives huge pages. Prints PASS/FAIL lines and
// "N passed, N failed"; exits non-zero on any failure.
#include <omp.h>
#include <sched.h>
#include <sys/mman.h>

#include <cstdio>
#include <string>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/engine/replicated.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"

using namespace numagraph;

static int passed = 0, failed = 0;

static void check(bool ok, const std::string& what) {
  std::printf("  %s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  (ok ? passed : failed)++;
}

template <typename T>
static numa::PageReport touched_report(NumaArray<T>& a) {
  char* p = reinterpret_cast<char*>(a.data());
  for (std::size_t i = 0; i < a.bytes(); i += 4096) p[i] = 1;
  return numa::page_report(a.data(), a.bytes());
}

static std::int64_t on(const numa::PageReport& r, int node) {
  return node < static_cast<int>(r.pages_per_node.size()) ? r.pages_per_node[static_cast<std::size_t>(node)] : 0;
}

int main() {
  numa::RuntimeConfig config;
  config.pages = numa::PageSize::k4K;
  numa::Runtime::get().configure(config);
  const auto& rt = numa::Runtime::get();
  const int nodes = rt.topology().num_nodes();
  std::printf("topology: %s, %d threads\n", rt.topology().summary().c_str(), rt.threads());
  check(nodes >= 2, "the VM shows several NUMA nodes (" + std::to_string(nodes) + ")");
  const std::size_t n = std::size_t{8} << 20;

  for (int k = 0; k < nodes; ++k) {
    NumaArray<char> a(n, numa::Placement::bind(k), numa::PageSize::k4K);
    const auto r = touched_report(a);
    check(on(r, k) == r.sampled, "bind(" + std::to_string(k) + "): " + r.describe());
  }
  {
    NumaArray<char> a(n, numa::Placement::interleave(), numa::PageSize::k4K);
    const auto r = touched_report(a);
    bool spread = true;
    for (int k = 0; k < nodes; ++k) spread = spread && on(r, k) * nodes * 10 >= r.sampled * 9;
    check(spread, "interleave spreads pages evenly: " + r.describe());
  }
  {
    NumaArray<std::int64_t> a(n / 8, numa::Placement::partitioned(), numa::PageSize::k4K);
    touched_report(a);
    const auto bounds = numa::partition_ranges(static_cast<std::int64_t>(a.size()), nodes);
    bool ok = true;
    for (int k = 0; k < nodes; ++k) {
      // The interior of each block (whole pages) must be on node k.
      const std::int64_t lo = bounds[k] + 1024, hi = bounds[k + 1] - 1024;
      const auto r = numa::page_report(a.data() + lo, static_cast<std::size_t>(hi - lo) * 8);
      ok = ok && on(r, k) == r.sampled;
    }
    check(ok, "partitioned: block k of the array lies on node k");
  }
  {
    engine::Replicas<double> rep(nodes, n / 8);
    bool ok = true;
    for (int k = 0; k < nodes; ++k) {
      double* p = rep.copy(k);
      for (std::size_t i = 0; i < n / 8; i += 512) p[i] = 1;
      const auto r = numa::page_report(p, n);
      ok = ok && on(r, k) == r.sampled;
    }
    check(ok, "replicated: copy k on node k for every node");
  }
  {
    std::vector<int> seen(static_cast<std::size_t>(rt.threads()), -1);
#pragma omp parallel num_threads(rt.threads())
    seen[static_cast<std::size_t>(omp_get_thread_num())] = sched_getcpu();
    bool ok = true;
    std::string where;
    for (int t = 0; t < rt.threads(); ++t) {
      const auto& node = rt.topology().nodes[static_cast<std::size_t>(rt.thread_node()[static_cast<std::size_t>(t)])];
      bool mine = false;
      for (const auto& pus : node.core_pus)
        for (int pu : pus) mine = mine || pu == seen[static_cast<std::size_t>(t)];
      ok = ok && mine;
      where += " t" + std::to_string(t) + "@cpu" + std::to_string(seen[static_cast<std::size_t>(t)]);
    }
    check(ok, "pinned threads run on their node's CPUs:" + where);
  }
  {
    NumaArray<char> a(std::size_t{8} << 20, numa::Placement::local(), numa::PageSize::kTHP);
    const auto r = touched_report(a);
    check(r.huge_bytes > 0, "thp: " + r.describe());
  }
  {
    GeneratorOptions go;
    go.scale = 14;
    BuildOptions b;
    b.dedupe = b.drop_self_loops = true;
    AnyGraph any = build_graph(generate_kronecker(go), b);
    const auto& g = std::get<Graph32>(any);
    auto layout = engine::Layout::make(nodes, rt.thread_node(), g.num_vertices(), g.in_arrays().offsets.data());
    engine::PartitionedGraph<std::uint32_t> pg(g, std::move(layout), {true, false, false});
    bool ok = true;
    std::string where;
    for (int k = 0; k < nodes; ++k) {
      const auto& part = pg.pull(k);
      const auto r = numa::page_report(part.neighbors.data(), part.neighbors.bytes());
      const auto rp = numa::page_report(pg.push(k).neighbors.data(), pg.push(k).neighbors.bytes());
      ok = ok && on(r, k) == r.sampled && on(rp, k) == rp.sampled;
      where += " part" + std::to_string(k) + "[" + std::to_string(pg.layout().node_bounds[k]) + "," +
               std::to_string(pg.layout().node_bounds[k + 1]) + "): " + std::to_string(part.neighbors.size()) +
               " pull edges on node " + std::to_string(k) + ";";
    }
    check(ok, "engine partitions and their edges sit on their own nodes:" + where);
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
