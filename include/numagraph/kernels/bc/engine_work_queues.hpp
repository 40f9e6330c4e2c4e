// Betweenness centrality on the NUMA engine: Brandes' algorithm with
// lock-free path counting (Madduri et al. 2009), per-node edge partitions and
// NUMA-aware work queues (seed 000).
//
// Forward phase, one BFS level at a time: the frontier holds (u, sigma[u]).
// Every node processes the whole frontier against its push part (the edges
// whose target it owns), so discovering v and adding sigma[u] to sigma[v]
// (an atomic add) touch local memory only, and it marks the arcs that lead
// one level down in a successor bitmap of its part (one bit per arc, in the
// node's memory). Within a step each node's share is split into per-thread
// queues of `task_size` entries; a thread that runs dry steals from the same
// node first, then from nodes by increasing distance.
// Backward phase, deepest level first, over the same push parts: every node
// takes each vertex w of level d and sums coef[v] = (1 + delta[v]) / sigma[v]
// over w's marked arcs in its part, whose targets v it owns (local random
// reads, no atomics: one thread handles w per node). With one node that sum
// is the whole of it and the thread finishes w on the spot; with several,
// each node writes its partial sum into its own array, in level order, and
// w's discoverer (a thread of w's node) adds the nodes' partials, reading them
// in order: remote reads stay sequential. Pulling from the marked arcs, as
// the flat kernel does, needs no atomic add per arc, which pushing coef[v]
// to the predecessors through reverse parts would (docs/numa-engine.md).
//
// Scores are the raw Brandes sums over the given sources (each ordered pair
// once): the same numbers as the flat kernel before normalisation.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/edge_map.hpp"
#include "numagraph/engine/frontier.hpp"
#include "numagraph/engine/pull_sum.hpp"
#include "numagraph/kernels/bc/options.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

namespace detail {

// Where each level of a search starts in the level-order array, per
// discovering thread: begin(d, t) for t in [0, threads], level d spanning
// [begin(d, 0), begin(d, threads)).
class LevelBounds {
 public:
  explicit LevelBounds(int threads) : width_(static_cast<std::size_t>(threads) + 1) {}
  void clear() { bounds_.clear(); }
  // Appends a level: `bounds` holds threads + 1 offsets, the first equal to end_of_last().
  void push(const std::vector<std::size_t>& bounds) { bounds_.insert(bounds_.end(), bounds.begin(), bounds.end()); }
  std::size_t count() const { return bounds_.size() / width_; }
  std::size_t begin(std::size_t d, std::size_t t) const { return bounds_[d * width_ + t]; }
  std::size_t size(std::size_t d) const { return begin(d, width_ - 1) - begin(d, 0); }
  std::size_t end_of_last() const { return bounds_.empty() ? 0 : bounds_.back(); }

 private:
  std::size_t width_;
  std::vector<std::size_t> bounds_;
};

}  // namespace detail

