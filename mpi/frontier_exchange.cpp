#include "frontier_exchange.hpp"

#include <bit>
#include <cstring>
#include <string>
#include <utility>

#include "numagraph/util/error.hpp"

namespace numagraph::dist {

const char* allgather_name(Allgather a) {
  switch (a) {
    case Allgather::kLeader:
      return "leader";
    case Allgather::kParallel:
      return "parallel";
    default:
      return "flat";
  }
}

FrontierExchange::FrontierExchange(const Layout& l, const Partition& part, Share share, Allgather allgather,
                                   int summary_bits)
    : l_(l),
      part_(part),
      share_(share),
      allgather_(allgather == Allgather::kParallel && !l.uniform ? Allgather::kFlat : allgather) {
  if (summary_bits < 64 || summary_bits > 4096 || !std::has_single_bit(static_cast<unsigned>(summary_bits)))
    throw UsageError("--summary-bits must be a power of two in 64..4096 (got " + std::to_string(summary_bits) + ")");
  summary_shift_ = std::countr_zero(static_cast<unsigned>(summary_bits));
  const bool shared = share != Share::kNone;
  const auto words = static_cast<std::size_t>(part.padded_words());
  a_ = WordBuffer(words, shared, l.node);
  if (share == Share::kIn) {
    own_out_.assign(static_cast<std::size_t>(part.block_words()), 0);
  } else {
    b_ = WordBuffer(words, share == Share::kAll, l.node);
  }
  const std::size_t summary_bits_total = (words * 64 + static_cast<std::size_t>(summary_bits) - 1) >> summary_shift_;
  summary_ = WordBuffer((summary_bits_total + 63) / 64, shared, l.node);
  cur_ = &a_;
  next_ = share == Share::kIn ? &a_ : &b_;

  if (allgather_ == Allgather::kParallel) {
    const int bw = static_cast<int>(part.block_words());
    MPI_Datatype block = MPI_DATATYPE_NULL, vec = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(bw, MPI_UINT64_T, &block), "MPI_Type_contiguous");
    check(MPI_Type_create_resized(block, 0, static_cast<MPI_Aint>(l.node_size) * bw * 8, &stripe_block_),
          "MPI_Type_create_resized");
    check(MPI_Type_vector(l.num_nodes, bw, l.node_size * bw, MPI_UINT64_T, &vec), "MPI_Type_vector");
    check(MPI_Type_create_resized(vec, 0, static_cast<MPI_Aint>(bw) * 8, &node_blocks_), "MPI_Type_create_resized");
    MPI_Type_commit(&stripe_block_);
    MPI_Type_commit(&node_blocks_);
    MPI_Type_free(&block);
    MPI_Type_free(&vec);
  }
}

FrontierExchange::~FrontierExchange() {
  if (stripe_block_ != MPI_DATATYPE_NULL) MPI_Type_free(&stripe_block_);
  if (node_blocks_ != MPI_DATATYPE_NULL) MPI_Type_free(&node_blocks_);
}

std::uint64_t* FrontierExchange::out_queue() {
  if (share_ == Share::kIn) return own_out_.data();
  return next_->data() + static_cast<std::size_t>(l_.my_block) * static_cast<std::size_t>(part_.block_words());
}

// Fills every block of `buf` from its owner, given that the blocks of the
// ranks sharing `buf` (the node when shared, else only this rank) are in place.
void FrontierExchange::allgather(WordBuffer& buf) {
  std::uint64_t* d = buf.data();
  const int bw = static_cast<int>(part_.block_words());
  const bool parallel = allgather_ == Allgather::kParallel;
  if (!buf.shared()) {
    if (parallel) {
      check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d + static_cast<std::size_t>(l_.node_rank) * bw, 1,
                          stripe_block_, l_.stripe),
            "MPI_Allgather(stripe)");
      check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, 1, node_blocks_, l_.node), "MPI_Allgather(node)");
      return;
    }
    if (allgather_ == Allgather::kLeader) {
      leader_allgather(d);
      return;
    }
    std::vector<int> counts(static_cast<std::size_t>(l_.size), bw), displs(static_cast<std::size_t>(l_.size));
    for (int r = 0; r < l_.size; ++r) displs[r] = l_.block_of_rank[r] * bw;
    check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, counts.data(), displs.data(), MPI_UINT64_T, l_.world),
          "MPI_Allgatherv(in_queue)");
    return;
  }
  buf.node_sync(l_.node);
  if (parallel) {
    check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d + static_cast<std::size_t>(l_.node_rank) * bw, 1,
                        stripe_block_, l_.stripe),
          "MPI_Allgather(stripe)");
  } else if (l_.leaders != MPI_COMM_NULL) {
    leaders_allgather(d);
  }
  buf.node_sync(l_.node);
}

