#include "dist_bfs.hpp"

#include <omp.h>

#include <atomic>
#include <bit>
#include <climits>
#include <cstring>
#include <optional>

#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

std::uint64_t valid_bits(std::int64_t word, std::int64_t local_n) {
  const std::int64_t lo = word * 64;
  if (lo + 64 <= local_n) return ~0ULL;
  if (lo >= local_n) return 0;
  return (1ULL << (local_n - lo)) - 1;
}

}  // namespace

DistBfs::DistBfs(const Layout& l, const DistGraph& g, const BfsConfig& cfg)
    : l_(l),
      g_(g),
      cfg_(cfg),
      fx_(std::make_unique<FrontierExchange>(l, g.part, cfg.share, cfg.allgather, cfg.summary_bits)),
      parent_(static_cast<std::size_t>(g.local_n)),
      depth_(static_cast<std::size_t>(g.local_n)),
      visited_(static_cast<std::size_t>(g.part.block_words())) {
  const auto threads = static_cast<std::size_t>(parallel::max_threads());
  next_.resize(threads);
  send_.assign(threads, std::vector<std::vector<std::uint64_t>>(static_cast<std::size_t>(l.size)));
}

bool DistBfs::claim(std::int64_t v, std::int64_t parent, std::int32_t depth) {
  const std::uint64_t bit = 1ULL << (v & 63);
  std::atomic_ref<std::uint64_t> word(visited_[static_cast<std::size_t>(v >> 6)]);
  if (word.load(std::memory_order_relaxed) & bit) return false;
  if (word.fetch_or(bit, std::memory_order_relaxed) & bit) return false;
  parent_[v] = parent;
  depth_[v] = depth;
  return true;
}

DistBfs::Step DistBfs::top_down(std::int32_t depth) {
  const std::int64_t first = g_.first, local_n = g_.local_n;
  const auto queue_len = static_cast<std::int64_t>(queue_.size());
  const int p = l_.size;
  std::int64_t found = 0, edges = 0;
  std::optional<profile::InnerPhase> phase(std::in_place, "compute");
  std::optional<PhaseTimer> timer(std::in_place, times_, Phase::kTopDown);
#pragma omp parallel reduction(+ : found, edges)
  {
    auto& next = next_[static_cast<std::size_t>(omp_get_thread_num())];
    auto& send = send_[static_cast<std::size_t>(omp_get_thread_num())];
    next.clear();
    for (auto& s : send) s.clear();
#pragma omp for schedule(dynamic, 64)
    for (std::int64_t i = 0; i < queue_len; ++i) {
      const std::int64_t u = queue_[static_cast<std::size_t>(i)];
      const std::uint64_t ug = static_cast<std::uint64_t>(first + u);
      for (eid_t e = g_.offsets[u]; e < g_.offsets[u + 1]; ++e) {
        const std::int64_t v = static_cast<std::int64_t>(g_.adj[e]) - first;
        if (v >= 0 && v < local_n) {
          if (claim(v, static_cast<std::int64_t>(ug), depth)) {
            next.push_back(static_cast<std::uint32_t>(v));
            ++found;
            edges += g_.degree(v);
          }
        } else {
          send[static_cast<std::size_t>(l_.rank_of_block[g_.part.block_of(g_.adj[e])])].push_back(
              static_cast<std::uint64_t>(g_.adj[e]) << 32 | ug);
        }
      }
    }
  }
  // Pack the per-thread messages by destination and exchange them.
  timer.reset();
  phase.emplace("communication");
  wait_for_all();
  timer.emplace(times_, Phase::kExchange);
  std::vector<int> send_counts(static_cast<std::size_t>(p), 0), send_displs(static_cast<std::size_t>(p));
  std::vector<int> recv_counts(static_cast<std::size_t>(p)), recv_displs(static_cast<std::size_t>(p));
  std::int64_t total = 0;
  for (int d = 0; d < p; ++d) {
    send_displs[d] = static_cast<int>(total);
    for (const auto& t : send_) total += static_cast<std::int64_t>(t[static_cast<std::size_t>(d)].size());
    if (total > INT_MAX) throw ResourceError("a top-down step sends over 2^31 messages: use more ranks");
    send_counts[d] = static_cast<int>(total) - send_displs[d];
  }
  send_buf_.resize(static_cast<std::size_t>(total));
  for (int d = 0; d < p; ++d) {
    std::size_t at = static_cast<std::size_t>(send_displs[d]);
    for (const auto& t : send_) {
      const auto& s = t[static_cast<std::size_t>(d)];
      std::memcpy(send_buf_.data() + at, s.data(), s.size() * 8);
      at += s.size();
    }
  }
  check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, l_.world), "MPI_Alltoall");
  std::int64_t received = 0;
  for (int d = 0; d < p; ++d) {
    recv_displs[d] = static_cast<int>(received);
    received += recv_counts[d];
    if (received > INT_MAX) throw ResourceError("a top-down step receives over 2^31 messages: use more ranks");
  }
  recv_buf_.resize(static_cast<std::size_t>(received));
  check(MPI_Alltoallv(send_buf_.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, recv_buf_.data(),
                      recv_counts.data(), recv_displs.data(), MPI_UINT64_T, l_.world),
        "MPI_Alltoallv(frontier)");
  timer.emplace(times_, Phase::kTopDown);
  phase.emplace("compute");
