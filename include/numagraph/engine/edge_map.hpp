// edge_map / vertex_map over the partitioned graph (Ligra's abstraction,
// Polymer's placement).
//
// edge_map(frontier, f) applies f to the edges leaving the frontier and
// returns the vertices for which f reported a change, the next frontier.
// The functor supplies:
//   bool cond(V d)                 still worth updating d?
//   bool update(V s, V d)          pull step; d is owned by the calling thread
//   bool update_atomic(V s, V d)   push step; other threads may update d too
// and optionally update(s, d, eid_t& out_degree_of_d) / update_atomic(s, d,
// eid_t&): a functor that knows d's out-degree anyway (the BFS keeps it in the
// parent word of unvisited vertices) saves edge_map a random read of the
// offsets for every vertex it adds to the next frontier.
// Push (sparse frontier): every node reads the frontier list in order and
// follows its push part, so every update touches a target the node owns.
// Pull (dense frontier): every node scans its own vertices' in-edges and
// tests frontier bits in its own replica of the bitmap; it stops scanning a
// vertex once cond() turns false. The node's threads take chunks of its range
// from a node-local cursor (the work of a pull is uneven, and every thread of
// the node writes local data whichever chunk it takes).
// A push returns the next frontier as a list, a pull as a bitmap kept in the
// mapper, so consecutive pulls never convert; either carries its size and the
// sum of its out-degrees (what the direction choice needs), counted while the
// step finds the vertices. The direction is chosen per call: pull when
// |F| + out-degree(F) exceeds `dense_threshold` x arcs (Ligra's rule, default
// 1/20), unless forced.
#pragma once

#include <algorithm>
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

// A frontier as edge_map takes and returns it: a list, or (after a pull) the
// mapper's current bitmap. `generation` names the edge_map call that made a
// dense frontier; only the mapper's latest one can be passed back.
template <typename V>
struct Frontier {
  SparseFrontier<V> list;  // the vertices, unless dense
  bool dense = false;
  std::int64_t size = 0;
  eid_t out_degrees = 0;  // sum of the out-degrees of its vertices
  std::uint64_t generation = 0;
  bool empty() const { return size == 0; }
};

// Reusable state of edge_map calls over one partitioned graph.
template <typename V>
class EdgeMapper {
 public:
  EdgeMapper(const PartitionedGraph<V>& pg, EngineMode mode)
      : pg_(pg),
        mode_(mode),
        replicate_(replica_copies(mode, pg.layout().nodes) > 0),
        served_(served_parts(pg.layout())),
        front_(pg.num_vertices()),
        next_bits_(pg.num_vertices()),
        word_replicas_(replica_copies(mode, pg.layout().nodes), static_cast<std::size_t>(front_.num_words())),
        summary_replicas_(replica_copies(mode, pg.layout().nodes), static_cast<std::size_t>(front_.num_summary_words())),
        next_(static_cast<std::size_t>(pg.layout().threads)),
        cursor_(static_cast<std::size_t>(pg.layout().nodes)),
        sums_(static_cast<std::size_t>(pg.layout().threads)) {
    if (mode == EngineMode::kNuma && !pg.has_push())
      throw UsageError("edge_map in numa mode needs a PartitionedGraph built with push parts");
  }

  // Which direction the last call took.
  Direction last_direction() const { return last_; }

  // A frontier of the given vertices, with their out-degree sum.
  Frontier<V> make_frontier(SparseFrontier<V> list) const {
    Frontier<V> f;
    f.size = static_cast<std::int64_t>(list.size());
    for (const V v : list) f.out_degrees += pg_.graph().out_degree(v);
    f.list = std::move(list);
    return f;
  }

