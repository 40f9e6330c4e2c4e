// Betweenness centrality on the NUMA engine: Brandes' algorithm with
// lock-free path counting (Madduri et al. 2009), per-node edge partitions and
// NUMA-aware work queues (seed 000).
//
// Forward phase, one BFS level at a time: the frontier holds (u, sigma[u]).
// Every node processes the whole frontier against its push part (the edges
// whose target it owns), so discovering v and adding sigma[u] to sigma[v]
// (an atomic add) touch local memory only. Within a step each node's share is
// split into per-thread queues of `task_size` entries; a thread that runs dry
// steals from the same node first, then from nodes by increasing distance.
// Backward phase, deepest level first: each vertex v of level d+1 carries
// c[v] = (1 + delta[v]) / sigma[v]; every node adds c[v] to acc[w] for the
// predecessors w (depth d) it owns, through the reverse push parts, and the
// owner sets delta[w] = sigma[w] * acc[w]. Again only local random writes.
//
// Scores are the raw Brandes sums over the given sources (each ordered pair
// once): the same numbers as the flat kernel before normalisation.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/edge_map.hpp"
#include "numagraph/engine/frontier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/parallel/work_queue.hpp"

namespace numagraph::kernels {

struct NumaBcOptions {
  std::int64_t task_size = 16;                  // frontier entries per task
  std::vector<std::vector<int>> node_distance;  // empty: 10 on the diagonal, 20 elsewhere
  // Steal from other nodes' queues once the own node's are empty. Turn off to
  // study placement on a synthetic topology with more threads than cores: a
  // time-sliced thread would otherwise steal most of the other nodes' work.
  bool steal_across_nodes = true;
};

struct NumaBcResult {
  NumaArray<double> scores;
  std::int64_t stolen_tasks = 0;
};

template <typename V, typename Acc = engine::NoAccounting>
NumaBcResult betweenness_numa(const engine::PartitionedGraph<V>& pg, const std::vector<V>& sources,
                              const NumaBcOptions& o, engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  using Entry = std::pair<V, double>;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  if (numa && !pg.has_in_push())
    throw UsageError("betweenness_numa in numa mode needs push and in-push parts");

  // Queues: each node's share of a step is split among its threads; a node
  // without threads gets one queue, owned by thread k % threads. In flat mode
  // there is one share (the whole step) split among all threads.
  std::vector<int> queue_owner, queue_node;
  std::vector<std::vector<int>> node_queues(static_cast<std::size_t>(numa ? layout.nodes : 1));
  for (int k = 0; k < (numa ? layout.nodes : 1); ++k) {
    for (int t = 0; t < layout.threads; ++t)
      if (!numa || layout.thread_node[t] == k) {
        node_queues[k].push_back(static_cast<int>(queue_owner.size()));
        queue_owner.push_back(t);
        queue_node.push_back(numa ? k : layout.thread_node[t]);
      }
    if (node_queues[k].empty()) {
      node_queues[k].push_back(static_cast<int>(queue_owner.size()));
      queue_owner.push_back(k % layout.threads);
      queue_node.push_back(k);
    }
  }
  std::vector<std::vector<int>> distance = o.node_distance;
  if (distance.empty()) {
    distance.assign(static_cast<std::size_t>(layout.nodes), std::vector<int>(static_cast<std::size_t>(layout.nodes), 20));
    for (int k = 0; k < layout.nodes; ++k) distance[k][k] = 10;
  }
  auto steal_order = parallel::steal_order_by_distance(layout.thread_node, queue_owner, queue_node, distance);
  if (!o.steal_across_nodes)
    for (int t = 0; t < layout.threads; ++t)
      std::erase_if(steal_order[static_cast<std::size_t>(t)], [&](int q) {
        return queue_node[static_cast<std::size_t>(q)] != layout.thread_node[static_cast<std::size_t>(t)];
      });
  parallel::WorkQueues queues(queue_owner, std::move(steal_order), o.task_size);
  auto reset_queues = [&](std::int64_t items) {
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges(queue_owner.size());
    for (const auto& qs : node_queues)
      for (std::size_t i = 0; i < qs.size(); ++i)
        ranges[static_cast<std::size_t>(qs[i])] = {items * static_cast<std::int64_t>(i) / static_cast<std::int64_t>(qs.size()),
                                                   items * static_cast<std::int64_t>(i + 1) / static_cast<std::int64_t>(qs.size())};
    queues.reset(ranges);
  };

  NumaBcResult r;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  NumaArray<std::int32_t> depth(static_cast<std::size_t>(n), numa::Placement::partitioned());
  NumaArray<double> sigma(static_cast<std::size_t>(n), numa::Placement::partitioned());
  NumaArray<double> delta(static_cast<std::size_t>(n), numa::Placement::partitioned());
  vertex_map(layout, [&](int, std::int64_t v) {  // first touch by the owners
    r.scores[v] = 0;
    depth[v] = -1;
    sigma[v] = 0;
    delta[v] = 0;
  });
  std::vector<std::vector<V>> found(static_cast<std::size_t>(layout.threads));

  // One step over `entries`: for each entry (x, value) of queue q's node part,
  // visit(tid, x, value, edges of x in that part).
  auto step = [&](const std::vector<Entry>& entries, bool forward, auto&& visit) {
    reset_queues(static_cast<std::int64_t>(entries.size()));
    run_on_threads(layout, [&](int tid) {
      queues.drain(tid, [&](std::int64_t b, std::int64_t e, int q) {
        const int part = queue_node[static_cast<std::size_t>(q)];
        for (std::int64_t i = b; i < e; ++i) {
          const auto [x, value] = entries[static_cast<std::size_t>(i)];
          if constexpr (Acc::enabled) acc.count(tid, 0, Pattern::kSequential);
          if (numa) {
            const NodeEdges<V>& edges = forward ? pg.push(part) : pg.in_push(part);
            const eid_t eb = edges.begin(x), ee = edges.end(x);
            if constexpr (Acc::enabled) {
              acc.count(tid, part, Pattern::kRandom);
              acc.count(tid, part, Pattern::kSequential, ee - eb);
            }
            const V* nbr = edges.neighbors.data();
            for (eid_t j = eb; j < ee; ++j) visit(tid, x, value, nbr[j]);
          } else {
            auto nb = forward ? g.out_neighbors(x) : g.in_neighbors(x);
            if constexpr (Acc::enabled) {
              acc.count_vertex(tid, x, Pattern::kRandom);
              acc.count_vertex(tid, x, Pattern::kSequential, static_cast<std::int64_t>(nb.size()));
            }
            for (V y : nb) visit(tid, x, value, y);
          }
        }
      });
    });
  };

  // A level's vertices, in discovering-thread order: thread t found
  // items[start[t] .. start[t+1]), and in numa mode those are (but for stolen
  // tasks) vertices its own node owns.
  struct Level {
    std::vector<V> items;
    std::vector<std::size_t> start;
  };
  auto collect = [&]() {
    Level l;
    l.start.assign(found.size() + 1, 0);
    for (std::size_t t = 0; t < found.size(); ++t) l.start[t + 1] = l.start[t] + found[t].size();
    l.items = concatenate(found);
    return l;
  };
  // Runs f(i, items[i]) with each thread taking the vertices it discovered.
  auto for_each_listed = [&](const Level& level, auto&& f) {
    run_on_threads(layout, [&](int tid) {
      for (std::size_t i = level.start[static_cast<std::size_t>(tid)]; i < level.start[static_cast<std::size_t>(tid) + 1]; ++i) {
        const V v = level.items[i];
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom, 2);
        f(i, v);
      }
    });
  };

