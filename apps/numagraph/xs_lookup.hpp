// The XSBench-style data and lookup kernel behind `numagraph bench-xs`.
//
// Data: N nuclide grids of G points each (energy + 5 cross sections, sorted
// by energy), a unionized energy grid of all N*G energies, and for every
// unionized point the index of the matching point in each nuclide grid.
// A lookup draws a random energy and material, binary-searches the unionized
// grid once, then interpolates the 5 cross sections of every nuclide of the
// material: random reads all over the nuclide grids, which is where NUMA
// placement and page size matter.
//
// XsMaster is generated once per run in ordinary memory; every measured
// variant copies it into arrays with its own placement (its "initialisation"),
// so the variants and thread counts share one generation step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::cli::xs {

struct GridPoint {
  double energy;
  double xs[5];
};

struct Sizes {
  int nuclides = 68;
  int gridpoints = 11303;
  int materials = 12;
  std::uint64_t seed = 42;
  std::int64_t total() const { return static_cast<std::int64_t>(nuclides) * gridpoints; }
};

inline std::uint64_t next_random(std::uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}
inline double unit(std::uint64_t& s) { return static_cast<double>(next_random(s) >> 11) * 0x1.0p-53; }
// A well-mixed, non-zero xorshift state for lookup `l`: every lookup draws
// the same energy and material whatever thread runs it.
inline std::uint64_t lookup_state(std::uint64_t seed, std::uint64_t l) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (l + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) | 1;
}

struct XsMaster {
  std::vector<GridPoint> grids;            // nuclide i's points are [i*G, (i+1)*G)
  std::vector<double> union_energy;        // N*G sorted energies
  std::vector<std::int32_t> union_idx;     // (N*G) x N: point of each nuclide grid at or below
  std::vector<std::vector<int>> material_nuclides;
};

inline XsMaster build_master(const Sizes& o) {
  XsMaster m;
  const std::int64_t total = o.total();
  m.grids.resize(static_cast<std::size_t>(total));
  for (int i = 0; i < o.nuclides; ++i) {
    std::uint64_t s = o.seed * 7919 + static_cast<std::uint64_t>(i) + 1;
    GridPoint* g = m.grids.data() + static_cast<std::int64_t>(i) * o.gridpoints;
    for (int j = 0; j < o.gridpoints; ++j) {
      g[j].energy = unit(s);
      for (double& x : g[j].xs) x = unit(s);
    }
    std::sort(g, g + o.gridpoints, [](const GridPoint& a, const GridPoint& b) { return a.energy < b.energy; });
  }
  m.union_energy.resize(static_cast<std::size_t>(total));
  for (std::int64_t k = 0; k < total; ++k) m.union_energy[k] = m.grids[k].energy;
  std::sort(m.union_energy.begin(), m.union_energy.end());
  // Row by row (sequential writes: the table is 5.6 GB at XSBench 'large'),
  // each nuclide's pointer only moving forward.
  m.union_idx.resize(static_cast<std::size_t>(total * o.nuclides));
  std::vector<int> j(static_cast<std::size_t>(o.nuclides), 0);
  for (std::int64_t u = 0; u < total; ++u) {
    std::int32_t* row = m.union_idx.data() + u * o.nuclides;
    for (int i = 0; i < o.nuclides; ++i) {
      const GridPoint* g = m.grids.data() + static_cast<std::int64_t>(i) * o.gridpoints;
      int& p = j[static_cast<std::size_t>(i)];
      while (p + 2 < o.gridpoints && g[p + 1].energy <= m.union_energy[u]) ++p;
      row[i] = p;
    }
  }
  std::uint64_t s = o.seed;
  for (int mat = 0; mat < o.materials; ++mat) {
    // Material 0 (fuel) holds half the nuclides, the others a few each.
    const int count = mat == 0 ? std::max(1, o.nuclides / 2) : std::max(1, std::min(o.nuclides, 5 + mat));
    std::vector<int> nucs;
    while (static_cast<int>(nucs.size()) < count) {
      const int n = static_cast<int>(next_random(s) % static_cast<std::uint64_t>(o.nuclides));
      if (std::find(nucs.begin(), nucs.end(), n) == nucs.end()) nucs.push_back(n);
    }
    m.material_nuclides.push_back(nucs);
  }
  return m;
}

// Runs `lookups` lookups on the configured threads (static schedule) and
// returns the checksum: the sum over lookups of round(1e6 * (xs0 + xs4)) in
// wrapping 64-bit integers, so it is the same for every variant and thread
// count (integer addition does not depend on the order). `grid_of(node)`
// gives the nuclide grids a thread on topology node `node` reads.
template <typename GridOf>
std::uint64_t run_lookups(const Sizes& o, std::int64_t lookups, const double* union_energy,
                          const std::int32_t* union_idx, const std::vector<std::vector<int>>& materials,
                          GridOf&& grid_of) {
  const std::int64_t total = o.total();
  const auto& rt = numa::Runtime::get();
  std::uint64_t sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    const GridPoint* grids = grid_of(rt.configured() ? rt.thread_node(parallel::thread_id()) : 0);
#pragma omp for schedule(static)
    for (std::int64_t l = 0; l < lookups; ++l) {
      std::uint64_t s = lookup_state(o.seed, static_cast<std::uint64_t>(l));
      const double e = unit(s);
      const auto& nucs = materials[next_random(s) % materials.size()];
      const std::int64_t u =
          std::max<std::int64_t>(0, std::upper_bound(union_energy, union_energy + total, e) - union_energy - 1);
      double macro[5] = {0, 0, 0, 0, 0};
      for (int n : nucs) {
        const GridPoint* lo = grids + static_cast<std::int64_t>(n) * o.gridpoints + union_idx[u * o.nuclides + n];
        const GridPoint* hi = lo + 1;
        const double f = (hi->energy - e) / std::max(1e-300, hi->energy - lo->energy);
        for (int k = 0; k < 5; ++k) macro[k] += hi->xs[k] - f * (hi->xs[k] - lo->xs[k]);
      }
      sum += static_cast<std::uint64_t>(std::llround((macro[0] + macro[4]) * 1e6));
    }
  }
  return sum;
}

}  // namespace numagraph::cli::xs
