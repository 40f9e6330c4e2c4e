// NodeChunks: the threads of each NUMA node share out the node's own vertex
// range in chunks, through one cursor per node and phase. Work per vertex is
// uneven (a pull step stops early, Afforest skips the giant component), so a
// static split leaves threads idle; taking chunks from the node's own range
// keeps the balance and still makes every write local. A node without
// threads is served as served_parts() says.
// Each phase (a parallel sweep between two barriers) has its own cursors, so
// no reset is needed between phases inside one parallel region.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::engine {

class NodeChunks {
 public:
  NodeChunks(const Layout& layout, int phases, std::int64_t chunk)
      : layout_(&layout),
        chunk_(chunk),
        cursors_(static_cast<std::size_t>(phases) * static_cast<std::size_t>(layout.nodes)),
        served_(served_parts(layout)) {}

  // f(lo, hi, node) for the chunks thread `tid` claims in `phase`.
  template <typename F>
  void for_each(int phase, int tid, F&& f) {
    for (int node : served_[static_cast<std::size_t>(tid)]) {
      const std::int64_t lo = layout_->node_bounds[static_cast<std::size_t>(node)];
      const std::int64_t hi = layout_->node_bounds[static_cast<std::size_t>(node) + 1];
      auto& cursor = cursors_[static_cast<std::size_t>(phase) * static_cast<std::size_t>(layout_->nodes) +
                              static_cast<std::size_t>(node)]
                         .value;
      for (std::int64_t c; (c = lo + cursor.fetch_add(chunk_, std::memory_order_relaxed)) < hi;)
        f(c, std::min(hi, c + chunk_), node);
    }
  }

 private:
  const Layout* layout_;
  std::int64_t chunk_;
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursors_;
  std::vector<std::vector<int>> served_;
};

}  // namespace numagraph::engine
