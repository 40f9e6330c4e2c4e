// Betweenness centrality scheduled as seed 000's Algorithm 2 (NUMA-aware work
// queues, NWQ) on the flat graph: Brandes with Madduri et al.'s lock-free
// path counting (compare-and-swap on depth, atomic add on sigma, one
// successor bit per arc, a backward sweep that pulls from the successors),
// with the paper's two ways of handing a level's frontier to threads:
//
//   nwq      every thread's discoveries at level d are its own queue at level
//            d + 1 (they sit together in the level order, so nothing is split
//            or copied twice); a thread drains its queue in tasks of
//            `task_size` vertices, then steals tasks from the other threads'
//            queues in increasing NUMA distance (ties by tid XOR queue, the
//            paper's victim = tid XOR distance). Neighbouring vertices stay on
//            the thread that found them, so its working set stays small
//            (the paper's Fig. 2 and 12).
//   dynamic  the paper's baseline: one OpenMP dynamic schedule over the whole
//            level, chunks of `task_size` (OMP_SCHEDULE=dynamic,16).
//
// The backward sweep runs by levels, deepest first, with the same schedule
// over the same per-thread segments. One parallel region per source, two
// barriers per level (the threads' discoveries are placed, then the queues
// refilled, before anyone drains). Path counts are integers and each
// vertex's dependency is summed over its arcs in order, so the scores are
// the same bits whatever the schedule or the number of threads.
//
// With measure_working_set each thread also counts the distinct vertices it
// touches per source in the forward sweep (the boundary vertices it expands
// and every neighbour it reads: the paper's per-thread working set), in a
// private stamp array per thread; the counts slow the run, so time apart.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <numeric>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/options.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

struct BrandesWqOptions {
  BcSchedule schedule = BcSchedule::kNwq;
  std::int64_t task_size = 16;  // vertices per task (both schedules)
  bool measure_working_set = false;
  // Node of each worker thread (MachineView::thread_node; empty or of
  // another size: all on one node) and how far threads may steal.
  std::vector<int> thread_node;
  StealPolicy steal;
};

struct BrandesWqStats {
  std::int64_t stolen_tasks = 0;    // nwq: tasks taken from other threads' queues
  std::vector<double> working_set;  // measure_working_set: per thread, mean over the sources
};

