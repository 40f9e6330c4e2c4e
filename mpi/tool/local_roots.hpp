// What both ways of tying the ranks' local components together start from
// (components.cpp's label rounds, components_gathered.cpp): per root of a
// local component, the smallest global id among its members, and whether it
// has members besides itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <omp.h>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/kernels/cc/link.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

struct LocalRoots {
  NumaArray<std::uint64_t> key;       // per root: its component's smallest global id, ghosts included
  std::vector<std::uint8_t> several;  // per root: 1 when another local index has it as root
};

// `comp`: the forest of the local components after local linking (own
// vertices and ghosts; a root is the smallest local index of its component,
// every parent is below its child). Points every index at its root in the
// same pass.
inline LocalRoots local_roots(const DistCsr& g, std::uint32_t* comp) {
  const std::int64_t n = g.local_n, total = g.local_total();
  LocalRoots r;
  r.key = NumaArray<std::uint64_t>::for_overwrite(static_cast<std::size_t>(total));
  r.several.assign(static_cast<std::size_t>(total) + 1, 0);  // + a slot the roots mark, for no branch
  std::uint64_t* const key = r.key.data();
  std::uint8_t* const several = r.several.data();
  const std::uint64_t first = static_cast<std::uint64_t>(g.first);
  const std::uint64_t* const ghost_global = g.ghost_global.data();
  const std::int64_t chunk = kernels::cc_detail::link_chunk(total);
  // Without branches on whether x is a root: it is a coin toss on Kronecker
  // graphs. A key is read only at roots, so every index gets its own.
#pragma omp parallel for schedule(dynamic, chunk)
  for (std::int64_t x = 0; x < total; ++x) {
    const std::uint32_t root = kernels::cc_detail::root_of(comp, __atomic_load_n(&comp[x], __ATOMIC_RELAXED));
    __atomic_store_n(&comp[x], root, __ATOMIC_RELAXED);
    key[x] = x < n ? first + static_cast<std::uint64_t>(x) : ghost_global[x - n];
    __atomic_store_n(&several[root != x ? root : total], std::uint8_t{1}, __ATOMIC_RELAXED);
  }
  r.several.pop_back();
  // A root is its smallest own member or its smallest ghost (ghosts are in
  // global order); only ghosts of lower ranks, whose ids are below my block,
  // can hold a smaller id than it.
  const std::int64_t lower = g.ghost_from[g.rank];
  if (omp_get_max_threads() == 1) {  // a plain min: the atomic one costs 2 ms at kron20, 2 ranks
    for (std::int64_t h = 0; h < lower; ++h) key[comp[n + h]] = std::min(key[comp[n + h]], g.ghost_global[h]);
  } else {
    parallel::for_static<std::int64_t>(0, lower, [&](std::int64_t h) {
      parallel::write_min(key[comp[n + h]], g.ghost_global[h]);
    });
  }
  return r;
}

}  // namespace numagraph::dist
