#include "bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>

#include "exchange.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

namespace {

// A ghost reached by a top-down step, sent to its owner: the owner's local
// index of the target and the sender's local index of the parent (the owner
// adds the sender's first vertex). Both are below 2^32 (dist_csr.hpp).
struct Claim {
  std::uint32_t target;
  std::uint32_t parent;
};

// Sums of the level just expanded over all ranks: vertices reached and their out-arcs.
struct LevelTotals {
  std::int64_t vertices = 0, arcs = 0;
};

LevelTotals sum_totals(LevelTotals mine, const DistCsr& g, StepTimes& t) {
  wait_for_all(t, g.comm);
  Timed x(t.exchange);
  std::int64_t in[2] = {mine.vertices, mine.arcs}, out[2] = {0, 0};
  check(MPI_Allreduce(in, out, 2, MPI_INT64_T, MPI_SUM, g.comm), "MPI_Allreduce(BFS level)");
  return {out[0], out[1]};
}

std::size_t words_for(std::int64_t bits) { return static_cast<std::size_t>((bits + 63) / 64); }

bool test_bit(const std::uint64_t* words, std::int64_t i) { return (words[i >> 6] >> (i & 63)) & 1; }

void or_bits(std::uint64_t* words, std::int64_t at, std::uint64_t bits) {
  std::atomic_ref<std::uint64_t>(words[at >> 6]).fetch_or(bits << (at & 63), std::memory_order_relaxed);
  if ((at & 63) != 0 && (bits >> (64 - (at & 63))) != 0)
    std::atomic_ref<std::uint64_t>(words[(at >> 6) + 1]).fetch_or(bits >> (64 - (at & 63)), std::memory_order_relaxed);
}

// The rank whose run of `from` (size P + 1, ascending) holds item i.
int run_of(const std::vector<std::int64_t>& from, std::int64_t i) {
  return static_cast<int>(std::upper_bound(from.begin(), from.end(), i) - from.begin() - 1);
}

// Ghost bits of a frontier bitmap from their owners, over the mirror lists,
// packed 64 to a word.
//
// Why not an allgather of a global frontier bitmap (as mpi/dist_bfs.cpp
// does for Graph500)? Both cost the same every bottom-up step, whatever the
// frontier: the allgather brings every rank n / 8 bytes, the mirror exchange
// brings it ghosts / 8 bytes (plus a word per sending rank), and a rank's
// ghosts are at most the n - local_n vertices it does not own, usually far
// fewer (undirected Kronecker scale 18 on 2 ranks: 74 K ghosts per rank,
// 57 % of the other block; USA-road-d.NY on 2 ranks: 416 of 132 K). The work is alike
// too: the owner reads the frontier bit of each mirror, where the allgather
// would have each rank look up the bit of each ghost in the gathered bitmap.
// And the ghost bits land at their local indices, so the bottom-up probe is
// one bit test whether the in-neighbour is owned or a ghost.
class GhostFrontier {
 public:
  explicit GhostFrontier(const DistCsr& g) : g_(g) {
    send_word_from_.assign(static_cast<std::size_t>(g.ranks) + 1, 0);
    recv_word_from_.assign(static_cast<std::size_t>(g.ranks) + 1, 0);
    for (int r = 0; r < g.ranks; ++r) {
      send_word_from_[r + 1] = send_word_from_[r] + static_cast<std::int64_t>(words_for(g.mirror_from[r + 1] - g.mirror_from[r]));
      recv_word_from_[r + 1] = recv_word_from_[r] + static_cast<std::int64_t>(words_for(g.ghost_from[r + 1] - g.ghost_from[r]));
    }
    send_.resize(static_cast<std::size_t>(send_word_from_.back()));
    recv_.resize(static_cast<std::size_t>(recv_word_from_.back()));
    counts_.resize(4 * static_cast<std::size_t>(g.ranks));
    for (int r = 0; r < g.ranks; ++r) {
      counts_[r] = mpi_count(send_word_from_[r + 1] - send_word_from_[r], "the BFS frontier exchange");
      counts_[g.ranks + r] = mpi_count(send_word_from_[r], "the BFS frontier exchange");
      counts_[2 * g.ranks + r] = mpi_count(recv_word_from_[r + 1] - recv_word_from_[r], "the BFS frontier exchange");
      counts_[3 * g.ranks + r] = mpi_count(recv_word_from_[r], "the BFS frontier exchange");
    }
  }