namespace detail {

// Thread t's victims among the other threads' queues (queue q is thread
// q's), nearest node first; only its own node's when steal.across_nodes is
// false.
inline std::vector<std::vector<int>> wq_steal_order(int threads, std::vector<int> node, const StealPolicy& steal) {
  if (static_cast<int>(node.size()) != threads) node.assign(static_cast<std::size_t>(threads), 0);
  const int nodes = 1 + *std::max_element(node.begin(), node.end());
  std::vector<std::vector<int>> distance = steal.node_distance;
  if (static_cast<int>(distance.size()) < nodes) {
    distance.assign(static_cast<std::size_t>(nodes), std::vector<int>(static_cast<std::size_t>(nodes), 20));
    for (int k = 0; k < nodes; ++k) distance[k][k] = 10;
  }
  std::vector<int> owner(static_cast<std::size_t>(threads));
  std::iota(owner.begin(), owner.end(), 0);
  auto order = parallel::steal_order_by_distance(node, owner, node, distance);
  if (!steal.across_nodes)
    for (int t = 0; t < threads; ++t)
      std::erase_if(order[static_cast<std::size_t>(t)], [&](int q) { return node[q] != node[t]; });
  return order;
}

template <bool kMeasure, typename V>
BrandesWqStats brandes_wq_run(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                              BrandesWorkspace<V>& ws, const BrandesWqOptions& o) {
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  ws.prepare(n, g.num_arcs());  // successor bits
  auto& sigma = ws.sigma;
  auto& delta = ws.delta;
  auto& depth = ws.depth;
  auto& order = ws.order;
  auto& succ = ws.succ;
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  const int p = parallel::max_threads();
  const auto width = static_cast<std::size_t>(p) + 1;
  const std::int64_t task = std::max<std::int64_t>(1, o.task_size);
  const bool nwq = o.schedule == BcSchedule::kNwq;
  std::vector<int> owner(static_cast<std::size_t>(p));
  std::iota(owner.begin(), owner.end(), 0);
  parallel::WorkQueues queues(owner, wq_steal_order(p, o.thread_node, o.steal), task);

  BrandesWqStats stats;
  std::vector<NumaArray<std::uint32_t>> stamp(kMeasure ? static_cast<std::size_t>(p) : 0);
  for (auto& a : stamp) {
    a = NumaArray<std::uint32_t>(static_cast<std::size_t>(n));
    std::fill(a.begin(), a.end(), 0u);
  }
  std::vector<parallel::Padded<std::int64_t>> touched(static_cast<std::size_t>(p));
  std::vector<parallel::Padded<std::int64_t>> count(static_cast<std::size_t>(p));
  // Level d's vertices found by thread t: order[bounds[d * width + t],
  // bounds[d * width + t + 1]); the last level recorded is empty.
  std::vector<std::int64_t> bounds;

  for (std::size_t si = 0; si < sources.size(); ++si) {
    const V s = sources[si];
    throw_if_cancelled();  // once per source (the workspace is clean here)
    ws.clean = false;
    order[0] = s;
    depth[s] = 0;
    sigma[s] = 1;
    bounds.assign(width, 1);
    bounds[0] = 0;  // the source is thread 0's discovery
    for (int t = 0; t < p; ++t) queues.refill(t, bounds[t], bounds[t + 1]);
    const auto mark = static_cast<std::uint32_t>(si + 1);
#pragma omp parallel num_threads(p)
    {
      const int tid = parallel::thread_id();
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread
      if (tid == 0) phase.emplace("forward");
      std::uint32_t* my_stamp = kMeasure ? stamp[static_cast<std::size_t>(tid)].data() : nullptr;
      std::int64_t my_touched = 0;
      auto touch = [&](V x) {
        if constexpr (kMeasure)
          if (my_stamp[x] != mark) {
            my_stamp[x] = mark;
            ++my_touched;
          }
      };
#pragma omp for schedule(static)
      for (std::size_t w = 0; w < succ.size(); ++w) succ[w] = 0;
      std::vector<V> local;
      std::int64_t lo = 0, hi = 1;
      for (std::int32_t d = 0; lo < hi; ++d) {
        auto expand = [&](V u) {
          touch(u);
          const double sigma_u = sigma[u];
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            touch(v);
            std::int32_t dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
            if (dv < 0 && parallel::compare_and_swap(depth[v], std::int32_t{-1}, d + 1)) {
              local.push_back(v);
              dv = d + 1;
            } else if (dv < 0) {
              dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
            }
            if (dv == d + 1) {
              parallel::fetch_add(sigma[v], sigma_u);
              // Neighbouring vertices' arcs may share a word: atomic or.
              __atomic_fetch_or(&succ[static_cast<std::size_t>(e >> 6)], std::uint64_t{1} << (e & 63), __ATOMIC_RELAXED);
            }
          }
        };
        if (nwq) {
          queues.drain(tid, [&](std::int64_t b, std::int64_t e, int) {
            for (std::int64_t i = b; i < e; ++i) expand(order[i]);
          });
        } else {
#pragma omp for schedule(dynamic, task) nowait
          for (std::int64_t i = lo; i < hi; ++i) expand(order[i]);
        }
        count[static_cast<std::size_t>(tid)].value = static_cast<std::int64_t>(local.size());
#pragma omp barrier
        // Level d + 1 in thread order: this thread's discoveries are its queue.
        std::int64_t at = hi, total = 0;
        for (int t = 0; t < p; ++t) {
          if (t < tid) at += count[static_cast<std::size_t>(t)].value;
          total += count[static_cast<std::size_t>(t)].value;
        }
        std::copy(local.begin(), local.end(), order.begin() + at);
        if (nwq) queues.refill(tid, at, at + static_cast<std::int64_t>(local.size()));
        local.clear();
        if (tid == 0) {
          std::int64_t b = hi;
          for (int t = 0; t < p; ++t) {
            bounds.push_back(b);
            b += count[static_cast<std::size_t>(t)].value;
          }
          bounds.push_back(b);
        }
        lo = hi;
        hi += total;
#pragma omp barrier
      }
      // Backward: the deepest level has delta 0; each level above pulls
      if (tid == 0) phase.emplace("backward");
      // (1 + delta[v]) / sigma[v] from its successors.
      auto pull = [&](V w) {
        double sum = 0;
        for (eid_t e = off[w]; e < off[w + 1]; ++e)
          if ((succ[static_cast<std::size_t>(e >> 6)] >> (e & 63)) & 1) sum += (1.0 + delta[nbr[e]]) / sigma[nbr[e]];
        delta[w] = sigma[w] * sum;
        if (w != s) scores[w] += delta[w];
      };
      const auto levels = static_cast<std::int64_t>(bounds.size() / width);  // the last one empty
      for (std::int64_t l = levels - 3; l >= 0; --l) {
        const std::int64_t* b = bounds.data() + static_cast<std::size_t>(l) * width;
        if (nwq) {
          queues.refill(tid, b[tid], b[tid + 1]);
#pragma omp barrier
          queues.drain(tid, [&](std::int64_t first, std::int64_t last, int) {
            for (std::int64_t i = first; i < last; ++i) pull(order[i]);
          });
#pragma omp barrier
        } else {
#pragma omp for schedule(dynamic, task)
          for (std::int64_t i = b[0]; i < b[p]; ++i) pull(order[i]);
        }
      }
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < hi; ++i) {
        const V v = order[i];
        depth[v] = -1;
        sigma[v] = 0;
        delta[v] = 0;
      }
      if constexpr (kMeasure) touched[static_cast<std::size_t>(tid)].value += my_touched;
    }
    ws.clean = true;
  }
  for (int t = 0; t < p; ++t) stats.stolen_tasks += queues.stolen(t);
  if constexpr (kMeasure)
    for (int t = 0; t < p; ++t)
      stats.working_set.push_back(static_cast<double>(touched[static_cast<std::size_t>(t)].value) /
                                  static_cast<double>(std::max<std::size_t>(1, sources.size())));
  return stats;
}

}  // namespace detail

// Raw Brandes sums over `sources` into `scores` (reusing its pages when the
// size fits) with scratch from `ws` (shared with betweenness_brandes: both
// leave it clean).
template <typename V>
BrandesWqStats betweenness_brandes_work_queues(const CSRGraph<V>& g, const std::vector<V>& sources,
                                               NumaArray<double>& scores, BrandesWorkspace<V>& ws,
                                               const BrandesWqOptions& o = {}) {
  return o.measure_working_set ? detail::brandes_wq_run<true>(g, sources, scores, ws, o)
                               : detail::brandes_wq_run<false>(g, sources, scores, ws, o);
}

template <typename V>
NumaArray<double> betweenness_brandes_work_queues(const CSRGraph<V>& g, const std::vector<V>& sources,
                                                  const BrandesWqOptions& o = {}) {
  NumaArray<double> scores;
  BrandesWorkspace<V> ws;
  betweenness_brandes_work_queues(g, sources, scores, ws, o);
  return scores;
}

}  // namespace numagraph::kernels
