#include "ghost_targets.hpp"

#include <algorithm>
#include <vector>

#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

void add_ghost_targets(DistCsr& g) {
  const std::int64_t n = g.local_n, ghosts = g.ghosts();
  const CSRArrays<std::uint32_t>& in = g.in_arcs();
  const bool weighted = g.weighted && in.weights.size() == in.neighbors.size();
  const auto own = static_cast<std::uint32_t>(n);
  const eid_t* const off = in.offsets.data();
  const std::uint32_t* const nb = in.neighbors.data();
  // Row ranges in order, one per task; each counts its arcs per ghost, so
  // that every range places its arcs after the ranges before it and each
  // ghost's list comes out ascending. One range when the counters (8 bytes
  // per ghost per range) would outweigh the arcs they place.
  const eid_t arcs = n > 0 ? off[n] : 0;
  std::int64_t ranges = parallel::max_threads();
  while (ranges > 1 && ranges * ghosts > static_cast<std::int64_t>(arcs)) --ranges;
  auto range_begin = [&](std::int64_t t) { return n * t / ranges; };
  std::vector<std::vector<eid_t>> at(static_cast<std::size_t>(ranges));
  parallel::for_dynamic(std::int64_t{0}, ranges, [&](std::int64_t t) {
    std::vector<eid_t>& count = at[static_cast<std::size_t>(t)];
    count.assign(static_cast<std::size_t>(ghosts), 0);
    for (std::int64_t r = range_begin(t); r < range_begin(t + 1); ++r)
      for (eid_t j = off[r]; j < off[r + 1]; ++j)
        if (nb[j] >= own) ++count[nb[j] - own];
  }, std::int64_t{1});
  CSRArrays<std::uint32_t>& out = g.ghost_targets;
  out.offsets = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(ghosts + 1));
  eid_t placed = 0;
  for (std::int64_t h = 0; h < ghosts; ++h) {  // counts become each range's first slot
    out.offsets[static_cast<std::size_t>(h)] = placed;
    for (auto& count : at) {
      const eid_t c = count[static_cast<std::size_t>(h)];
      count[static_cast<std::size_t>(h)] = placed;
      placed += c;
    }
  }
  out.offsets[static_cast<std::size_t>(ghosts)] = placed;
  out.neighbors = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(placed));
  if (weighted) out.weights = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(placed));
  std::uint32_t* const rows = out.neighbors.data();
  weight_t* const w = weighted ? out.weights.data() : nullptr;
  parallel::for_dynamic(std::int64_t{0}, ranges, [&](std::int64_t t) {
    eid_t* const next = at[static_cast<std::size_t>(t)].data();
    for (std::int64_t r = range_begin(t); r < range_begin(t + 1); ++r)
      for (eid_t j = off[r]; j < off[r + 1]; ++j)
        if (nb[j] >= own) {
          const eid_t k = next[nb[j] - own]++;
          rows[k] = static_cast<std::uint32_t>(r);
          if (w) w[k] = in.weights[static_cast<std::size_t>(j)];
        }
  }, std::int64_t{1});
}

}  // namespace numagraph::dist
