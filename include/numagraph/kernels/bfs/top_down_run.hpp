// A run of consecutive top-down BFS levels inside one parallel region, for
// the direction-optimizing BFS (direction_optimizing.hpp).
//
// Opening a parallel region per level costs a fork and a join barrier each
// time. Here the team stays up for a whole run of levels and meets at ONE
// barrier per level: threads claim chunks of the frontier window
// [head, tail) of the sliding queue, append what they discover behind it,
// and after the barrier every thread reads the same totals and takes the
// same decision (go on, or stop: the frontier is empty or the caller's test
// holds — Beamer's switch to bottom-up, or a frontier thin enough for one
// thread). The per-level counters rotate through three slots: level L
// resets slot L+1, last used by level L-2, whose readers all passed the
// barrier ending level L-1 — so one barrier per level is enough.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels::detail {

// Where a top-down run starts and, on return, where it stopped.
struct TopDownState {
  std::int64_t head = 0, tail = 0;  // frontier window of the queue
  std::int32_t level = 0;           // depth of the frontier's vertices
  eid_t frontier_edges = 0;         // out-edges of the frontier
  eid_t unexplored = 0;             // edges not yet seen by a top-down step
  int steps = 0;                    // levels expanded
};

// Expands levels until the frontier is empty or `stop(frontier edges,
// unexplored edges)` holds for the next frontier. Parents of
// unvisited vertices hold -(out-degree + 1) (see direction_optimizing.hpp).
// `static_split`: each thread takes an equal share of the frontier instead of
// claiming chunks of it from a shared counter (kernels/static_split.hpp says
// when, and why).
template <typename V, typename P, typename Stop>
void top_down_run(const CSRGraph<V>& g, P* parent, std::int32_t* depth, V* queue, TopDownState& s,
                  bool static_split, Stop stop) {
  constexpr std::int64_t kChunk = 64;
  constexpr std::size_t kFlush = 4096;
  struct alignas(64) Slot {
    std::atomic<std::int64_t> chunk{0};   // next frontier offset to claim
    std::atomic<std::int64_t> found{0};   // vertices appended behind the window
    std::atomic<eid_t> edges{0};          // their out-edges
  };
  Slot slots[3];
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  TopDownState out;
#pragma omp parallel
  {
    TopDownState my = s;
    std::vector<V> local;
    local.reserve(kFlush);
    for (;;) {
      Slot& cur = slots[my.steps % 3];
      std::optional<profile::InnerPhase> phase;  // marked by the calling thread
      if (parallel::thread_id() == 0) phase.emplace("level top-down");
      if (parallel::thread_id() == 0) {
        Slot& next = slots[(my.steps + 1) % 3];
        next.chunk.store(0, std::memory_order_relaxed);
        next.found.store(0, std::memory_order_relaxed);
        next.edges.store(0, std::memory_order_relaxed);
      }
      const std::int64_t len = my.tail - my.head;
      eid_t edges = 0;
      auto flush = [&] {
        const std::int64_t at = my.tail + cur.found.fetch_add(static_cast<std::int64_t>(local.size()));
        std::copy(local.begin(), local.end(), queue + at);
        local.clear();
      };
      auto expand = [&](std::int64_t begin, std::int64_t end) {
        // Locals, not the captured references: after each compare-and-swap
        // the compiler would reload every captured pointer (docs/kernels/bfs.md).
        const V* const q = queue;
        const eid_t* const o = off;
        const V* const nb = nbr;
        P* const par = parent;
        std::int32_t* const dep = depth;
        const std::int32_t next_level = my.level + 1;
        eid_t claimed_edges = 0;
        for (std::int64_t i = begin; i < end; ++i) {
          const V u = q[i];
          for (eid_t e = o[u], stop_at = o[u + 1]; e < stop_at; ++e) {
            const V v = nb[e];
            const P seen = parallel::load_relaxed(par[v]);  // others claim concurrently
            if (seen < 0 && parallel::compare_and_swap(par[v], seen, static_cast<P>(u))) {
              claimed_edges += -seen - 1;
              if (dep) dep[v] = next_level;
              local.push_back(v);
              if (local.size() == kFlush) flush();
            }
          }
        }
        edges += claimed_edges;
      };
      if (static_split) {
        const std::int64_t t = parallel::thread_id(), team = parallel::num_threads_in_region();
        expand(my.head + len * t / team, my.head + len * (t + 1) / team);
      } else {
        for (std::int64_t c; (c = cur.chunk.fetch_add(kChunk, std::memory_order_relaxed)) < len;)
          expand(my.head + c, std::min(my.head + c + kChunk, my.tail));
      }
      flush();
      cur.edges.fetch_add(edges, std::memory_order_relaxed);
#pragma omp barrier
      ++my.steps;
      ++my.level;
      const std::int64_t found = cur.found.load(std::memory_order_relaxed);
      my.frontier_edges = cur.edges.load(std::memory_order_relaxed);
      my.unexplored -= my.frontier_edges;
      my.head = my.tail;
      my.tail += found;
      if (found == 0 || stop(my.frontier_edges, my.unexplored)) break;
    }
    if (parallel::thread_id() == 0) out = my;
  }
  s = out;
}

}  // namespace numagraph::kernels::detail