  template <typename F, typename Acc>
  Frontier<V> edge_map(const Frontier<V>& frontier, F& f, const EdgeMapOptions& opt, Acc& acc) {
    if (frontier.dense && frontier.generation != generation_)
      throw UsageError("edge_map: a dense frontier can only be passed to the mapper's next call");
    Direction dir = opt.direction;
    if (dir == Direction::kAuto) {
      const double work = static_cast<double>(frontier.size) + static_cast<double>(frontier.out_degrees);
      dir = work > opt.dense_threshold * static_cast<double>(pg_.graph().num_arcs()) ? Direction::kPull
                                                                                    : Direction::kPush;
    }
    last_ = dir;
    if (dir == Direction::kPush) {
      if (!frontier.dense) return push(frontier.list, f, acc);
      SparseFrontier<V> list = to_list(frontier);
      Frontier<V> next = push(list, f, acc);
      recycle(std::move(list));
      return next;
    }
    return pull(frontier, f, acc);
  }

  // The list form of the latest frontier (ids in increasing order when dense).
  SparseFrontier<V> to_list(const Frontier<V>& frontier) {
    if (!frontier.dense) return frontier.list;
    if (frontier.generation != generation_)
      throw UsageError("edge_map: a dense frontier can only be read until the mapper's next call");
    const std::int64_t words = front_.num_words();
    run_on_threads(pg_.layout(), [&](int tid) {
      auto& mine = next_[static_cast<std::size_t>(tid)];
      const int threads = pg_.layout().threads;
      for (std::int64_t w = words * tid / threads; w < words * (tid + 1) / threads; ++w)
        for (std::uint64_t bits = front_.words()[w]; bits; bits &= bits - 1)
          mine.push_back(static_cast<V>(w * 64 + __builtin_ctzll(bits)));
    });
    return gather_finds();
  }

  // Hands back a list the caller is done with (a frontier it replaced): the
  // next lists the mapper makes reuse its memory instead of faulting in
  // fresh pages (docs/numa-engine.md, "BFS": page faults per search).
  // Up to kSpares lists are kept, the largest.
  void recycle(SparseFrontier<V>&& list) {
    if (list.capacity() == 0) return;
    spares_.push_back(std::move(list));
    std::sort(spares_.begin(), spares_.end(), [](const auto& a, const auto& b) { return a.capacity() > b.capacity(); });
    if (spares_.size() > kSpares) spares_.pop_back();
  }

  // The list-in, list-out form.
  template <typename F, typename Acc>
  SparseFrontier<V> edge_map(const SparseFrontier<V>& frontier, F& f, const EdgeMapOptions& opt, Acc& acc) {
    Frontier<V> next = edge_map(make_frontier(frontier), f, opt, acc);
    return to_list(next);
  }

 private:
  // What a step found, summed over the threads.
  Frontier<V> collect(bool dense) {
    ++generation_;
    Frontier<V> out;
    for (const auto& s : sums_) {
      out.size += s.value.found;
      out.out_degrees += s.value.degrees;
    }
    out.dense = dense;
    out.generation = generation_;
    if (!dense) out.list = gather_finds();
    return out;
  }