  // `front` has local_total() bits; its own bits [0, local_n) are the
  // frontier. Afterwards its ghost bits are the owners' frontier bits too.
  void fill(std::uint64_t* front, StepTimes& t) {
    const DistCsr& g = g_;
    const std::int64_t local_n = g.local_n;
    {
      Timed c(t.compute);
      const auto send_words = static_cast<std::int64_t>(send_.size());
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < send_words; ++i) {
        const int r = run_of(send_word_from_, i);
        const std::int64_t lo = g.mirror_from[r] + 64 * (i - send_word_from_[r]);
        const std::int64_t hi = std::min(lo + 64, g.mirror_from[r + 1]);
        std::uint64_t word = 0;
        for (std::int64_t m = lo; m < hi; ++m)
          word |= static_cast<std::uint64_t>(test_bit(front, g.mirror_local[static_cast<std::size_t>(m)])) << (m - lo);
        send_[static_cast<std::size_t>(i)] = word;
      }
    }
    wait_for_all(t, g.comm);
    {
      Timed x(t.exchange);
      const int p = g.ranks;
      check(MPI_Alltoallv(send_.data(), counts_.data(), counts_.data() + p, MPI_UINT64_T, recv_.data(),
                          counts_.data() + 2 * p, counts_.data() + 3 * p, MPI_UINT64_T, g.comm),
            "MPI_Alltoallv(BFS frontier)");
    }
    Timed c(t.compute);
    // Clear the ghost bits (those sharing the last own word too), then OR in
    // each owner's run at its ghosts' local indices.
    const std::size_t own_words = static_cast<std::size_t>(local_n >> 6), all_words = words_for(g.local_total());
    if ((local_n & 63) != 0 && own_words < all_words) front[own_words] &= (1ULL << (local_n & 63)) - 1;
    for (std::size_t w = own_words + ((local_n & 63) != 0); w < all_words; ++w) front[w] = 0;
    const auto recv_words = static_cast<std::int64_t>(recv_.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < recv_words; ++i) {
      const std::uint64_t word = recv_[static_cast<std::size_t>(i)];
      if (word == 0) continue;
      const int r = run_of(recv_word_from_, i);
      or_bits(front, local_n + g.ghost_from[r] + 64 * (i - recv_word_from_[r]), word);
    }
  }

 private:
  const DistCsr& g_;
  std::vector<std::int64_t> send_word_from_, recv_word_from_;  // per rank: first packed word (size P + 1)
  std::vector<std::uint64_t> send_, recv_;
  std::vector<int> counts_;  // send counts, send offsets, receive counts, receive offsets (P each)
};

struct alignas(64) ThreadBuffers {
  std::vector<std::uint32_t> next;             // own vertices claimed this level
  std::vector<std::vector<Claim>> to_owner;    // ghosts reached, by owner rank
};

class Search {
 public:
  Search(const DistCsr& g, const kernels::BfsOptions& o, StepTimes& t, DistBfsResult& r)
      : g_(g), o_(o), t_(t), r_(r), ghosts_(g) {
    const std::int64_t n = g.local_n;
    r.depth.assign(static_cast<std::size_t>(n), -1);
    r.parent.assign(static_cast<std::size_t>(n), -1);
    r.top_down_steps = r.bottom_up_steps = 0;
    ghost_sent_.assign(static_cast<std::size_t>(g.ghosts()), 0);
    front_.assign(words_for(g.local_total()), 0);
    next_.assign(front_.size(), 0);
    threads_.resize(static_cast<std::size_t>(parallel::max_threads()));
    for (auto& b : threads_) b.to_owner.resize(static_cast<std::size_t>(g.ranks));
    to_owner_.resize(static_cast<std::size_t>(g.ranks));
  }

  void run(std::int64_t root) {
    const DistCsr& g = g_;
    LevelTotals mine;
    if (g.owns(static_cast<std::uint64_t>(root))) {
      const std::int64_t v = root - g.first;
      r_.parent[v] = root;
      r_.depth[v] = 0;
      queue_.push_back(static_cast<std::uint32_t>(v));
      mine = {1, g.out_degree(v)};
    }
    LevelTotals level = sum_totals(mine, g, t_);
    std::int64_t frontier_arcs = mine.arcs;  // out-arcs of my part of the frontier
    std::int64_t unexplored = g.global_arcs - level.arcs;
    const double n = static_cast<double>(g.n);
    auto go_bottom_up = [&](std::int64_t arcs, std::int64_t left) {
      return static_cast<double>(arcs) > static_cast<double>(left) / o_.alpha &&
             static_cast<double>(arcs) >= n / o_.beta;
    };
    bool bottom_up = false;
    for (std::int32_t depth = 1; level.vertices > 0; ++depth) {
      if (!bottom_up && go_bottom_up(level.arcs, unexplored)) {
        bottom_up = true;
        bitmap_from_queue();
      } else if (bottom_up && static_cast<double>(level.vertices) < n / o_.beta) {
        bottom_up = false;
        queue_from_bitmap();
      }
      if (bottom_up) {
        ++r_.bottom_up_steps;
        ghosts_.fill(front_.data(), t_);
        mine = bottom_up_step(depth);
        front_.swap(next_);
      } else {
        ++r_.top_down_steps;
        mine = top_down_step(depth, frontier_arcs);
      }
      level = sum_totals(mine, g, t_);
      frontier_arcs = mine.arcs;
      if (!bottom_up) unexplored -= level.arcs;  // as the flat kernel: only top-down levels explore
    }
  }

