// edge_map / vertex_map over the partitioned graph (Ligra's abstraction,
// Polymer's placement).
//
// edge_map(frontier, f) applies f to the edges leaving the frontier and
// returns the vertices for which f reported a change, the next frontier.
// The functor supplies:
//   bool cond(V d)                 still worth updating d?
//   bool update(V s, V d)          pull step; d is owned by the calling thread
//   bool update_atomic(V s, V d)   push step; other threads may update d too
// Push (sparse frontier): every node reads the frontier list in order and
// follows its push part, so every update touches a target the node owns.
// Pull (dense frontier): every node scans its own vertices' in-edges and
// tests frontier bits in its own replica of the bitmap; it stops scanning a
// vertex once cond() turns false.
// The direction is chosen per call: pull when |F| + out-degree(F) exceeds
// `dense_threshold` x arcs (Ligra's rule, default 1/20), unless forced.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/frontier.hpp"
#include "numagraph/engine/pull_sum.hpp"

namespace numagraph::engine {

enum class Direction { kAuto, kPush, kPull };

struct EdgeMapOptions {
  Direction direction = Direction::kAuto;
  double dense_threshold = 1.0 / 20;  // pull when |F| + deg(F) > threshold * arcs
};

// Nodes each thread serves: its own, plus nodes that have no thread at all.
inline std::vector<std::vector<int>> served_parts(const Layout& l) {
  std::vector<std::vector<int>> served(static_cast<std::size_t>(l.threads));
  std::vector<int> members(static_cast<std::size_t>(l.nodes), 0);
  for (int t = 0; t < l.threads; ++t) ++members[static_cast<std::size_t>(l.thread_node[t])];
  for (int t = 0; t < l.threads; ++t) served[t].push_back(l.thread_node[t]);
  for (int k = 0; k < l.nodes; ++k)
    if (members[k] == 0) served[static_cast<std::size_t>(k % l.threads)].push_back(k);
  return served;
}

// Reusable state of edge_map calls over one partitioned graph.
template <typename V>
class EdgeMapper {
 public:
  EdgeMapper(const PartitionedGraph<V>& pg, EngineMode mode)
      : pg_(pg),
        mode_(mode),
        served_(served_parts(pg.layout())),
        bits_(pg.num_vertices()),
        replicas_(mode == EngineMode::kNuma ? pg.layout().nodes : 0,
                  static_cast<std::size_t>(bits_.num_words())),
        next_(static_cast<std::size_t>(pg.layout().threads)),
        cursor_(static_cast<std::size_t>(pg.layout().nodes)),
        sums_(static_cast<std::size_t>(pg.layout().threads)) {
    if (mode == EngineMode::kNuma && !pg.has_push())
      throw UsageError("edge_map in numa mode needs a PartitionedGraph built with push parts");
  }

  // Which direction the last call took.
  Direction last_direction() const { return last_; }

  template <typename F, typename Acc>
  SparseFrontier<V> edge_map(const SparseFrontier<V>& frontier, F& f, const EdgeMapOptions& opt,
                             Acc& acc) {
    Direction dir = opt.direction;
    if (dir == Direction::kAuto) {
      const double work = static_cast<double>(frontier.size()) + static_cast<double>(out_degree_sum(frontier, acc));
      dir = work > opt.dense_threshold * static_cast<double>(pg_.graph().num_arcs()) ? Direction::kPull
                                                                                    : Direction::kPush;
    }
    last_ = dir;
    if (dir == Direction::kPush) push(frontier, f, acc);
    else pull(frontier, f, acc);
    return concatenate(next_);
  }

  // Sum of out-degrees over the frontier (one degree read per entry, wherever
  // the vertex lives: a remote random read in numa mode too).
  template <typename Acc>
  std::int64_t out_degree_sum(const SparseFrontier<V>& frontier, Acc& acc) {
    const Layout& layout = pg_.layout();
    run_on_threads(layout, [&](int tid) {
      const std::int64_t f = static_cast<std::int64_t>(frontier.size());
      std::int64_t sum = 0;
      for (std::int64_t i = f * tid / layout.threads; i < f * (tid + 1) / layout.threads; ++i) {
        const V u = frontier[static_cast<std::size_t>(i)];
        sum += pg_.graph().out_degree(u);
        if constexpr (Acc::enabled) acc.count_vertex(tid, u, Pattern::kRandom);
      }
      sums_[static_cast<std::size_t>(tid)].value = sum;
    });
    std::int64_t total = 0;
    for (const auto& s : sums_) total += s.value;
    return total;
  }

