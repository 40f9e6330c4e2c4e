#include "sssp.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "exchange.hpp"
#include "numagraph/kernels/sssp/buckets.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

double choose_delta(const DistCsr& g, int threads) {
  if (g.global_arcs == 0) return 1;
  if (!g.weighted) return kernels::kEqualWeightLevels;
  const std::int64_t arcs = g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]);
  const weight_t* w = g.out.weights.data();
  double total = 0, lightest = std::numeric_limits<double>::infinity(), heaviest = 0;
  std::int64_t zero = 0;
#pragma omp parallel for schedule(static) reduction(+ : total) reduction(min : lightest) reduction(max : heaviest, zero)
  for (std::int64_t i = 0; i < arcs; ++i) {
    const double x = static_cast<double>(w[i]);
    total += x;
    if (x > 0 && x < lightest) lightest = x;
    heaviest = std::max(heaviest, x);
    if (x == 0) zero = 1;
  }
  total = sum_all(total, g.comm);
  lightest = -max_all(-lightest, g.comm);
  heaviest = max_all(heaviest, g.comm);
  zero = max_all(zero, g.comm);
  if (!(total > 0)) return 1;  // every weight 0: any width gives the same buckets
  if (zero == 0 && lightest == heaviest) return kernels::kEqualWeightLevels * lightest;
  return kernels::delta_from_summary(total / static_cast<double>(g.global_arcs),
                                     std::isfinite(lightest) ? lightest : 0,
                                     static_cast<double>(g.global_arcs) / static_cast<double>(g.n), threads);
}