 private:
  bool claim(std::int64_t v, std::int64_t parent, std::int32_t depth) {
    if (parallel::load_relaxed(r_.parent[v]) >= 0) return false;
    if (!parallel::compare_and_swap(r_.parent[v], std::int64_t{-1}, parent)) return false;
    r_.depth[v] = depth;
    return true;
  }

  // Expands queue_[begin, end) into b: own targets claimed, ghost targets
  // queued for their owners.
  void expand(ThreadBuffers& b, std::int64_t begin, std::int64_t end, std::int32_t depth, std::int64_t& found,
              std::int64_t& arcs) {
    const DistCsr& g = g_;
    const std::int64_t local_n = g.local_n;
    const eid_t* off = g.out.offsets.data();
    const std::uint32_t* nbr = g.out.neighbors.data();
    for (std::int64_t i = begin; i < end; ++i) {
      const std::uint32_t u = queue_[static_cast<std::size_t>(i)];
      const std::int64_t parent = g.first + u;
      for (eid_t e = off[u]; e < off[u + 1]; ++e) {
        const std::uint32_t v = nbr[e];
        if (v < local_n) {
          if (claim(v, parent, depth)) {
            b.next.push_back(v);
            ++found;
            arcs += g.out_degree(v);
          }
          continue;
        }
        const std::int64_t ghost = v - local_n;
        std::uint8_t& sent = ghost_sent_[static_cast<std::size_t>(ghost)];
        if (parallel::load_relaxed(sent) || std::atomic_ref<std::uint8_t>(sent).exchange(1, std::memory_order_relaxed))
          continue;
        const int owner = run_of(g.ghost_from, ghost);
        const auto target = static_cast<std::uint32_t>(static_cast<std::int64_t>(g.ghost_global[ghost]) - g.blocks.begin[owner]);
        b.to_owner[static_cast<std::size_t>(owner)].push_back({target, u});
      }
    }
  }

  // Claims got.items[begin, end): vertices of mine that other ranks reached.
  void claim_received(ThreadBuffers& b, const Received<Claim>& got, std::int64_t begin, std::int64_t end,
                      std::int32_t depth, std::int64_t& found, std::int64_t& arcs) {
    for (std::int64_t i = begin; i < end; ++i) {
      const Claim m = got.items[static_cast<std::size_t>(i)];
      const int from = run_of(got.from, i);
      if (claim(m.target, g_.blocks.begin[from] + m.parent, depth)) {
        b.next.push_back(m.target);
        ++found;
        arcs += g_.out_degree(m.target);
      }
    }
  }

  // A frontier with fewer out-arcs than this (and fewer claims received) is
  // expanded by the calling thread alone, as the shared kernel does
  // (kernels::kSerialEdges): road graphs have hundreds of thin levels, where
  // waking the team costs more than the arcs.
  static constexpr std::int64_t kSerialArcs = 256;

