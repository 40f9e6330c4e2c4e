// What both ways of tying the ranks' local components together start from
// (components.cpp's label rounds, components_gathered.cpp): per root of a
// local component, the smallest global id among its members, and whether it
// has members besides itself.
#pragma once

#include <cstdint>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

struct LocalRoots {
  NumaArray<std::uint64_t> key;       // per root: its component's smallest global id, ghosts included
  std::vector<std::uint8_t> several;  // per root: 1 when another local index has it as root
};

// `comp`: each local index's root after local linking (own vertices and
// ghosts; a root is the smallest local index of its component).
inline LocalRoots local_roots(const DistCsr& g, const std::uint32_t* comp) {
  const std::int64_t n = g.local_n, total = g.local_total();
  LocalRoots r;
  r.key = NumaArray<std::uint64_t>::for_overwrite(static_cast<std::size_t>(total));
  r.several.assign(static_cast<std::size_t>(total), 0);
  std::uint64_t* const key = r.key.data();
  std::uint8_t* const several = r.several.data();
  parallel::for_static<std::int64_t>(0, total, [&](std::int64_t x) {
    if (comp[x] == x) key[x] = g.global_of(static_cast<std::uint32_t>(x));
    else __atomic_store_n(&several[comp[x]], std::uint8_t{1}, __ATOMIC_RELAXED);
  });
  // A root is its smallest own member or its smallest ghost (ghosts are in
  // global order); only ghosts of lower ranks, whose ids are below my block,
  // can hold a smaller id than it.
  parallel::for_static<std::int64_t>(0, g.ghost_from[g.rank], [&](std::int64_t h) {
    parallel::write_min(key[comp[n + h]], g.ghost_global[h]);
  });
  return r;
}

}  // namespace numagraph::dist
