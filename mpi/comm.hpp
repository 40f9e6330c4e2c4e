// MPI plumbing for the distributed Graph500 BFS: error checks, the rank
// layout (world, shared-memory node, node leaders, "stripes" of equal node
// rank) and node-shared word buffers (MPI-3 shared-memory windows).
//
// Vertex blocks are numbered node-major (all blocks of node 0, then node 1...)
// whatever the launcher's rank order, so that the blocks of one node form one
// contiguous range of every bitmap: a node's ranks can then share one copy of
// a bitmap and exchange it with other nodes as one piece (seed 001, Fig. 5b).
// Only MPI-3 standard calls are used, so Open MPI and MPICH both work.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace numagraph::dist {

// Throws ResourceError naming the call and MPI's message when rc != MPI_SUCCESS.
void check(int rc, const char* call);

struct Layout {
  MPI_Comm world = MPI_COMM_NULL;    // duplicate of MPI_COMM_WORLD
  MPI_Comm node = MPI_COMM_NULL;     // ranks of my (possibly simulated) node
  MPI_Comm leaders = MPI_COMM_NULL;  // node rank 0 of every node; NULL elsewhere
  MPI_Comm stripe = MPI_COMM_NULL;   // ranks with my node rank, one per node
  int rank = 0, size = 1;
  int node_rank = 0, node_size = 1;
  int node_index = 0, num_nodes = 1;
  bool uniform = true;                  // every node has node_size ranks
  std::vector<int> block_of_rank;       // world rank -> vertex block
  std::vector<int> rank_of_block;       // vertex block -> world rank
  std::vector<int> node_first_block;    // node -> its first block (size num_nodes + 1)
  int my_block = 0;
};

// Builds the layout. ranks_per_node > 0 splits each shared-memory node into
// simulated nodes of that many ranks (to exercise the inter-node paths on one
// machine); 0 uses the real nodes (MPI_COMM_TYPE_SHARED).
Layout make_layout(int ranks_per_node);
void free_layout(Layout& layout);

// A buffer of 64-bit words, either private to the rank or one copy shared by
// all ranks of the node (allocated by node rank 0 in a shared window).
class WordBuffer {
 public:
  WordBuffer() = default;
  WordBuffer(std::size_t words, bool shared, MPI_Comm node);
  WordBuffer(WordBuffer&& other) noexcept;
  WordBuffer& operator=(WordBuffer&& other) noexcept;
  WordBuffer(const WordBuffer&) = delete;
  WordBuffer& operator=(const WordBuffer&) = delete;
  ~WordBuffer();

  std::uint64_t* data() { return data_; }
  const std::uint64_t* data() const { return data_; }
  std::size_t size() const { return words_; }
  bool shared() const { return win_ != MPI_WIN_NULL; }
  // Makes every node rank's writes visible to the others: a memory barrier on
  // the window plus a node barrier (MPI-3 "unified" model recipe). Private
  // buffers need no synchronisation, so this is a no-op for them.
  void node_sync(MPI_Comm node);

 private:
  std::size_t words_ = 0;
  std::uint64_t* data_ = nullptr;
  std::vector<std::uint64_t> own_;
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace numagraph::dist
