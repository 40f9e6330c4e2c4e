#include "ghost_targets.hpp"

#include <vector>

namespace numagraph::dist {

void add_ghost_targets(DistCsr& g) {
  const std::int64_t n = g.local_n, ghosts = g.ghosts();
  const CSRArrays<std::uint32_t>& in = g.in_arcs();
  const bool weighted = g.weighted && in.weights.size() == in.neighbors.size();
  const auto own = static_cast<std::uint32_t>(n);
  CSRArrays<std::uint32_t>& t = g.ghost_targets;
  t.offsets = NumaArray<eid_t>(static_cast<std::size_t>(ghosts + 1));  // zeroed: the counts
  eid_t* const at = t.offsets.data();
  const eid_t* const off = in.offsets.data();
  const std::uint32_t* const nb = in.neighbors.data();
  for (std::int64_t r = 0; r < n; ++r)
    for (eid_t j = off[r]; j < off[r + 1]; ++j)
      if (nb[j] >= own) ++at[nb[j] - own + 1];
  for (std::int64_t h = 0; h < ghosts; ++h) at[h + 1] += at[h];
  const eid_t arcs = at[ghosts];
  t.neighbors = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(arcs));
  if (weighted) t.weights = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(arcs));
  std::vector<eid_t> next(at, at + ghosts);
  // Rows ascending, so each ghost's list comes out ascending.
  for (std::int64_t r = 0; r < n; ++r)
    for (eid_t j = off[r]; j < off[r + 1]; ++j)
      if (nb[j] >= own) {
        const eid_t k = next[nb[j] - own]++;
        t.neighbors[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(r);
        if (weighted) t.weights[static_cast<std::size_t>(k)] = in.weights[static_cast<std::size_t>(j)];
      }
}

}  // namespace numagraph::dist