namespace {

using kernels::sssp_detail::BucketBins;
using kernels::sssp_detail::bucket_of;
using kernels::sssp_detail::kNoBucket;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A queued own vertex and the distance it was queued with (exact: an entry
// whose vertex holds a shorter distance now is stale and skipped).
struct Entry {
  std::uint32_t vertex;
  std::uint32_t unused;
  double dist;
};

// A relaxation of a ghost, sent to its owner.
struct Relaxation {
  std::uint32_t target;  // the owner's local index
  std::uint32_t unused;
  double dist;
};

// Frontiers below this many entries are relaxed by the calling thread alone:
// waking the team costs more than the few arcs (road graphs' rounds are small).
constexpr std::int64_t kTeamEntries = 256;

// A round ends, and its ghost relaxations go out, once a pass over the
// bucket leaves this many entries or more in it (with more than one rank).
// Draining the whole bucket first would serialise the ranks where a bucket
// spans the graph: on an unweighted Kronecker graph (one bucket of 32
// levels) the rank holding the source explored all it could reach on its
// own while the other waited, then the other did the same, round after
// round. Small refills (road graphs' buckets) are still drained at once.
constexpr std::int64_t kHandOffEntries = 4096;

enum class Arcs { kAll, kLight, kHeavy };

struct alignas(64) Worker {
  BucketBins<Entry> bins;                        // own vertices this thread queued, by bucket
  std::vector<Entry> part;                       // its share of the frontier being relaxed
  std::vector<Entry> fused;                      // its own bin being drained alone (bin fusion)
  std::vector<std::uint32_t> taken;              // light/heavy: own vertices taken from the current bucket
  std::vector<std::vector<Relaxation>> to_owner; // ghost relaxations, by owner rank
};

class Search {
 public:
  Search(const DistCsr& g, double delta, bool split, StepTimes& t, DistSsspResult& r)
      : g_(g), delta_(delta), inverse_delta_(1 / delta), split_(split), hand_off_(g.ranks > 1), t_(t), r_(r) {
    r.dist.assign(static_cast<std::size_t>(g.local_n), kInfinity);
    r.delta = delta;
    r.rounds = 0;
    ghost_best_.assign(static_cast<std::size_t>(g.ghosts()), kInfinity);
    ghost_owner_.resize(static_cast<std::size_t>(g.ghosts()));
    ghost_target_.resize(ghost_owner_.size());
    for (int o = 0; o < g.ranks; ++o)
      for (std::int64_t k = g.ghost_from[o]; k < g.ghost_from[o + 1]; ++k) {
        ghost_owner_[k] = o;
        ghost_target_[k] = static_cast<std::uint32_t>(static_cast<std::int64_t>(g.ghost_global[k]) - g.blocks.begin[o]);
      }
    if (split) taken_flag_.assign(static_cast<std::size_t>(g.local_n), 0);
    workers_ = std::vector<Worker>(static_cast<std::size_t>(parallel::max_threads()));
    for (auto& w : workers_) w.to_owner.resize(static_cast<std::size_t>(g.ranks));
    to_owner_.resize(static_cast<std::size_t>(g.ranks));
  }

  void run(std::int64_t source) {
    if (g_.owns(static_cast<std::uint64_t>(source))) {
      const auto s = static_cast<std::uint32_t>(source - g_.first);
      r_.dist[s] = 0;
      workers_[0].bins[0].push_back({s, 0, 0.0});
    }
    std::size_t phase = 0;  // the bucket of the last light round
    for (;;) {
      // The next bucket anywhere, and whether any rank still owes heavy
      // relaxations for the last one: one reduction (min of both).
      std::int64_t mine[2] = {std::numeric_limits<std::int64_t>::max(), 1}, all[2];
      {
        Timed c(t_.compute);
        for (const auto& w : workers_) {
          const std::size_t b = w.bins.first_nonempty(phase);
          if (b != kNoBucket) mine[0] = std::min(mine[0], static_cast<std::int64_t>(b));
          if (!w.taken.empty()) mine[1] = 0;
        }
      }
      wait_for_all(t_, g_.comm);
      {
        Timed x(t_.exchange);
        check(MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MIN, g_.comm), "MPI_Allreduce(SSSP bucket)");
      }
      const bool none_left = all[0] == std::numeric_limits<std::int64_t>::max();
      if (all[1] == 0 && (none_left || static_cast<std::size_t>(all[0]) != phase)) {
        heavy_round(phase);  // the last bucket is empty everywhere: its heavy arcs, once
      } else if (none_left) {
        break;
      } else {
        phase = static_cast<std::size_t>(all[0]);
        light_round(phase);
      }
      ++r_.rounds;
    }
  }

 private:
  // Relaxes the arcs of kind A of own vertex u at distance du; improved own
  // vertices go to worker w's bins (never before `bucket`), improved ghosts to
  // its messages.
  template <Arcs A, bool Weighted>
  void relax(Worker& w, std::uint32_t u, double du, std::size_t bucket) {
    const eid_t* off = g_.out.offsets.data();
    const std::uint32_t* nbr = g_.out.neighbors.data();
    const weight_t* wt = g_.out.weights.data();
    const std::int64_t local_n = g_.local_n;
    double* dist = r_.dist.data();
    for (eid_t e = off[u], end = off[u + 1]; e < end; ++e) {
      const double weight = Weighted ? static_cast<double>(wt[e]) : 1.0;
      if constexpr (A == Arcs::kLight) {
        if (weight > delta_) continue;
      } else if constexpr (A == Arcs::kHeavy) {
        if (weight <= delta_) continue;
      }
      const double nd = du + weight;
      const std::uint32_t v = nbr[e];
      if (v < local_n) {
        if (nd < parallel::load_relaxed(dist[v]) && parallel::write_min(dist[v], nd))
          w.bins[std::max(bucket, bucket_of(nd, inverse_delta_))].push_back({v, 0, nd});
      } else {
        const std::size_t k = v - static_cast<std::size_t>(local_n);
        if (nd < parallel::load_relaxed(ghost_best_[k]) && parallel::write_min(ghost_best_[k], nd))
          w.to_owner[static_cast<std::size_t>(ghost_owner_[k])].push_back({ghost_target_[k], 0, nd});
      }
    }
  }

  template <Arcs A>
  void relax_any(Worker& w, std::uint32_t u, double du, std::size_t bucket) {
    if (g_.weighted)
      relax<A, true>(w, u, du, bucket);
    else
      relax<A, false>(w, u, du, bucket);
  }

  // Runs take(worker, entry) over the workers' parts side by side, on the
  // team or, for few entries, on the calling thread.
  template <typename Take>
  void over_parts(Take&& take) {
    start_.assign(workers_.size() + 1, 0);
    for (std::size_t k = 0; k < workers_.size(); ++k)
      start_[k + 1] = start_[k] + static_cast<std::int64_t>(workers_[k].part.size());
    const std::int64_t total = start_.back();
    auto at = [&](std::int64_t i, Worker& w) {
      const auto k = static_cast<std::size_t>(std::upper_bound(start_.begin(), start_.end(), i) - start_.begin() - 1);
      take(w, workers_[k].part[static_cast<std::size_t>(i - start_[k])]);
    };
    if (total < kTeamEntries) {
      Worker& w = workers_[0];
      for (std::int64_t i = 0; i < total; ++i) at(i, w);
      return;
    }
#pragma omp parallel
    {
      Worker& w = workers_[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 64)
      for (std::int64_t i = 0; i < total; ++i) at(i, w);
    }
  }

  // Relaxes the bucket's arcs (light ones when split) until this rank's part
  // of the bucket is empty, or large after a pass (kHandOffEntries), then
  // sends the ghost relaxations. Few entries are relaxed by the calling
  // thread alone; many by the team, in one parallel region for as long as
  // they stay many (a bucket of a road graph takes hundreds of passes, too
  // many to fork a team for each).
  void light_round(std::size_t bucket) {
    {
      Timed c(t_.compute);
      for (auto& w : workers_) w.bins.advance(bucket);
      for (bool first = true;; first = false) {
        std::int64_t entries = 0;
        for (auto& w : workers_) entries += static_cast<std::int64_t>(w.bins[bucket].size());
        if (entries == 0 || (!first && hand_off_ && entries >= kHandOffEntries)) break;
        if (entries < kTeamEntries) {
          drain_alone(bucket);
        } else {
#pragma omp parallel
          drain_in_team(bucket);
        }
      }
    }
    send_and_apply(bucket);
  }

  // Relaxes one entry of the current bucket on worker w.
  void relax_entry(Worker& w, const Entry& e, std::size_t bucket) {
    if (parallel::load_relaxed(r_.dist[e.vertex]) < e.dist) return;  // stale: queued again, shorter
    if (!split_) {
      relax_any<Arcs::kAll>(w, e.vertex, e.dist, bucket);
      return;
    }
    if (!parallel::load_relaxed(taken_flag_[e.vertex]) &&
        !std::atomic_ref<std::uint8_t>(taken_flag_[e.vertex]).exchange(1, std::memory_order_relaxed))
      w.taken.push_back(e.vertex);
    relax_any<Arcs::kLight>(w, e.vertex, e.dist, bucket);
  }

  // Relaxes run[from, to) on worker w, with the shared kernel's software
  // prefetch of the entries ahead (their offsets, distances and arc lists:
  // without it each entry waits for those cache misses in turn).
  void relax_run(Worker& w, const std::vector<Entry>& run, std::size_t from, std::size_t to, std::size_t bucket) {
    const eid_t* off = g_.out.offsets.data();
    const std::uint32_t* nbr = g_.out.neighbors.data();
    const weight_t* wt = g_.weighted ? g_.out.weights.data() : nullptr;
    for (std::size_t at = from; at < to; ++at) {
      kernels::sssp_detail::prefetch_ahead<true>(run.data(), at, run.size(), off, nbr, wt, r_.dist.data());
      relax_entry(w, run[at], bucket);
    }
  }

  // Passes on the calling thread over every worker's bin of the bucket, until
  // it is empty or has grown to a team's worth.
  void drain_alone(std::size_t bucket) {
    Worker& w = workers_[0];
    for (std::size_t k = 1; k < workers_.size(); ++k) {
      auto& other = workers_[k].bins[bucket];
      w.bins[bucket].insert(w.bins[bucket].end(), other.begin(), other.end());
      other.clear();
    }
    while (!w.bins[bucket].empty()) {
      w.part.clear();
      w.part.swap(w.bins[bucket]);
      relax_run(w, w.part, 0, w.part.size(), bucket);
      if (static_cast<std::int64_t>(w.bins[bucket].size()) >= kTeamEntries) return;
    }
  }

  // Passes of the team (every thread calls this): the workers' bins side by
  // side, shared out in chunks; between passes each thread drains its own
  // bin while it is small (bin fusion, as the shared kernel does). Returns
  // when the bucket is empty or, with other ranks waiting, large.
  void drain_in_team(std::size_t bucket) {
    Worker& w = workers_[static_cast<std::size_t>(omp_get_thread_num())];
    std::vector<std::int64_t> start(workers_.size() + 1);
    for (bool first = true;; first = false) {
      w.part.clear();
      w.part.swap(w.bins[bucket]);
#pragma omp barrier
      for (std::size_t k = 0; k < workers_.size(); ++k)
        start[k + 1] = start[k] + static_cast<std::int64_t>(workers_[k].part.size());
      // Every thread read the same parts: all take the same turn.
      const std::int64_t total = start.back();
      if (total == 0) break;
      if (!first && hand_off_ && total >= kHandOffEntries) {
#pragma omp barrier
        w.bins[bucket].swap(w.part);  // back for the next round
        break;
      }
      std::size_t k = 0;
#pragma omp for schedule(dynamic, 64)
      for (std::int64_t i = 0; i < total; ++i) {
        if (i < start[k] || i >= start[k + 1])
          k = static_cast<std::size_t>(std::upper_bound(start.begin(), start.end(), i) - start.begin() - 1);
        const auto at = static_cast<std::size_t>(i - start[k]);
        relax_run(w, workers_[k].part, at, at + 1, bucket);
      }
      // (the loop's barrier: no part is refilled while another thread reads it)
      while (!w.bins[bucket].empty() && w.bins[bucket].size() < kernels::sssp_detail::kFusionLimit) {
        w.fused.clear();
        w.fused.swap(w.bins[bucket]);
        relax_run(w, w.fused, 0, w.fused.size(), bucket);
      }
    }
  }

  // The heavy arcs of every vertex taken from the last bucket, from its
  // final distance.
  void heavy_round(std::size_t bucket) {
    {
      Timed c(t_.compute);
      for (auto& w : workers_) {
        w.part.clear();
        for (std::uint32_t u : w.taken) w.part.push_back({u, 0, 0.0});
        w.taken.clear();
      }
      const double* dist = r_.dist.data();
      over_parts([&](Worker& w, const Entry& e) {
        taken_flag_[e.vertex] = 0;
        relax_any<Arcs::kHeavy>(w, e.vertex, parallel::load_relaxed(dist[e.vertex]), bucket);
      });
    }
    send_and_apply(bucket);
  }

  // Sends the workers' ghost relaxations to their owners and applies the
  // ones received (improved vertices queued, never before `bucket`).
  void send_and_apply(std::size_t bucket) {
    {
      Timed c(t_.compute);
      for (int o = 0; o < g_.ranks; ++o) {
        auto& s = to_owner_[static_cast<std::size_t>(o)];
        s.clear();
        for (auto& w : workers_) {
          auto& mine = w.to_owner[static_cast<std::size_t>(o)];
          s.insert(s.end(), mine.begin(), mine.end());
          mine.clear();
        }
      }
    }
    wait_for_all(t_, g_.comm);
    Received<Relaxation> got;
    {
      Timed x(t_.exchange);
      got = exchange(to_owner_, g_.comm, "the SSSP relaxations");
    }
    Timed c(t_.compute);
    const auto received = static_cast<std::int64_t>(got.items.size());
    double* dist = r_.dist.data();
    auto apply = [&](Worker& w, const Relaxation& m) {
      if (m.dist < parallel::load_relaxed(dist[m.target]) && parallel::write_min(dist[m.target], m.dist))
        w.bins[std::max(bucket, bucket_of(m.dist, inverse_delta_))].push_back({m.target, 0, m.dist});
    };
    if (received < kTeamEntries) {
      for (const Relaxation& m : got.items) apply(workers_[0], m);
      return;
    }
#pragma omp parallel
    {
      Worker& w = workers_[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < received; ++i) apply(w, got.items[static_cast<std::size_t>(i)]);
    }
  }

  const DistCsr& g_;
  const double delta_, inverse_delta_;
  const bool split_;
  const bool hand_off_;  // other ranks wait for this one's relaxations (kHandOffEntries)
  StepTimes& t_;
  DistSsspResult& r_;
  std::vector<double> ghost_best_;          // per ghost: the shortest distance sent to its owner
  std::vector<int> ghost_owner_;            // per ghost: its owner rank
  std::vector<std::uint32_t> ghost_target_;  // per ghost: its owner's local index
  std::vector<std::uint8_t> taken_flag_;    // per own vertex: in some worker's `taken`
  std::vector<Worker> workers_;
  std::vector<std::int64_t> start_;         // over_parts: offsets of the workers' parts
  std::vector<std::vector<Relaxation>> to_owner_;
};

// Whether any arc anywhere weighs more than delta (else every arc is light).
bool any_heavy_arc(const DistCsr& g, double delta) {
  double heaviest = g.weighted ? 0 : 1;
  if (g.weighted) {
    const std::int64_t arcs = g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]);
    const weight_t* w = g.out.weights.data();
#pragma omp parallel for schedule(static) reduction(max : heaviest)
    for (std::int64_t i = 0; i < arcs; ++i) heaviest = std::max(heaviest, static_cast<double>(w[i]));
  }
  return max_all(heaviest, g.comm) > delta;
}

}  // namespace

DistSsspResult sssp(const DistCsr& g, std::int64_t source, const kernels::SsspOptions& o, StepTimes& t,
                    SsspArcs arcs) {
  DistSsspResult r;
  double delta = o.delta;
  bool split = false;
  {
    // Setup reductions (the delta, the heavy-arc test) count as compute.
    Timed c(t.compute);
    if (!(delta > 0))
      delta = choose_delta(g, static_cast<int>(sum_all(static_cast<std::int64_t>(parallel::max_threads()), g.comm)));
    split = arcs == SsspArcs::kLightThenHeavy && any_heavy_arc(g, delta);
  }
  Search s(g, delta, split, t, r);
  s.run(source);
  return r;
}

}  // namespace numagraph::dist