  for (V s : sources) {
    std::vector<Level> levels(1);
    levels[0].items = {s};
    levels[0].start.assign(static_cast<std::size_t>(layout.threads) + 1, 1);
    levels[0].start[0] = 0;
    depth[s] = 0;
    sigma[s] = 1;
    std::vector<Entry> entries{{s, 1.0}};
    for (std::int32_t d = 0; !entries.empty(); ++d) {
      step(entries, true, [&](int tid, V, double sigma_u, V v) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
        std::atomic_ref<std::int32_t> dv(depth[v]);
        std::int32_t seen = dv.load(std::memory_order_relaxed);
        if (seen < 0 && dv.compare_exchange_strong(seen, d + 1, std::memory_order_relaxed)) {
          found[static_cast<std::size_t>(tid)].push_back(v);
          seen = d + 1;
        }
        if (seen == d + 1) parallel::fetch_add(sigma[v], sigma_u);
      });
      Level next = collect();
      entries.resize(next.items.size());
      for_each_listed(next, [&](std::size_t i, V v) { entries[i] = {v, sigma[v]}; });
      if (!next.items.empty()) levels.push_back(std::move(next));
    }
    // Backward: delta doubles as the per-vertex accumulator acc[w] until the
    // owner turns it into sigma[w] * acc[w].
    for (std::int32_t d = static_cast<std::int32_t>(levels.size()) - 2; d >= 0; --d) {
      const auto& upper = levels[static_cast<std::size_t>(d + 1)];
      entries.resize(upper.items.size());
      for_each_listed(upper, [&](std::size_t i, V v) { entries[i] = {v, (1.0 + delta[v]) / sigma[v]}; });
      step(entries, false, [&](int tid, V, double c_v, V w) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, w, Pattern::kRandom);
        if (depth[w] == d) parallel::fetch_add(delta[w], c_v);
      });
      for_each_listed(levels[static_cast<std::size_t>(d)], [&](std::size_t, V w) {
        delta[w] *= sigma[w];
        if (w != s) r.scores[w] += delta[w];
      });
    }
    // Reset what this source touched, each thread the vertices it found
    // (its own node's, but for stolen tasks).
    run_on_threads(layout, [&](int tid) {
      for (const auto& level : levels)
        for (std::size_t i = level.start[static_cast<std::size_t>(tid)]; i < level.start[static_cast<std::size_t>(tid) + 1]; ++i) {
          const V v = level.items[i];
          depth[v] = -1;
          sigma[v] = 0;
          delta[v] = 0;
        }
    });
  }
  for (int t = 0; t < layout.threads; ++t) r.stolen_tasks += queues.stolen(t);
  return r;
}

}  // namespace numagraph::kernels
