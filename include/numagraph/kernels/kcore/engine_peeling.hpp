// k-core decomposition on the NUMA engine: the level-synchronous peeling of
// peeling.hpp, with every write to a vertex made by the node that owns it.
//
// The degree and coreness arrays are partitioned as the layout splits the
// vertices. Each thread keeps the remaining vertices of its own range in a
// list of its own (allocated by the thread, so on its node) and scans it at
// every level, reading degrees from its node's pull part. A round of peeling
// is one edge_map over the partitioned graph: on a sparse round every node
// reads the list of peeled vertices and follows its push part, so each
// decrement lands on a vertex the node owns (a local random write; the other
// nodes' lists are read in order); on a dense round every node pulls over its
// own vertices' edges from the replicated bitmap of peeled vertices, and stops
// a vertex as soon as it falls to the level. Every variant finds the same
// vertices in the same rounds, so the coreness is the same on every topology.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/edge_map.hpp"
#include "numagraph/engine/mode.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/kcore/options.hpp"
#include "numagraph/numa/roles.hpp"

namespace numagraph::kernels {

namespace kcore_detail {

// One round's update for edge_map: a peeled neighbour s lowers d's degree;
// the decrement that brings d down to level k peels d in the next round.
template <typename V>
struct Peel {
  std::int32_t* deg;
  std::int32_t* core;
  std::int32_t k;

  bool cond(V d) const { return __atomic_load_n(&deg[d], __ATOMIC_RELAXED) > k; }
  // Pull: d's owner is the only writer.
  bool update(V, V d) {
    const std::int32_t left = deg[d] - 1;
    __atomic_store_n(&deg[d], left, __ATOMIC_RELAXED);
    if (left != k) return false;
    core[d] = k;
    return true;
  }
  // Push: the threads of d's node decrement it concurrently.
  bool update_atomic(V, V d) {
    if (__atomic_fetch_sub(&deg[d], 1, __ATOMIC_RELAXED) != k + 1) return false;
    core[d] = k;
    return true;
  }
};

struct ScanSums {
  std::int64_t found = 0;
  eid_t degrees = 0;  // of the found vertices: edge_map's direction rule needs it
  std::int32_t lowest = std::numeric_limits<std::int32_t>::max();  // smallest degree kept
};

}  // namespace kcore_detail

template <typename V, typename Acc = engine::NoAccounting>
KcoreResult<V> core_numbers_numa(const engine::PartitionedGraph<V>& pg, const KcoreOptions&, engine::EngineMode mode,
                                 Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const std::int64_t n = pg.num_vertices();
  const auto threads = static_cast<std::size_t>(layout.threads);
  const auto place = numa::Placement::partitioned(std::make_shared<const std::vector<std::int64_t>>(layout.node_bounds));
  KcoreResult<V> r;
  r.core = NumaArray<std::int32_t>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("core", place));
  auto deg = NumaArray<std::int32_t>::for_overwrite(static_cast<std::size_t>(n),
      numa::placement_for("core", place));
  std::vector<std::vector<V>> remaining(threads), found(threads);
  std::vector<parallel::Padded<kcore_detail::ScanSums>> sums(threads);
  EdgeMapper<V> mapper(pg, mode);
  EdgeMapOptions rounds_opt;
  std::int32_t k = 0;
  bool first = true;

  // Splits each thread's remaining vertices into those of degree <= k (peeled
  // at level k) and the rest; the first scan also sets up the arrays.
  auto scan = [&] {
    run_on_threads(layout, [&](int tid) {
      auto& mine = remaining[static_cast<std::size_t>(tid)];
      auto& peeled = found[static_cast<std::size_t>(tid)];
      kcore_detail::ScanSums s;
      if (first) {
        std::int64_t own_vertices = 0;
        for (const auto& [lo, hi] : layout.thread_ranges[static_cast<std::size_t>(tid)]) own_vertices += hi - lo;
        mine.reserve(static_cast<std::size_t>(own_vertices));
        for (const auto& [lo, hi] : layout.thread_ranges[static_cast<std::size_t>(tid)]) {
          const NodeEdges<V>& own = pg.pull(layout.node_of_vertex(lo));
          for (std::int64_t v = lo; v < hi; ++v) {
            deg[v] = static_cast<std::int32_t>(own.end(v) - own.begin(v));
            r.core[v] = -1;
            mine.push_back(static_cast<V>(v));
          }
          if constexpr (Acc::enabled) {
            acc.count(tid, layout.node_of_vertex(lo), Pattern::kSequential, hi - lo + 1);  // offsets
            acc.count_vertex(tid, lo, Pattern::kSequential, 2 * (hi - lo));               // deg, core
          }
        }
      }
      std::size_t kept = 0;
      for (const V v : mine) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);
        if (r.core[v] >= 0) continue;
        if (deg[v] <= k) {
          r.core[v] = k;
          peeled.push_back(v);
          ++s.found;
          const NodeEdges<V>& own = pg.pull(layout.node_of_vertex(v));
          s.degrees += own.end(v) - own.begin(v);
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);  // its offsets
        } else {
          mine[kept++] = v;
          s.lowest = std::min(s.lowest, deg[v]);
        }
      }
      mine.resize(kept);
      sums[static_cast<std::size_t>(tid)].value = s;
    });
    first = false;
  };

  for (;;) {
    scan();
    kcore_detail::ScanSums total;
    for (const auto& s : sums) {
      total.found += s.value.found;
      total.degrees += s.value.degrees;
      total.lowest = std::min(total.lowest, s.value.lowest);
    }
    if (total.found == 0) {
      if (total.lowest == std::numeric_limits<std::int32_t>::max()) break;  // nothing left
      k = total.lowest;  // nobody has k left: jump to the smallest remaining degree
      continue;
    }
    r.max_core = k;
    Frontier<V> f;
    concatenate(found, f.list);
    f.size = total.found;
    f.out_degrees = total.degrees;
    kcore_detail::Peel<V> peel{deg.data(), r.core.data(), k};
    while (!f.empty()) {
      ++r.rounds;
      Frontier<V> next = mapper.edge_map(f, peel, rounds_opt, acc);
      if (!f.dense) mapper.recycle(std::move(f.list));
      f = std::move(next);
    }
    ++k;
  }
  return r;
}

}  // namespace numagraph::kernels