#pragma omp parallel reduction(+ : found, edges)
  {
    auto& next = next_[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < received; ++i) {
      const std::uint64_t msg = recv_buf_[static_cast<std::size_t>(i)];
      const std::int64_t v = static_cast<std::int64_t>(msg >> 32) - first;
      if (claim(v, static_cast<std::int64_t>(msg & 0xffffffffULL), depth)) {
        next.push_back(static_cast<std::uint32_t>(v));
        ++found;
        edges += g_.degree(v);
      }
    }
  }
  queue_.clear();
  for (const auto& n : next_) queue_.insert(queue_.end(), n.begin(), n.end());
  return {found, edges};
}

DistBfs::Step DistBfs::bottom_up(std::int32_t depth) {
  const std::uint64_t* in = fx_->in_queue();
  const std::uint64_t* summary = fx_->summary();
  const int shift = fx_->summary_shift();
  std::uint64_t* out = fx_->out_queue();
  const std::int64_t words = g_.part.block_words(), local_n = g_.local_n;
  std::int64_t found = 0, edges = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : found, edges)
  for (std::int64_t w = 0; w < words; ++w) {
    std::uint64_t todo = ~visited_[static_cast<std::size_t>(w)] & valid_bits(w, local_n);
    std::uint64_t next = 0;
    while (todo) {
      const int b = std::countr_zero(todo);
      todo &= todo - 1;
      const std::int64_t v = w * 64 + b;
      for (eid_t e = g_.offsets[v]; e < g_.offsets[v + 1]; ++e) {
        const std::uint64_t u = g_.adj[e];
        const std::uint64_t s = u >> shift;
        if (!((summary[s >> 6] >> (s & 63)) & 1)) continue;
        if (!((in[u >> 6] >> (u & 63)) & 1)) continue;
        parent_[v] = static_cast<std::int64_t>(u);
        depth_[v] = depth;
        next |= 1ULL << b;
        ++found;
        edges += g_.degree(v);
        break;
      }
    }
    visited_[static_cast<std::size_t>(w)] |= next;
    out[w] = next;
  }
  return {found, edges};
}

void DistBfs::queue_to_bitmap() {
  std::uint64_t* out = fx_->out_queue();
  std::memset(out, 0, static_cast<std::size_t>(g_.part.block_words()) * 8);
  for (std::uint32_t v : queue_) out[v >> 6] |= 1ULL << (v & 63);
}

