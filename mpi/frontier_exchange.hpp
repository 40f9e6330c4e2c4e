// The bottom-up frontier bitmaps of the distributed BFS and their exchange
// (Lv et al., "NUMA-aware hybrid BFS on multi-socket clusters", seed 001):
//
//   in_queue   the whole current frontier, one bit per vertex, read-only
//              during a bottom-up step;
//   out_queue  this rank's block of the next frontier;
//   summary    one bit per `summary_bits` vertices of in_queue (set when any
//              of them is in the frontier), checked before in_queue because
//              it is small enough to stay in cache.
//
// exchange() turns everyone's out_queue into the next in_queue. Share modes:
//   none  every rank holds its own in_queue; one in-place MPI_Allgatherv over
//         all ranks (intra-node traffic included);
//   in    one in_queue per node in an MPI-3 shared window: each rank copies its
//         out_queue block into it, and only node leaders allgather between
//         nodes (the intra-node broadcast disappears);
//   all   in_queue and out_queue are both node-shared (double-buffered): ranks
//         write their next-frontier bits in place, so the copy disappears too.
// Allgather modes (--allgather) for private bitmaps (--share none):
//   flat      one MPI_Allgatherv over all ranks;
//   leader    the classic hierarchical baseline: node rank 0 gathers its
//             node's blocks (MPI_Gather), the leaders allgather between
//             nodes, each leader broadcasts the whole bitmap in its node;
//   parallel  one allgather per "stripe" (ranks of equal node rank): every
//             rank moves its own block to the other nodes at the same time,
//             using all of a node's links (Fig. 7); a second allgather inside
//             the node then completes the bitmap.
// With a node-shared in_queue the gather and the broadcast are the shared
// window itself, so flat and leader are both the leaders' allgather between
// nodes, and parallel is one stripe allgather into the shared copy.
// The summary is recomputed from in_queue after each exchange (by the node's
// ranks together when shared): cheaper than sending it.
#pragma once

#include <cstdint>
#include <vector>

#include "comm.hpp"
#include "dist_graph.hpp"

namespace numagraph::dist {

enum class Share { kNone, kIn, kAll };
enum class Allgather { kFlat, kLeader, kParallel };
// "flat", "leader", "parallel": the --allgather names.
const char* allgather_name(Allgather a);

class FrontierExchange {
 public:
  FrontierExchange(const Layout& layout, const Partition& part, Share share, Allgather allgather, int summary_bits);
  ~FrontierExchange();
  FrontierExchange(const FrontierExchange&) = delete;
  FrontierExchange& operator=(const FrontierExchange&) = delete;

  // This rank's block of the next frontier (block_words words; write them all).
  std::uint64_t* out_queue();
  // Collective over all ranks: the next frontier becomes in_queue and its summary.
  void exchange();
  const std::uint64_t* in_queue() const { return cur_->data(); }
  const std::uint64_t* summary() const { return summary_.data(); }
  int summary_shift() const { return summary_shift_; }
  // The mode in use: parallel asked for on nodes of unequal size runs flat.
  Allgather allgather() const { return allgather_; }

 private:
  void allgather(WordBuffer& buf);
  void leaders_allgather(std::uint64_t* d);
  void leader_allgather(std::uint64_t* d);
  void build_summary();

  const Layout& l_;
  Partition part_;
  Share share_;
  Allgather allgather_;
  int summary_shift_;
  WordBuffer a_, b_, summary_;
  WordBuffer* cur_;
  WordBuffer* next_;
  std::vector<std::uint64_t> own_out_;  // share in: the private out_queue
  MPI_Datatype stripe_block_ = MPI_DATATYPE_NULL;  // my block, repeated every node_size blocks
  MPI_Datatype node_blocks_ = MPI_DATATYPE_NULL;   // a rank's blocks on every node
};

}  // namespace numagraph::dist