template <typename V, typename Acc = engine::NoAccounting>
BcResult betweenness_numa(const engine::PartitionedGraph<V>& pg, const std::vector<V>& sources, const BcOptions& o,
                          const StealPolicy& steal, engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  using Entry = std::pair<V, double>;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  if (numa && !pg.has_push()) throw UsageError("betweenness_numa in numa mode needs push parts");
  const int parts = numa ? layout.nodes : 1;

  // Queues: each node's share of a step is split among its threads; a node
  // without threads gets one queue, owned by thread k % threads. In flat mode
  // there is one share (the whole step) split among all threads.
  std::vector<int> queue_owner, queue_node;
  std::vector<std::vector<int>> node_queues(static_cast<std::size_t>(parts));
  for (int k = 0; k < parts; ++k) {
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
  std::vector<std::vector<int>> distance = steal.node_distance;
  if (distance.empty()) {
    distance.assign(static_cast<std::size_t>(layout.nodes), std::vector<int>(static_cast<std::size_t>(layout.nodes), 20));
    for (int k = 0; k < layout.nodes; ++k) distance[k][k] = 10;
  }
  auto steal_order = parallel::steal_order_by_distance(layout.thread_node, queue_owner, queue_node, distance);
  if (!steal.across_nodes)
    for (int t = 0; t < layout.threads; ++t)
      std::erase_if(steal_order[static_cast<std::size_t>(t)], [&](int q) {
        return queue_node[static_cast<std::size_t>(q)] != layout.thread_node[static_cast<std::size_t>(t)];
      });
  parallel::WorkQueues queues(queue_owner, std::move(steal_order), o.task_size);
  auto share = [&](std::int64_t items, std::size_t i, std::size_t of) {
    return std::pair{items * static_cast<std::int64_t>(i) / static_cast<std::int64_t>(of),
                     items * static_cast<std::int64_t>(i + 1) / static_cast<std::int64_t>(of)};
  };
  auto reset_queues = [&](std::int64_t items) {
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges(queue_owner.size());
    for (const auto& qs : node_queues)
      for (std::size_t i = 0; i < qs.size(); ++i) ranges[static_cast<std::size_t>(qs[i])] = share(items, i, qs.size());
    queues.reset(ranges);
  };

  // The edges each part walks: node k's push part (every vertex's out-edges
  // whose target k owns), or in flat mode the graph's out-edges. Each part
  // has its successor bitmap, one bit per arc, in the part's memory.
  struct PartEdges {
    const eid_t* offsets;
    const V* neighbors;
    std::size_t words;  // of the successor bitmap
  };
  std::vector<PartEdges> part_edges;
  std::vector<NumaArray<std::uint64_t>> succ;
  for (int k = 0; k < parts; ++k) {
    const eid_t* off = numa ? pg.push(k).offsets.data() : g.out().offsets.data();
    const V* nbr = numa ? pg.push(k).neighbors.data() : g.out().neighbors.data();
    const auto words = static_cast<std::size_t>((off[n] + 63) / 64);
    part_edges.push_back({off, nbr, words});
    succ.emplace_back(std::max<std::size_t>(words, 1), numa ? numa::Placement::bind(k) : numa::Placement{});
  }
  // Arcs [begin, end) of x in `part`, counting the offset lookup and the scan.
  auto arcs_of = [&](int tid, int part, V x) {
    const PartEdges& p = part_edges[static_cast<std::size_t>(part)];
    const eid_t eb = p.offsets[x], ee = p.offsets[x + 1];
    if constexpr (Acc::enabled) {
      if (numa) {
        acc.count(tid, part, Pattern::kRandom);
        acc.count(tid, part, Pattern::kSequential, ee - eb);
      } else {
        acc.count_vertex(tid, x, Pattern::kRandom);
        acc.count_vertex(tid, x, Pattern::kSequential, ee - eb);
      }
    }
    return std::pair{eb, ee};
  };

  BcResult r;
  r.steal_across_nodes = steal.across_nodes;
  r.scores = NumaArray<double>(static_cast<std::size_t>(n),
      numa::placement_for("scores", numa::Placement::partitioned()));
  NumaArray<std::int32_t> depth(static_cast<std::size_t>(n),
      numa::placement_for("depth", numa::Placement::partitioned()));
  NumaArray<double> sigma(static_cast<std::size_t>(n),
      numa::placement_for("sigma", numa::Placement::partitioned()));
  // (1 + delta[v]) / sigma[v], what v's predecessors sum: written for a level
  // before the level above reads it, so it needs no reset between sources.
  NumaArray<double> coef(static_cast<std::size_t>(n),
      numa::placement_for("delta", numa::Placement::partitioned()));
  vertex_map(layout, [&](int, std::int64_t v) {  // first touch by the owners
    r.scores[v] = 0;
    depth[v] = -1;
    sigma[v] = 0;
    coef[v] = 0;
  });
  // With several parts, node k's partial sums of the level being finished,
  // by position in the level, in node k's memory.
  std::vector<NumaArray<double>> partial(static_cast<std::size_t>(parts > 1 ? parts : 0));
  std::vector<std::vector<V>> found(static_cast<std::size_t>(layout.threads));

  // One step over `count` items: every part's threads take the part's queues
  // and run visit(tid, i, part) for each item i.
  auto step = [&](std::int64_t count, auto&& visit) {
    reset_queues(count);
    run_on_threads(layout, [&](int tid) {
      queues.drain(tid, [&](std::int64_t b, std::int64_t e, int q) {
        const int part = numa ? queue_node[static_cast<std::size_t>(q)] : 0;
        for (std::int64_t i = b; i < e; ++i) {
          if constexpr (Acc::enabled) acc.count(tid, 0, Pattern::kSequential);  // the item
          visit(tid, i, part);
        }
      });
    });
  };
  // Clears every part's successor bitmap, each by its part's queue owners.
  auto clear_successors = [&]() {
    run_on_threads(layout, [&](int tid) {
      for (int k = 0; k < parts; ++k) {
        const auto& qs = node_queues[static_cast<std::size_t>(k)];
        for (std::size_t i = 0; i < qs.size(); ++i) {
          if (queue_owner[static_cast<std::size_t>(qs[i])] != tid) continue;
          const auto [lo, hi] = share(static_cast<std::int64_t>(part_edges[k].words), i, qs.size());
          std::fill(succ[k].data() + lo, succ[k].data() + hi, std::uint64_t{0});
          if constexpr (Acc::enabled) acc.count(tid, numa ? k : layout.thread_node[tid], Pattern::kSequential, hi - lo);
        }
      }
    });
  };

  // The levels of one search, back to back in `order`, each in
  // discovering-thread order: level d's vertices found by thread t are
  // order[levels.begin(d, t) .. levels.begin(d, t + 1)), and in numa mode
  // those are (but for stolen tasks) vertices t's own node owns. The arrays
  // live across sources, so a search allocates nothing (a vector per level
  // would fault in fresh pages for every level of every source).
  NumaArray<V> order(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
  detail::LevelBounds levels(layout.threads);
  // Level d's entries (u, sigma[u]), in the order of `order`: every part
  // reads the frontier's path counts in sequence instead of at random. It
  // grows to the widest level and keeps that capacity.
  std::vector<Entry> entries;
  // Appends what the threads found as the next level, and its entries, in
  // one pass: each thread copies its own list (and clears it).
  auto collect = [&]() {
    const std::size_t at = levels.end_of_last();
    std::vector<std::size_t> bounds(found.size() + 1, at);
    for (std::size_t t = 0; t < found.size(); ++t) bounds[t + 1] = bounds[t] + found[t].size();
    const std::size_t count = bounds.back() - at;
    entries.resize(count);
    if (count == 0) return;
    levels.push(bounds);
    run_on_threads(layout, [&](int tid) {
      auto& mine = found[static_cast<std::size_t>(tid)];
      std::size_t i = bounds[static_cast<std::size_t>(tid)];
      for (const V v : mine) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
        order[i] = v;
        entries[i - at] = {v, sigma[v]};
        ++i;
      }
      mine.clear();
    });
  };
  // Runs f(tid, i, v) for level d's vertices, each thread taking those it
  // discovered (i: position in the level).
  auto for_each_listed = [&](std::size_t d, auto&& f) {
    const std::size_t first = levels.begin(d, 0);
    run_on_threads(layout, [&](int tid) {
      for (std::size_t i = levels.begin(d, static_cast<std::size_t>(tid)); i < levels.begin(d, static_cast<std::size_t>(tid) + 1); ++i)
        f(tid, i - first, order[i]);
    });
  };

  for (V s : sources) {
    std::optional<profile::InnerPhase> phase(std::in_place, "forward");
    clear_successors();
    // The source is listed as found by a thread of its own node (thread
    // k % threads for a node without threads), which finishes and resets it.
    const int s_node = layout.node_of_vertex(s);
    int s_thread = s_node % layout.threads;
    for (int t = layout.threads - 1; t >= 0; --t)
      if (layout.thread_node[static_cast<std::size_t>(t)] == s_node) s_thread = t;
    levels.clear();
    found[static_cast<std::size_t>(s_thread)].push_back(s);
    depth[s] = 0;
    sigma[s] = 1;
    collect();
    for (std::int32_t d = 0; !entries.empty(); ++d) {
      step(static_cast<std::int64_t>(entries.size()), [&](int tid, std::int64_t i, int part) {
        const auto [u, sigma_u] = entries[static_cast<std::size_t>(i)];
        const auto [eb, ee] = arcs_of(tid, part, u);
        const V* nbr = part_edges[static_cast<std::size_t>(part)].neighbors;
        std::uint64_t* bits = succ[static_cast<std::size_t>(part)].data();
        for (eid_t j = eb; j < ee; ++j) {
          const V v = nbr[j];
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
          std::atomic_ref<std::int32_t> dv(depth[v]);
          std::int32_t seen = dv.load(std::memory_order_relaxed);
          if (seen < 0 && dv.compare_exchange_strong(seen, d + 1, std::memory_order_relaxed)) {
            found[static_cast<std::size_t>(tid)].push_back(v);
            seen = d + 1;
          }
          if (seen == d + 1) {
            parallel::fetch_add(sigma[v], sigma_u);
            // Neighbouring vertices' arcs may share a word: atomic or.
            __atomic_fetch_or(&bits[j >> 6], std::uint64_t{1} << (j & 63), __ATOMIC_RELAXED);
          }
        }
      });
      collect();
    }
    phase.emplace("backward");
    // Backward. Every vertex is reset for the next source (depth -1, sigma
    // 0) as soon as its coefficient is known, by the thread that finishes it
    // (its discoverer when there are several parts): nothing reads its depth
    // or path count after that, and a separate pass would read every level
    // again. The deepest level has delta 0.
    auto reset = [&](int tid, V v) {
      if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom, 2);
      depth[v] = -1;
      sigma[v] = 0;
    };
    const std::size_t deepest = levels.count() - 1;
    for_each_listed(deepest, [&](int tid, std::size_t, V v) {
      if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom, 2);
      coef[v] = 1.0 / sigma[v];
      reset(tid, v);
    });
    if (parts > 1) {
      std::size_t widest = 0;
      for (std::size_t d = 0; d < levels.count(); ++d) widest = std::max(widest, levels.size(d));
      for (int k = 0; k < parts; ++k)
        if (partial[k].size() < widest) partial[k] = NumaArray<double>(widest, numa::Placement::bind(k));
    }
    // delta[w] = sigma[w] * (sum of coef over w's successors); w's own score
    // and coefficient follow from it.
    auto finish = [&](int tid, V w, double sum) {
      if constexpr (Acc::enabled) acc.count_vertex(tid, w, Pattern::kRandom, w != s ? 4 : 3);
      const double delta_w = sigma[w] * sum;
      if (w != s) r.scores[w] += delta_w;
      coef[w] = (1.0 + delta_w) / sigma[w];
      reset(tid, w);
    };
    for (std::size_t d = deepest; d-- > 0;) {
      const V* items = order.data() + levels.begin(d, 0);
      step(static_cast<std::int64_t>(levels.size(d)), [&](int tid, std::int64_t i, int part) {
        const V w = items[i];
        const auto [eb, ee] = arcs_of(tid, part, w);
        const V* nbr = part_edges[static_cast<std::size_t>(part)].neighbors;
        const std::uint64_t* bits = succ[static_cast<std::size_t>(part)].data();
        double sum = 0;
        for (eid_t j = eb; j < ee; ++j)
          if ((bits[j >> 6] >> (j & 63)) & 1) {
            if constexpr (Acc::enabled) acc.count_vertex(tid, nbr[j], Pattern::kRandom);
            sum += coef[nbr[j]];
          }
        if (parts == 1) {
          finish(tid, w, sum);
        } else {
          if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential);
          partial[static_cast<std::size_t>(part)][static_cast<std::size_t>(i)] = sum;
        }
      });
      if (parts > 1)
        for_each_listed(d, [&](int tid, std::size_t i, V w) {
          double sum = 0;
          for (int k = 0; k < parts; ++k) {
            if constexpr (Acc::enabled) acc.count(tid, k, Pattern::kSequential);
            sum += partial[static_cast<std::size_t>(k)][i];
          }
          finish(tid, w, sum);
        });
    }
  }
  for (int t = 0; t < layout.threads; ++t) r.stolen_tasks += queues.stolen(t);
  return r;
}

}  // namespace numagraph::kernels
