#include "comm.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "numagraph/util/error.hpp"

namespace numagraph::dist {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw ResourceError(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(len)) +
                      " (check the MPI installation and the mpirun flags in docs/distributed.md)");
}

Layout make_layout(int ranks_per_node) {
  Layout l;
  check(MPI_Comm_dup(MPI_COMM_WORLD, &l.world), "MPI_Comm_dup");
  MPI_Comm_rank(l.world, &l.rank);
  MPI_Comm_size(l.world, &l.size);

  MPI_Comm shm = MPI_COMM_NULL;
  check(MPI_Comm_split_type(l.world, MPI_COMM_TYPE_SHARED, l.rank, MPI_INFO_NULL, &shm), "MPI_Comm_split_type");
  if (ranks_per_node > 0) {
    int r = 0;
    MPI_Comm_rank(shm, &r);
    check(MPI_Comm_split(shm, r / ranks_per_node, r, &l.node), "MPI_Comm_split(node)");
    MPI_Comm_free(&shm);
  } else {
    l.node = shm;
  }
  MPI_Comm_rank(l.node, &l.node_rank);
  MPI_Comm_size(l.node, &l.node_size);

  check(MPI_Comm_split(l.world, l.node_rank == 0 ? 0 : MPI_UNDEFINED, l.rank, &l.leaders), "MPI_Comm_split(leaders)");
  if (l.leaders != MPI_COMM_NULL) {
    MPI_Comm_rank(l.leaders, &l.node_index);
    MPI_Comm_size(l.leaders, &l.num_nodes);
  }
  MPI_Bcast(&l.node_index, 1, MPI_INT, 0, l.node);
  MPI_Bcast(&l.num_nodes, 1, MPI_INT, 0, l.node);

  // Every rank learns every rank's (node, node rank) and numbers blocks node-major.
  const int mine[2] = {l.node_index, l.node_rank};
  std::vector<int> info(2 * static_cast<std::size_t>(l.size));
  check(MPI_Allgather(mine, 2, MPI_INT, info.data(), 2, MPI_INT, l.world), "MPI_Allgather(layout)");
  std::vector<int> node_sizes(static_cast<std::size_t>(l.num_nodes), 0);
  for (int r = 0; r < l.size; ++r) ++node_sizes[static_cast<std::size_t>(info[2 * r])];
  l.node_first_block.assign(static_cast<std::size_t>(l.num_nodes) + 1, 0);
  for (int k = 0; k < l.num_nodes; ++k) l.node_first_block[k + 1] = l.node_first_block[k] + node_sizes[k];
  l.uniform = std::all_of(node_sizes.begin(), node_sizes.end(), [&](int s) { return s == node_sizes[0]; });
  l.block_of_rank.resize(static_cast<std::size_t>(l.size));
  l.rank_of_block.resize(static_cast<std::size_t>(l.size));
  for (int r = 0; r < l.size; ++r) {
    const int b = l.node_first_block[info[2 * r]] + info[2 * r + 1];
    l.block_of_rank[r] = b;
    l.rank_of_block[b] = r;
  }
  l.my_block = l.block_of_rank[l.rank];
  check(MPI_Comm_split(l.world, l.node_rank, l.node_index, &l.stripe), "MPI_Comm_split(stripe)");
  return l;
}

void free_layout(Layout& l) {
  for (MPI_Comm* c : {&l.stripe, &l.leaders, &l.node, &l.world})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

WordBuffer::WordBuffer(std::size_t words, bool shared, MPI_Comm node) : words_(words) {
  if (!shared) {
    own_.assign(words, 0);
    data_ = own_.data();
    return;
  }
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  const MPI_Aint bytes = node_rank == 0 ? static_cast<MPI_Aint>(std::max<std::size_t>(words, 1) * 8) : 0;
  void* base = nullptr;
  check(MPI_Win_allocate_shared(bytes, 8, MPI_INFO_NULL, node, &base, &win_), "MPI_Win_allocate_shared");
  MPI_Aint size = 0;
  int disp = 0;
  check(MPI_Win_shared_query(win_, 0, &size, &disp, &base), "MPI_Win_shared_query");
  data_ = static_cast<std::uint64_t*>(base);
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
  if (node_rank == 0) std::memset(data_, 0, words * 8);
  node_sync(node);
}

WordBuffer::WordBuffer(WordBuffer&& o) noexcept { *this = std::move(o); }

WordBuffer& WordBuffer::operator=(WordBuffer&& o) noexcept {
  std::swap(words_, o.words_);
  std::swap(data_, o.data_);
  std::swap(own_, o.own_);
  std::swap(win_, o.win_);
  return *this;
}

WordBuffer::~WordBuffer() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

void WordBuffer::node_sync(MPI_Comm node) {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_sync(win_);
  MPI_Barrier(node);
  MPI_Win_sync(win_);
}

}  // namespace numagraph::dist