 private:
  template <typename F, typename Acc>
  void push(const SparseFrontier<V>& frontier, F& f, Acc& acc) {
    const bool numa = mode_ == EngineMode::kNuma;
    for (auto& c : cursor_) c.value.store(0);
    run_on_threads(pg_.layout(), [&](int tid) {
      auto& next = next_[static_cast<std::size_t>(tid)];
      constexpr std::int64_t kChunk = 64;
      const std::int64_t fsize = static_cast<std::int64_t>(frontier.size());
      auto visit = [&](V u, V v) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
        if (f.cond(v) && f.update_atomic(u, v)) next.push_back(v);
      };
      auto drain = [&](std::atomic<std::int64_t>& cursor, int part) {
        for (std::int64_t s; (s = cursor.fetch_add(kChunk)) < fsize;) {
          for (std::int64_t i = s; i < std::min(fsize, s + kChunk); ++i) {
            const V u = frontier[static_cast<std::size_t>(i)];
            if constexpr (Acc::enabled) acc.count(tid, 0, Pattern::kSequential);  // list entry
            if (numa) {
              const NodeEdges<V>& edges = pg_.push(part);
              const eid_t b = edges.begin(u), e = edges.end(u);
              if constexpr (Acc::enabled) {
                acc.count(tid, part, Pattern::kRandom);  // u's offsets in the part
                acc.count(tid, part, Pattern::kSequential, e - b);
              }
              for (eid_t j = b; j < e; ++j) visit(u, edges.neighbors[static_cast<std::size_t>(j)]);
            } else {
              auto nb = pg_.graph().out_neighbors(u);
              if constexpr (Acc::enabled) {
                acc.count_vertex(tid, u, Pattern::kRandom);
                acc.count_vertex(tid, u, Pattern::kSequential, static_cast<std::int64_t>(nb.size()));
              }
              for (V v : nb) visit(u, v);
            }
          }
        }
      };
      if (!numa) {
        drain(cursor_[0].value, 0);
      } else {
        for (int part : served_[static_cast<std::size_t>(tid)])
          drain(cursor_[static_cast<std::size_t>(part)].value, part);
      }
    });
  }

  template <typename F, typename Acc>
  void pull(const SparseFrontier<V>& frontier, F& f, Acc& acc) {
    const Layout& layout = pg_.layout();
    const bool numa = mode_ == EngineMode::kNuma;
    bits_.clear();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(frontier.size()); ++i)
      bits_.set_atomic(frontier[static_cast<std::size_t>(i)]);
    run_on_threads(layout, [&](int tid) {
      if (numa) {  // owners refresh every replica of the words of their range
        for (const auto& [lo, hi] : layout.thread_ranges[tid])
          for (std::int64_t w = lo / 64; w < (hi + 63) / 64; ++w)
            for (int k = 0; k < layout.nodes; ++k) {
              replicas_.copy(k)[w] = bits_.words()[w];
              if constexpr (Acc::enabled) acc.count(tid, k, Pattern::kSequential);
            }
      }
    });
    run_on_threads(layout, [&](int tid) {
      auto& next = next_[static_cast<std::size_t>(tid)];
      const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
      const std::uint64_t* bits = numa ? replicas_.copy(my_node) : bits_.words();
      for (const auto& [lo, hi] : layout.thread_ranges[tid]) {
        const int part = layout.node_of_vertex(lo);
        const NodeEdges<V>& in = pg_.pull(part);
        for (std::int64_t v = lo; v < hi; ++v) {
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);
          if (!f.cond(static_cast<V>(v))) continue;
          const eid_t b = in.begin(v), e = in.end(v);
          eid_t j = b;
          bool added = false;
          for (; j < e; ++j) {
            const V u = in.neighbors[static_cast<std::size_t>(j)];
            if constexpr (Acc::enabled) {
              if (numa) acc.count(tid, my_node, Pattern::kRandom);
              else acc.count_vertex(tid, u, Pattern::kRandom);
            }
            if (test_bit(bits, u) && f.update(u, static_cast<V>(v)) && !added) {
              next.push_back(static_cast<V>(v));
              added = true;
            }
            if (!f.cond(static_cast<V>(v))) {
              ++j;
              break;
            }
          }
          if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, j - b + 1);
        }
      }
    });
  }

  const PartitionedGraph<V>& pg_;
  EngineMode mode_;
  std::vector<std::vector<int>> served_;
  Bitmap bits_;
  Replicas<std::uint64_t> replicas_;
  std::vector<std::vector<V>> next_;
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursor_;
  std::vector<parallel::Padded<std::int64_t>> sums_;
  Direction last_ = Direction::kPush;
};

// vertex_map: f(v) for every vertex, each thread over its own node's range
// (so per-vertex writes are local).
template <typename F>
void vertex_map(const Layout& layout, F&& f) {
  run_on_threads(layout, [&](int tid) {
    for (const auto& [lo, hi] : layout.thread_ranges[static_cast<std::size_t>(tid)])
      for (std::int64_t v = lo; v < hi; ++v) f(tid, v);
  });
}

}  // namespace numagraph::engine
