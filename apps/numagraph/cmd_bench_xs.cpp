// numagraph bench-xs: an XSBench-style cross-section lookup benchmark (seed
// 002) that shows the placement layer is useful beyond graphs.
//
// Data: N nuclide grids of G points each (energy + 5 cross sections, sorted
// by energy), a unionized energy grid of all N*G energies, and for every
// unionized point the index of the matching point in each nuclide grid.
// A lookup draws a random energy and material, binary-searches the unionized
// grid once, then interpolates the 5 cross sections of every nuclide of the
// material: random reads all over the nuclide grids, which is where NUMA
// placement and page size matter.
// Variants: default (everything first-touched by one thread, as a plain
// program does), interleave (everything interleaved), replicate (one copy of
// the nuclide grids per node, unionized grid interleaved), replicate + 2 MB
// pages. Each prints lookups/s and where the pages of both structures landed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/replicated_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "registry.hpp"
#include "runtime_info.hpp"

namespace numagraph::cli {
namespace {

struct GridPoint {
  double energy;
  double xs[5];
};

struct XsOptions {
  int nuclides = 68;
  int gridpoints = 11303;
  int materials = 12;
  std::int64_t lookups = 2000000;
  int threads = 0;
  std::uint64_t seed = 42;
  int trials = 3;
};

inline std::uint64_t next_random(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}
inline double unit(std::uint64_t& s) { return static_cast<double>(next_random(s) >> 11) * 0x1.0p-53; }

struct XsData {
  std::vector<std::vector<int>> material_nuclides;
  NumaArray<double> union_energy;    // N*G sorted energies
  NumaArray<std::int32_t> union_idx;  // (N*G) x N indices into each nuclide grid
};

// Nuclide grids as one array: nuclide i's points are [i*G, (i+1)*G).
void fill_grids(GridPoint* grids, const XsOptions& o) {
  for (int i = 0; i < o.nuclides; ++i) {
    std::uint64_t s = o.seed * 7919 + static_cast<std::uint64_t>(i) + 1;
    GridPoint* g = grids + static_cast<std::int64_t>(i) * o.gridpoints;
    for (int j = 0; j < o.gridpoints; ++j) {
      g[j].energy = unit(s);
      for (double& x : g[j].xs) x = unit(s);
    }
    std::sort(g, g + o.gridpoints, [](const GridPoint& a, const GridPoint& b) { return a.energy < b.energy; });
  }
}

XsData build_union(const GridPoint* grids, const XsOptions& o, numa::Placement placement, numa::PageSize pages) {
  XsData d;
  const std::int64_t total = static_cast<std::int64_t>(o.nuclides) * o.gridpoints;
  d.union_energy = NumaArray<double>(static_cast<std::size_t>(total), placement, pages);
  for (std::int64_t k = 0; k < total; ++k) d.union_energy[k] = grids[k].energy;
  std::sort(d.union_energy.begin(), d.union_energy.end());
  d.union_idx = NumaArray<std::int32_t>(static_cast<std::size_t>(total * o.nuclides), placement, pages);
  for (int i = 0; i < o.nuclides; ++i) {
    const GridPoint* g = grids + static_cast<std::int64_t>(i) * o.gridpoints;
    int j = 0;
    for (std::int64_t u = 0; u < total; ++u) {
      while (j + 2 < o.gridpoints && g[j + 1].energy <= d.union_energy[u]) ++j;
      d.union_idx[u * o.nuclides + i] = j;
    }
  }
  std::uint64_t s = o.seed;
  for (int m = 0; m < o.materials; ++m) {
    // Material 0 (fuel) holds half the nuclides, the others a few each.
    const int count = m == 0 ? std::max(1, o.nuclides / 2) : std::max(1, std::min(o.nuclides, 5 + m));
    std::vector<int> nucs;
    while (static_cast<int>(nucs.size()) < count) {
      const int n = static_cast<int>(next_random(s) % static_cast<std::uint64_t>(o.nuclides));
      if (std::find(nucs.begin(), nucs.end(), n) == nucs.end()) nucs.push_back(n);
    }
    d.material_nuclides.push_back(nucs);
  }
  return d;
}

// Runs the lookups; `grid_of(node)` gives the nuclide grids a thread on `node` reads.
template <typename GridOf>
double run_lookups(const XsData& d, const XsOptions& o, GridOf&& grid_of, double& checksum) {
  const std::int64_t total = static_cast<std::int64_t>(o.nuclides) * o.gridpoints;
  const auto& rt = numa::Runtime::get();
  double sum = 0;
  profile::Timer t;
#pragma omp parallel reduction(+ : sum)
  {
    const int tid = parallel::thread_id();
    const int node = rt.configured() && tid < rt.threads() ? rt.thread_node()[static_cast<std::size_t>(tid)] : 0;
    const GridPoint* grids = grid_of(node);
    std::uint64_t s = o.seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(tid + 1);
#pragma omp for schedule(static)
    for (std::int64_t l = 0; l < o.lookups; ++l) {
      const double e = unit(s);
      const auto& nucs = d.material_nuclides[next_random(s) % d.material_nuclides.size()];
      const std::int64_t u = std::max<std::int64_t>(
          0, std::upper_bound(d.union_energy.begin(), d.union_energy.begin() + total, e) - d.union_energy.begin() - 1);
      double macro[5] = {0, 0, 0, 0, 0};
      for (int n : nucs) {
        const GridPoint* lo = grids + static_cast<std::int64_t>(n) * o.gridpoints + d.union_idx[u * o.nuclides + n];
        const GridPoint* hi = lo + 1;
        const double f = (hi->energy - e) / std::max(1e-300, hi->energy - lo->energy);
        for (int k = 0; k < 5; ++k) macro[k] += hi->xs[k] - f * (hi->xs[k] - lo->xs[k]);
      }
      sum += macro[0] + macro[4];
    }
  }
  checksum = sum;
  return static_cast<double>(o.lookups) / t.seconds();
}

struct Variant {
  const char* name;
  numa::Placement grid_place, union_place;
  numa::PageSize pages;
  bool replicate;
};

struct VariantResult {
  std::vector<double> rates;
  double checksum = 0;
  std::string grid_where, union_where;
};

// Builds one variant's data, runs the lookups, and frees everything again
// (holding all four variants at once would need 4x the memory).
void run_variant(const Variant& v, const XsOptions& o, VariantResult& out) {
  const std::int64_t total = static_cast<std::int64_t>(o.nuclides) * o.gridpoints;
  // Serial initialisation: "default" then first-touches everything from one thread.
  NumaArray<GridPoint> grids(static_cast<std::size_t>(total), v.grid_place, v.pages);
  fill_grids(grids.data(), o);
  XsData d = build_union(grids.data(), o, v.union_place, v.pages);
  numa::ReplicatedArray<GridPoint> copies;
  if (v.replicate) copies = numa::ReplicatedArray<GridPoint>(grids.span(), v.pages);
  double checksum = 0;
  out.rates.push_back(run_lookups(d, o, [&](int node) { return v.replicate ? copies.copy(node) : grids.data(); },
                                  checksum));
  out.checksum = checksum / static_cast<double>(o.lookups);
  out.grid_where = v.replicate ? "" : numa::page_report(grids.data(), grids.bytes()).describe();
  for (int k = 0; v.replicate && k < copies.nodes(); ++k)
    out.grid_where += std::string(k ? "\n                   " : "") + "copy " + std::to_string(k) + ": " +
                      numa::page_report(copies.copy(k), copies.size() * sizeof(GridPoint)).describe();
  out.union_where = numa::page_report(d.union_idx.data(), d.union_idx.bytes()).describe();
}

void run_xs(const XsOptions& o) {
  const std::int64_t total = static_cast<std::int64_t>(o.nuclides) * o.gridpoints;
  const auto& rt = numa::Runtime::get();
  std::printf("XSBench-style lookups: %d nuclides x %d gridpoints, %d materials, %lld lookups, %d threads, %s\n",
              o.nuclides, o.gridpoints, o.materials, static_cast<long long>(o.lookups), rt.threads(),
              rt.topology().summary().c_str());
  std::printf("nuclide grids %.1f MiB, unionized grid %.1f MiB; %d trials per variant, variants interleaved\n",
              static_cast<double>(total * sizeof(GridPoint)) / (1 << 20),
              static_cast<double>(total * (8 + 4 * o.nuclides)) / (1 << 20), o.trials);
  const Variant variants[] = {
      {"default (first touch, one thread)", numa::Placement::local(), numa::Placement::local(), numa::PageSize::k4K, false},
      {"interleave all", numa::Placement::interleave(), numa::Placement::interleave(), numa::PageSize::k4K, false},
      {"replicate grids + interleave union", numa::Placement::local(), numa::Placement::interleave(), numa::PageSize::k4K, true},
      {"replicate + interleave + 2 MB pages", numa::Placement::local(), numa::Placement::interleave(), numa::PageSize::k2M, true},
  };
  constexpr int kVariants = 4;
  VariantResult results[kVariants];
  for (int trial = 0; trial < o.trials; ++trial)
    for (int i = 0; i < kVariants; ++i) run_variant(variants[i], o, results[i]);
  auto median = [](std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x.size() % 2 ? x[x.size() / 2] : (x[x.size() / 2 - 1] + x[x.size() / 2]) / 2;
  };
  const double base = median(results[0].rates);
  std::printf("\n%-38s %14s %8s %10s\n", "variant", "lookups/s", "ratio", "checksum");
  for (int i = 0; i < kVariants; ++i)
    std::printf("%-38s %14.0f %8.3f %10.6g\n", variants[i].name, median(results[i].rates),
                median(results[i].rates) / base, results[i].checksum);
  bool same = true;
  for (const auto& r : results) same = same && r.checksum == results[0].checksum;
  std::printf("checksums %s\n", same ? "agree (every variant computed the same lookups)" : "DIFFER");
  std::printf("\nplacement (pages per kernel node, page size obtained):\n");
  for (int i = 0; i < kVariants; ++i)
    std::printf("  %s\n    nuclide grids: %s\n    unionized grid: %s\n", variants[i].name,
                results[i].grid_where.c_str(),
                results[i].union_where.c_str());
  if (!same) throw VerifyError("bench-xs: the variants computed different checksums");
}

const Register kBenchXs{{"bench-xs", "XSBench-style cross-section lookups under four placements (seed 002)", 900,
                         [](CLI::App& app) {
                           auto o = std::make_shared<XsOptions>();
                           add_runtime_options(app);
                           app.add_option("-t,--threads", o->threads, "threads (default: one per core)");
                           app.add_option("--nuclides", o->nuclides, "nuclides (68, XSBench 'small')")->check(CLI::Range(2, 1000));
                           app.add_option("--gridpoints", o->gridpoints, "points per nuclide grid (11303)")->check(CLI::Range(4, 10000000));
                           app.add_option("--lookups", o->lookups, "lookups per variant and trial (2e6)")->check(kPositive);
                           app.add_option("-n,--trials", o->trials, "trials per variant, interleaved; the median is reported (3)")
                               ->check(CLI::Range(1, 100));
                           app.callback([o] {
                             apply_runtime_options(o->threads);
                             run_xs(*o);
                           });
                         }}};

}  // namespace
}  // namespace numagraph::cli