void DistBfs::bitmap_to_queue() {
  const std::uint64_t* out = fx_->out_queue();
  queue_.clear();
  for (std::int64_t w = 0; w < g_.part.block_words(); ++w)
    for (std::uint64_t bits = out[w]; bits; bits &= bits - 1)
      queue_.push_back(static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits)));
}

// The time until the slowest rank arrives, counted as waiting so that the
// collective after it measures only the transfer.
void DistBfs::wait_for_all() {
  PhaseTimer timer(times_, Phase::kWait);
  check(MPI_Barrier(l_.world), "MPI_Barrier");
}

void DistBfs::run(std::uint64_t root) {
  times_ = {};
  const std::int64_t first = g_.first, local_n = g_.local_n;
  parallel::for_static<std::int64_t>(0, local_n, [&](std::int64_t v) {
    parent_[v] = -1;
    depth_[v] = -1;
  });
  std::memset(visited_.data(), 0, visited_.bytes());
  queue_.clear();
  td_steps_ = bu_steps_ = 0;
  Step mine;
  const auto r = static_cast<std::int64_t>(root) - first;
  if (r >= 0 && r < local_n) {
    claim(r, static_cast<std::int64_t>(root), 0);
    queue_.push_back(static_cast<std::uint32_t>(r));
    mine = {1, g_.degree(r)};
  }
  std::int64_t totals[2] = {0, 0}, local[2] = {mine.vertices, mine.edges};
  std::optional<PhaseTimer> timer(std::in_place, times_, Phase::kSwitch);
  check(MPI_Allreduce(local, totals, 2, MPI_INT64_T, MPI_SUM, l_.world), "MPI_Allreduce");
  std::int64_t frontier = totals[0], frontier_edges = totals[1], previous = 0;
  std::int64_t unexplored = g_.global_arcs - frontier_edges;
  const auto n = static_cast<double>(g_.part.n);
  bool bottom_up_mode = false, in_bitmap = false;
  for (std::int32_t depth = 1; frontier > 0; ++depth) {
    if (!bottom_up_mode)
      bottom_up_mode = static_cast<double>(frontier_edges) > static_cast<double>(unexplored) / cfg_.alpha;
    else
      bottom_up_mode = !(static_cast<double>(frontier) < n / cfg_.beta && frontier < previous);
    timer.reset();
    Step s;
    // Inner phases (profile/current.hpp): the level, and in it the
    // computation, the communication and the direction switch.
    profile::InnerPhase level(bottom_up_mode ? "level bottom-up" : "level top-down");
    if (bottom_up_mode) {
      if (!in_bitmap) {
        profile::InnerPhase phase("direction switch");
        PhaseTimer t(times_, Phase::kSwitch);
        queue_to_bitmap();
      }
      {
        profile::InnerPhase phase("communication");
        wait_for_all();
        PhaseTimer t(times_, Phase::kExchange);
        fx_->exchange();
      }
      profile::InnerPhase phase("compute");
      PhaseTimer t(times_, Phase::kBottomUp);
      s = bottom_up(depth);
      in_bitmap = true;
      ++bu_steps_;
    } else {
      if (in_bitmap) {
        profile::InnerPhase phase("direction switch");
        PhaseTimer t(times_, Phase::kSwitch);
        bitmap_to_queue();
      }
      s = top_down(depth);
      in_bitmap = false;
      ++td_steps_;
    }
    local[0] = s.vertices;
    local[1] = s.edges;
    profile::InnerPhase phase("communication");
    wait_for_all();
    timer.emplace(times_, Phase::kSwitch);  // the reduction and the next decision
    check(MPI_Allreduce(local, totals, 2, MPI_INT64_T, MPI_SUM, l_.world), "MPI_Allreduce");
    previous = frontier;
    frontier = totals[0];
    frontier_edges = totals[1];
    unexplored -= frontier_edges;
  }
}

}  // namespace numagraph::dist