  LevelTotals top_down_step(std::int32_t depth, std::int64_t frontier_arcs) {
    const DistCsr& g = g_;
    const auto queue_len = static_cast<std::int64_t>(queue_.size());
    std::int64_t found = 0, arcs = 0;
    {
      Timed c(t_.compute);
      for (auto& b : threads_) {
        b.next.clear();
        for (auto& s : b.to_owner) s.clear();
      }
      if (frontier_arcs < kSerialArcs) {
        expand(threads_[0], 0, queue_len, depth, found, arcs);
      } else {
#pragma omp parallel reduction(+ : found, arcs)
        {
          ThreadBuffers& b = threads_[static_cast<std::size_t>(omp_get_thread_num())];
          constexpr std::int64_t kChunk = 64;
#pragma omp for schedule(dynamic, 1)
          for (std::int64_t i = 0; i < queue_len; i += kChunk)
            expand(b, i, std::min(i + kChunk, queue_len), depth, found, arcs);
        }
      }
      for (int r = 0; r < g.ranks; ++r) {
        auto& s = to_owner_[static_cast<std::size_t>(r)];
        s.clear();
        for (const auto& b : threads_) s.insert(s.end(), b.to_owner[r].begin(), b.to_owner[r].end());
      }
    }
    wait_for_all(t_, g.comm);
    Received<Claim> got;
    {
      Timed x(t_.exchange);
      got = exchange(to_owner_, g.comm, "the BFS top-down step");
    }
    Timed c(t_.compute);
    const auto received = static_cast<std::int64_t>(got.items.size());
    if (received < kSerialArcs) {
      claim_received(threads_[0], got, 0, received, depth, found, arcs);
    } else {
#pragma omp parallel reduction(+ : found, arcs)
      {
        ThreadBuffers& b = threads_[static_cast<std::size_t>(omp_get_thread_num())];
        const std::int64_t t = omp_get_thread_num(), team = omp_get_num_threads();
        claim_received(b, got, received * t / team, received * (t + 1) / team, depth, found, arcs);
      }
    }
    queue_.clear();
    for (const auto& b : threads_) queue_.insert(queue_.end(), b.next.begin(), b.next.end());
    return {found, arcs};
  }

  // Every unvisited own vertex looks for a parent among its in-neighbours in
  // front_ (ghost bits filled); the new frontier's own bits go to next_. A
  // thread takes whole words of 64 vertices, so it writes next_ alone.
  LevelTotals bottom_up_step(std::int32_t depth) {
    Timed c(t_.compute);
    const DistCsr& g = g_;
    const std::int64_t local_n = g.local_n;
    const auto own_words = static_cast<std::int64_t>(words_for(local_n));
    const auto& in = g.in_arcs();
    const eid_t* off = in.offsets.data();
    const std::uint32_t* nbr = in.neighbors.data();
    const std::uint64_t* front = front_.data();
    std::uint64_t* next = next_.data();
    std::int64_t* parent = r_.parent.data();
    std::int32_t* dep = r_.depth.data();
    std::int64_t found = 0, arcs = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : found, arcs)
    for (std::int64_t w = 0; w < own_words; ++w) {
      std::uint64_t word = 0;
      for (std::int64_t v = w * 64, end = std::min(v + 64, local_n); v < end; ++v) {
        if (parent[v] >= 0) continue;
        for (eid_t e = off[v]; e < off[v + 1]; ++e) {
          const std::uint32_t u = nbr[e];
          if (!test_bit(front, u)) continue;
          parent[v] = static_cast<std::int64_t>(g.global_of(u));
          dep[v] = depth;
          word |= 1ULL << (v & 63);
          ++found;
          arcs += g.out_degree(v);
          break;
        }
      }
      next[w] = word;
    }
    return {found, arcs};
  }

  void bitmap_from_queue() {
    Timed c(t_.compute);
    std::fill(front_.begin(), front_.end(), 0);
    const auto len = static_cast<std::int64_t>(queue_.size());
    std::uint64_t* front = front_.data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < len; ++i) or_bits(front, queue_[static_cast<std::size_t>(i)], 1);
  }

  void queue_from_bitmap() {
    Timed c(t_.compute);
    queue_.clear();
    const auto own_words = static_cast<std::int64_t>(words_for(g_.local_n));
    for (std::int64_t w = 0; w < own_words; ++w)
      for (std::uint64_t bits = front_[static_cast<std::size_t>(w)]; bits; bits &= bits - 1) {
        const std::int64_t v = w * 64 + std::countr_zero(bits);
        if (v < g_.local_n) queue_.push_back(static_cast<std::uint32_t>(v));
      }
  }

  const DistCsr& g_;
  const kernels::BfsOptions& o_;
  StepTimes& t_;
  DistBfsResult& r_;
  GhostFrontier ghosts_;
  std::vector<std::uint8_t> ghost_sent_;        // per ghost: already sent to its owner
  std::vector<std::uint32_t> queue_;            // top-down frontier (own local indices)
  std::vector<std::uint64_t> front_, next_;     // bottom-up frontiers, local_total() bits
  std::vector<ThreadBuffers> threads_;
  std::vector<std::vector<Claim>> to_owner_;    // this level's claims, by owner rank
};

}  // namespace

DistBfsResult bfs(const DistCsr& g, std::int64_t root, const kernels::BfsOptions& o, StepTimes& t) {
  DistBfsResult r;
  Search s(g, o, t, r);
  s.run(root);
  return r;
}

}  // namespace numagraph::dist