// Node leaders only: every node's blocks, already in place at the leader,
// to every other leader.
void FrontierExchange::leaders_allgather(std::uint64_t* d) {
  if (l_.num_nodes < 2) return;
  const int bw = static_cast<int>(part_.block_words());
  std::vector<int> counts(static_cast<std::size_t>(l_.num_nodes)), displs(static_cast<std::size_t>(l_.num_nodes));
  for (int k = 0; k < l_.num_nodes; ++k) {
    counts[k] = (l_.node_first_block[k + 1] - l_.node_first_block[k]) * bw;
    displs[k] = l_.node_first_block[k] * bw;
  }
  check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, counts.data(), displs.data(), MPI_UINT64_T,
                       l_.leaders),
        "MPI_Allgatherv(leaders)");
}

// Private bitmaps, leader mode: gather the node's blocks (contiguous, in node
// rank order) at node rank 0, exchange between leaders, broadcast in the node.
void FrontierExchange::leader_allgather(std::uint64_t* d) {
  const int bw = static_cast<int>(part_.block_words());
  std::uint64_t* node_blocks = d + static_cast<std::size_t>(l_.node_first_block[l_.node_index]) * bw;
  if (l_.node_rank == 0) {
    check(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, node_blocks, bw, MPI_UINT64_T, 0, l_.node),
          "MPI_Gather(node)");
    leaders_allgather(d);
  } else {
    check(MPI_Gather(d + static_cast<std::size_t>(l_.my_block) * bw, bw, MPI_UINT64_T, nullptr, 0, MPI_DATATYPE_NULL,
                     0, l_.node),
          "MPI_Gather(node)");
  }
  check(MPI_Bcast(d, static_cast<int>(part_.padded_words()), MPI_UINT64_T, 0, l_.node), "MPI_Bcast(node)");
}

void FrontierExchange::exchange() {
  if (share_ == Share::kIn) {
    a_.node_sync(l_.node);  // every node rank has finished reading in_queue
    std::memcpy(a_.data() + static_cast<std::size_t>(l_.my_block) * own_out_.size(), own_out_.data(),
                own_out_.size() * 8);
    allgather(a_);
  } else {
    allgather(*next_);
    std::swap(cur_, next_);
  }
  build_summary();
}

void FrontierExchange::build_summary() {
  const auto total = static_cast<std::int64_t>(summary_.size());
  std::int64_t lo = 0, hi = total;
  if (summary_.shared()) {  // the node's ranks each summarise one slice
    lo = total * l_.node_rank / l_.node_size;
    hi = total * (l_.node_rank + 1) / l_.node_size;
  }
  const std::uint64_t* in = cur_->data();
  const std::int64_t words = part_.padded_words();
  const std::int64_t per_bit = std::int64_t{1} << (summary_shift_ - 6);  // in_queue words per summary bit
  std::uint64_t* s = summary_.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t sw = lo; sw < hi; ++sw) {
    std::uint64_t bits = 0;
    for (std::int64_t b = 0; b < 64; ++b) {
      const std::int64_t w0 = (sw * 64 + b) * per_bit;
      if (w0 >= words) break;
      std::uint64_t any = 0;
      for (std::int64_t w = w0; w < w0 + per_bit && w < words; ++w) any |= in[w];
      bits |= static_cast<std::uint64_t>(any != 0) << b;
    }
    s[sw] = bits;
  }
  summary_.node_sync(l_.node);
}

}  // namespace numagraph::dist
