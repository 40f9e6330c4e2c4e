// Distributed direction-optimizing BFS (Beamer et al., SC'12 "Direction-
// optimizing breadth-first search"; distributed form after Lv et al., seed 001).
//
// Each rank owns one vertex block (1-D partition) and OpenMP threads work
// inside it. Top-down steps (small frontiers) keep the frontier as a queue of
// local vertices: local neighbours are claimed with an atomic bit-or on the
// visited bitmap, remote ones are sent as (vertex, parent) words to their
// owners in one MPI_Alltoallv. Bottom-up steps (large frontiers) have every
// rank scan its unvisited vertices against the whole frontier bitmap
// (in_queue, checked through its summary) and write its block of the next
// frontier; FrontierExchange then assembles the next in_queue. The switch
// follows Beamer's rule: bottom-up when the frontier's edges exceed the
// unexplored edges / alpha, top-down again when the frontier shrinks below
// n / beta vertices. Each step ends with one MPI_Allreduce of the frontier's
// size and edge count. run() splits its time into phases (phase_times.hpp);
// a timed barrier before each collective measures the waiting for the slowest
// rank apart from the transfer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "comm.hpp"
#include "dist_graph.hpp"
#include "frontier_exchange.hpp"
#include "phase_times.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::dist {

struct BfsConfig {
  Share share = Share::kNone;
  Allgather allgather = Allgather::kFlat;
  int summary_bits = 256;  // vertices per summary bit (power of two, 64..4096)
  double alpha = 15;       // go bottom-up when frontier edges > unexplored edges / alpha
  double beta = 18;        // go top-down when the frontier shrinks below n / beta vertices
};

class DistBfs {
 public:
  DistBfs(const Layout& layout, const DistGraph& graph, const BfsConfig& config);

  // Collective: BFS from global vertex `root`. Afterwards parent()/depth()
  // hold this rank's vertices (global parent ids; -1 = unreached).
  void run(std::uint64_t root);
  const std::int64_t* parent() const { return parent_.data(); }
  const std::int32_t* depth() const { return depth_.data(); }
  int top_down_steps() const { return td_steps_; }
  int bottom_up_steps() const { return bu_steps_; }
  // The allgather in use (parallel falls back to flat on unequal nodes).
  Allgather allgather() const { return fx_->allgather(); }
  // This rank's time in each phase during the last run().
  const PhaseTimes& phase_times() const { return times_; }

 private:
  struct Step {
    std::int64_t vertices = 0;  // newly reached vertices
    std::int64_t edges = 0;     // their degree sum
  };
  bool claim(std::int64_t local, std::int64_t parent, std::int32_t depth);
  Step top_down(std::int32_t depth);
  Step bottom_up(std::int32_t depth);
  void queue_to_bitmap();
  void bitmap_to_queue();
  void wait_for_all();

  const Layout& l_;
  const DistGraph& g_;
  BfsConfig cfg_;
  std::unique_ptr<FrontierExchange> fx_;
  NumaArray<std::int64_t> parent_;
  NumaArray<std::int32_t> depth_;
  NumaArray<std::uint64_t> visited_;  // my block, one bit per vertex
  std::vector<std::uint32_t> queue_;  // top-down frontier, local ids
  std::vector<std::vector<std::uint32_t>> next_;                // per thread
  std::vector<std::vector<std::vector<std::uint64_t>>> send_;  // per thread, per rank
  std::vector<std::uint64_t> send_buf_, recv_buf_;
  int td_steps_ = 0, bu_steps_ = 0;
  PhaseTimes times_;
};

}  // namespace numagraph::dist