  template <typename F, typename Acc>
  Frontier<V> push(const SparseFrontier<V>& frontier, F& f, Acc& acc) {
    const bool numa = mode_ == EngineMode::kNuma;
    const auto& g = pg_.graph();
    for (auto& c : cursor_) c.value.store(0);
    run_on_threads(pg_.layout(), [&](int tid) {
      auto& next = next_[static_cast<std::size_t>(tid)];
      Found found;
      const std::int64_t fsize = static_cast<std::int64_t>(frontier.size());
      // 64 entries per claim, fewer for a short frontier: its few vertices
      // may be hubs, and one chunk would leave every other thread idle.
      const std::int64_t kChunk = std::clamp<std::int64_t>(fsize / (8 * pg_.layout().threads), 1, 64);
      auto visit = [&](V u, V v) {
        if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
        if constexpr (requires(eid_t& d) { f.update_atomic(u, v, d); }) {
          eid_t degree = 0;
          if (f.cond(v) && f.update_atomic(u, v, degree)) {
            next.push_back(v);
            ++found.found;
            found.degrees += degree;
          }
        } else if (f.cond(v) && f.update_atomic(u, v)) {
          next.push_back(v);
          ++found.found;
          found.degrees += g.out_degree(v);
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);  // its degree
        }
      };
      // Raw pointers hoisted out of the loops: the edge loop is the hot one.
      auto drain = [&](std::atomic<std::int64_t>& cursor, int part) {
        // Push parts cover every vertex (first == 0), so u indexes them directly.
        const eid_t* off = numa ? pg_.push(part).offsets.data() : g.out().offsets.data();
        const V* nbr = numa ? pg_.push(part).neighbors.data() : g.out().neighbors.data();
        const V* list = frontier.data();
        for (std::int64_t s; (s = cursor.fetch_add(kChunk)) < fsize;) {
          for (std::int64_t i = s, end = std::min(fsize, s + kChunk); i < end; ++i) {
            const V u = list[i];
            const eid_t b = off[u], e = off[u + 1];
            if constexpr (Acc::enabled) {
              acc.count(tid, 0, Pattern::kSequential);  // list entry
              if (numa) {
                acc.count(tid, part, Pattern::kRandom);  // u's offsets in the part
                acc.count(tid, part, Pattern::kSequential, e - b);
              } else {
                acc.count_vertex(tid, u, Pattern::kRandom);
                acc.count_vertex(tid, u, Pattern::kSequential, e - b);
              }
            }
            for (eid_t j = b; j < e; ++j) visit(u, nbr[j]);
          }
        }
      };
      if (!numa) {
        drain(cursor_[0].value, 0);
      } else {
        for (int part : served_[static_cast<std::size_t>(tid)])
          drain(cursor_[static_cast<std::size_t>(part)].value, part);
      }
      sums_[static_cast<std::size_t>(tid)].value = found;
    });
    return collect(false);
  }

  template <typename F, typename Acc>
  Frontier<V> pull(const Frontier<V>& frontier, F& f, Acc& acc) {
    const Layout& layout = pg_.layout();
    const bool numa = mode_ == EngineMode::kNuma;
    const auto& g = pg_.graph();
    if (!frontier.dense) {
      front_.clear();
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(frontier.list.size()); ++i)
        front_.set_bit_atomic(frontier.list[static_cast<std::size_t>(i)]);
      front_.rebuild_summary();
    }
    next_bits_.clear();
    const bool use_summary = front_.summary_density() < 0.5;
    if (replicate_) {
      // Owners refresh every replica of the words of their range; a word
      // that two ranges share belongs to the range that ends in it, so each
      // word has one writer. Each thread fills the replicas one after the
      // other, starting with its own node's (the rolling update).
      run_on_threads(layout, [&](int tid) {
        const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
        for (const auto& [lo, hi] : layout.thread_ranges[tid]) {
          const std::int64_t first = (lo + 63) / 64, last = (hi + 63) / 64;
          word_replicas_.set_range(static_cast<std::size_t>(first), static_cast<std::size_t>(last), front_.words(),
                                   my_node);
          if constexpr (Acc::enabled)
            if (last > first)
              for (int k = 0; k < layout.nodes; ++k) acc.count(tid, k, Pattern::kSequential, last - first);
        }
        const std::int64_t sw = front_.num_summary_words();
        summary_replicas_.set_range(static_cast<std::size_t>(sw * tid / layout.threads),
                                    static_cast<std::size_t>(sw * (tid + 1) / layout.threads), front_.summary(),
                                    my_node);
      });
    }
    // Chunks are 1024 vertices on a grid of multiples of 64 (clipped to the
    // node's range), so two chunks share a bitmap word only at a node
    // boundary: only there does setting a bit of the next frontier need an
    // atomic.
    constexpr std::int64_t kChunk = 1024;
    for (auto& c : cursor_) c.value.store(0);
    const std::int64_t n = pg_.num_vertices();
    run_on_threads(layout, [&](int tid) {
      Found found;
      const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
      const std::uint64_t* words = replicate_ ? word_replicas_.copy(my_node) : front_.words();
      const std::uint64_t* summary = replicate_ ? summary_replicas_.copy(my_node) : front_.summary();
      auto scan = [&](const eid_t* offsets, std::int64_t first, const V* nbr, std::atomic<std::int64_t>& cursor,
                      std::int64_t range_lo, std::int64_t range_hi, int part, auto in_frontier) {
        const std::int64_t base = range_lo & ~std::int64_t{63};
        const std::int64_t first_word = range_lo >> 6, last_word = (range_hi - 1) >> 6;
        for (std::int64_t c; (c = base + cursor.fetch_add(kChunk)) < range_hi;) {
          for (std::int64_t v = std::max(c, range_lo); v < std::min(range_hi, c + kChunk); ++v) {
            if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);
            if (!f.cond(static_cast<V>(v))) continue;
            const eid_t b = offsets[v - first], e = offsets[v - first + 1];
            eid_t j = b;
            bool added = false;
            for (; j < e; ++j) {
              const V u = nbr[j];
              if constexpr (Acc::enabled) {
                if (numa) acc.count(tid, my_node, Pattern::kRandom);
                else acc.count_vertex(tid, u, Pattern::kRandom);
              }
              // Only this thread updates v (it owns v), so cond(v) can only
              // change after a successful update: test it there, not per edge.
              eid_t degree = 0;
              if constexpr (requires { f.update(u, static_cast<V>(v), degree); }) {
                if (!in_frontier(u) || !f.update(u, static_cast<V>(v), degree)) continue;
              } else {
                if (!in_frontier(u) || !f.update(u, static_cast<V>(v))) continue;
                degree = g.out_degree(static_cast<V>(v));
                if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);  // its degree
              }
              if (!added) {
                if ((v >> 6) == first_word || (v >> 6) == last_word) next_bits_.set_bit_atomic(v);
                else next_bits_.set_bit_owned(v);
                ++found.found;
                found.degrees += degree;
                added = true;
              }
              if (!f.cond(static_cast<V>(v))) {
                ++j;
                break;
              }
            }
            if constexpr (Acc::enabled) {
              if (numa) acc.count(tid, part, Pattern::kSequential, j - b + 1);
              else acc.count_vertex(tid, v, Pattern::kSequential, j - b + 1);
            }
          }
        }
      };
      auto run = [&](auto in_frontier) {
        if (!numa) {
          const auto& in = g.in_arrays();
          scan(in.offsets.data(), 0, in.neighbors.data(), cursor_[0].value, 0, n, 0, in_frontier);
          return;
        }
        for (int part : served_[static_cast<std::size_t>(tid)]) {
          const NodeEdges<V>& in = pg_.pull(part);
          scan(in.offsets.data(), in.first, in.neighbors.data(), cursor_[static_cast<std::size_t>(part)].value,
               layout.node_bounds[part], layout.node_bounds[part + 1], part, in_frontier);
        }
      };
      if (use_summary) run([&](V u) { return test_bit_summarized(words, summary, u); });
      else run([&](V u) { return test_bit(words, u); });
      sums_[static_cast<std::size_t>(tid)].value = found;
    });
    next_bits_.rebuild_summary();
    front_.swap(next_bits_);
    return collect(true);
  }

  struct Found {
    std::int64_t found = 0;
    eid_t degrees = 0;
  };

  // Lists in flight at once: the frontier being read, the one being made,
  // and a dense frontier's list form during a push.
  static constexpr std::size_t kSpares = 3;

  // The threads' finds (next_), concatenated in thread order into the
  // largest recycled list (or a new one), and cleared.
  SparseFrontier<V> gather_finds() {
    SparseFrontier<V> list;
    if (!spares_.empty()) {
      list = std::move(spares_.front());
      spares_.erase(spares_.begin());
    }
    concatenate(next_, list);
    return list;
  }

  const PartitionedGraph<V>& pg_;
  EngineMode mode_;
  bool replicate_;  // numa mode on several nodes: pull steps read node-local bitmap copies
  std::vector<std::vector<int>> served_;
  Bitmap front_;      // the latest dense frontier (input of the next pull)
  Bitmap next_bits_;  // written by a pull, then swapped into front_
  Replicas<std::uint64_t> word_replicas_, summary_replicas_;
  std::vector<std::vector<V>> next_;  // per-thread finds; cleared, not freed, by concatenate
  std::vector<SparseFrontier<V>> spares_;  // recycled lists, largest first (see recycle)
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursor_;
  std::vector<parallel::Padded<Found>> sums_;
  std::uint64_t generation_ = 0;
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
