// Direction-optimizing breadth-first search (Beamer, Asanovic, Patterson,
// SC 2012), the flat (NUMA-oblivious) kernel.
//
// Top-down steps expand a sparse frontier (a queue of ids): each thread
// claims unvisited neighbours with a compare-and-swap on parent and appends
// them to a thread-local buffer that is flushed into the next queue in blocks.
// Bottom-up steps let every unvisited vertex look for a parent among its
// in-neighbours in a dense frontier bitmap, stopping at the first hit.
// Switching follows Beamer: top-down -> bottom-up when the frontier's edges
// exceed the unexplored edges / alpha; back when the frontier has fewer than
// n / beta vertices. Default alpha = 15, beta = 18 (Beamer's).
//
// The frontier bitmap has a summary bitmap on top (seed 001): one bit per
// `summary_bits` vertices, set when any of them is in the frontier. A
// bottom-up probe reads the small, cache-resident summary first and touches
// the big bitmap only when the summary bit is set.
#pragma once

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bfs/options.hpp"
#include "numagraph/kernels/bfs/top_down_run.hpp"
#include "numagraph/kernels/static_split.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/bitmap_summary.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"

namespace numagraph::kernels {

namespace detail {

// A bitmap with a summary level (one bit per 2^shift bits of the base).
class SummaryBitmap {
 public:
  SummaryBitmap() = default;
  SummaryBitmap(std::int64_t n, int summary_bits)
      : words_(static_cast<std::size_t>((n + 63) / 64)),
        shift_(__builtin_ctz(static_cast<unsigned>(summary_bits))),
        summary_(static_cast<std::size_t>(((n >> shift_) + 64) / 64)) {}
  bool fits(std::int64_t n, int summary_bits) const {
    return words_.size() == static_cast<std::size_t>((n + 63) / 64) &&
           shift_ == __builtin_ctz(static_cast<unsigned>(summary_bits));
  }
  // After bits were set through words() (without the summary).
  void rebuild_summary() {
    parallel::rebuild_bitmap_summary(words_.data(), static_cast<std::int64_t>(words_.size()), shift_, summary_.data(),
                                     static_cast<std::int64_t>(summary_.size()));
  }
  void clear() {
    parallel::for_static(std::size_t{0}, words_.size(), [&](std::size_t i) { words_[i] = 0; });
    parallel::for_static(std::size_t{0}, summary_.size(), [&](std::size_t i) { summary_[i] = 0; });
  }
  void set(std::int64_t i) {
    __atomic_fetch_or(&words_[static_cast<std::size_t>(i >> 6)], 1ULL << (i & 63), __ATOMIC_RELAXED);
    const std::int64_t s = i >> shift_;
    std::uint64_t& sw = summary_[static_cast<std::size_t>(s >> 6)];
    if (!((__atomic_load_n(&sw, __ATOMIC_RELAXED) >> (s & 63)) & 1))
      __atomic_fetch_or(&sw, 1ULL << (s & 63), __ATOMIC_RELAXED);
  }
  // Fraction of summary bits set: when most are, checking them first only
  // adds a load, and Probe::direct() is the better test.
  double summary_density() const {
    std::int64_t set = 0;
    for (std::size_t w = 0; w < summary_.size(); ++w) set += __builtin_popcountll(summary_[w]);
    return static_cast<double>(set) / static_cast<double>(std::max<std::size_t>(1, summary_.size() * 64));
  }
  std::uint64_t word(std::size_t w) const { return words_[w]; }
  // Bits set here by threads that own whole words (chunks of a multiple of
  // 64 vertices) need no atomics; call rebuild_summary() after.
  std::uint64_t* words() { return words_.data(); }
  // The frontier tests of a bottom-up step, on raw pointers copied by value:
  // direct() reads the bitmap, through_summary() its summary bit first.
  struct Probe {
    const std::uint64_t* words;
    const std::uint64_t* summary;
    int shift;
    bool direct(std::int64_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
    bool through_summary(std::int64_t i) const {
      const std::int64_t s = i >> shift;
      return ((summary[s >> 6] >> (s & 63)) & 1) && direct(i);
    }
  };
  Probe probe() const { return {words_.data(), summary_.data(), shift_}; }
  std::size_t num_words() const { return words_.size(); }
  void swap(SummaryBitmap& o) {
    words_.swap(o.words_);
    summary_.swap(o.summary_);
    std::swap(shift_, o.shift_);
  }

 private:
  NumaArray<std::uint64_t> words_;
  int shift_ = 8;
  NumaArray<std::uint64_t> summary_;
};

// One bottom-up step: every unvisited vertex looks for a parent among its
// in-neighbours, stopping at the first one in the frontier; it sets its bit
// in `next_words` (chunks of 1024 vertices, so each thread owns whole words).
// A function on raw pointers rather than a lambda capturing them: in a
// lambda's parallel loop the step took 1.15x the time (docs/kernels/bfs.md).
template <typename V, typename P, typename InFrontier>
void bottom_up_step(std::int64_t n, const eid_t* in_off, const V* in_nbr, P* parent, std::int32_t* depth,
                    std::int32_t next_level, InFrontier in_frontier, std::uint64_t* next_words, std::int64_t& awake,
                    eid_t& next_edges) {
  std::int64_t found = 0;
  eid_t edges = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : found, edges)
  for (std::int64_t v = 0; v < n; ++v) {
    const P mark = parent[v];
    if (mark >= 0) continue;
    for (eid_t e = in_off[v], end = in_off[v + 1]; e < end; ++e) {
      const V u = in_nbr[e];
      if (in_frontier(u)) {
        edges += -mark - 1;
        parent[v] = static_cast<P>(u);
        if (depth) depth[v] = next_level;
        next_words[v >> 6] |= 1ULL << (v & 63);
        ++found;
        break;
      }
    }
  }
  awake = found;
  next_edges = edges;
}

}  // namespace detail

// Scratch arrays of a search, kept between searches from many roots so each
// search does not pay for fresh pages (with transparent huge pages a first
// touch can stall on compaction).
template <typename V>
struct BfsWorkspace {
  NumaArray<V> queue;
  detail::SummaryBitmap front, next;
};

// The search itself, reusing `r`'s arrays and `ws` when their sizes fit.
// Top-down levels that scan fewer edges than this run on one thread: cheaper
// than any synchronisation for the few edges, and roads have hundreds of
// thin levels. Measured: docs/kernels/bfs.md (USA-road-d.NY).
inline constexpr eid_t kSerialEdges = 256;

template <typename V>
void bfs_direction_optimizing(const CSRGraph<V>& g, V root, const BfsOptions& o, BfsResult<V>& r,
                              BfsWorkspace<V>& ws) {
  using P = typename BfsResult<V>::Parent;
  const std::int64_t n = g.num_vertices();
  if (static_cast<std::int64_t>(root) >= n) throw UsageError("BFS root " + std::to_string(root) + " is not a vertex");
  if (o.summary_bits < 64 || o.summary_bits > 4096 || (o.summary_bits & (o.summary_bits - 1)))
    throw UsageError("--summary-bits must be a power of two in 64..4096 (got " + std::to_string(o.summary_bits) + ")");
  if (!g.has_in_edges()) throw UsageError("direction-optimizing BFS needs in-edges: build the graph with in_edges");
  r.top_down_steps = r.bottom_up_steps = 0;
  // An unvisited vertex holds -(out-degree + 1): the top-down step reads the
  // degree of a vertex it claims from the word it just compared, saving a
  // random read of the offsets for the switching heuristic.
  // Every array below is written whole before it is read, so each may come
  // back from the recycle bin (numa/memory.hpp) instead of fresh zeroed pages.
  if (r.parent.size() != static_cast<std::size_t>(n))
    r.parent = NumaArray<P>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("parents"));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
    r.parent[v] = static_cast<P>(-(g.out_degree(static_cast<V>(v)) + 1));
  });
  if (o.compute_depth) {
    if (r.depth.size() != static_cast<std::size_t>(n))
      r.depth = NumaArray<std::int32_t>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("depth"));
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { r.depth[v] = -1; });
    r.depth[root] = 0;
  }
  r.parent[root] = static_cast<P>(root);
  std::int32_t* depth = o.compute_depth ? r.depth.data() : nullptr;

  // One queue array for the whole search: every vertex enters it at most
  // once, so level after level the frontier is the window [head, tail) and
  // the next level is appended behind it (a sliding queue).
  if (ws.queue.size() != static_cast<std::size_t>(n))
    ws.queue = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("frontier"));
  if (!ws.front.fits(n, o.summary_bits)) ws.front = detail::SummaryBitmap(n, o.summary_bits);
  if (!ws.next.fits(n, o.summary_bits)) ws.next = detail::SummaryBitmap(n, o.summary_bits);
  NumaArray<V>& queue = ws.queue;
  detail::SummaryBitmap& front = ws.front;
  detail::SummaryBitmap& next = ws.next;
  std::int64_t head = 0, tail = 1;
  queue[0] = root;
  eid_t unexplored = g.num_arcs() - g.out_degree(root);
  eid_t frontier_edges = g.out_degree(root);
  bool bottom_up = false;

  // Beamer's test, plus a floor: a bottom-up step reads all n parents, so a
  // frontier with fewer than n / beta edges (the tail of a search, where
  // little is left unexplored) stays top-down, which is cheaper.
  auto go_bottom_up = [&](eid_t edges, eid_t left) {
    return static_cast<double>(edges) > static_cast<double>(left) / o.alpha &&
           static_cast<double>(edges) >= static_cast<double>(n) / o.beta;
  };
  std::int64_t qsize = 1;
  for (std::int32_t level = 0; qsize > 0;) {
    throw_if_cancelled();  // Ctrl-C in Python: once per level, outside parallel regions
    if (!bottom_up && go_bottom_up(frontier_edges, unexplored)) {
      bottom_up = true;
      front.clear();
      parallel::for_static(head, tail, [&](std::int64_t i) { front.set(queue[i]); });
    } else if (bottom_up && static_cast<double>(qsize) < static_cast<double>(n) / o.beta) {
      bottom_up = false;
    }
    std::int64_t next_size = 0;
    eid_t next_edges = 0;
    std::optional<profile::InnerPhase> phase;  // a top-down run marks its own levels
    if (bottom_up || frontier_edges < kSerialEdges) phase.emplace(bottom_up ? "level bottom-up" : "level top-down");
    if (bottom_up) {
      ++r.bottom_up_steps;
      next.clear();
      std::int64_t awake = 0;
      // The summary pays while the frontier is sparse in places; once most
      // summary bits are set, probe the bitmap directly.
      const bool use_summary = front.summary_density() < 0.5;
      const auto probe = front.probe();
      const eid_t* in_off = g.in_arrays().offsets.data();
      const V* in_nbr = g.in_arrays().neighbors.data();
      if (use_summary)
        detail::bottom_up_step(n, in_off, in_nbr, r.parent.data(), depth, level + 1,
                               [probe](V u) { return probe.through_summary(u); }, next.words(), awake, next_edges);
      else
        detail::bottom_up_step(n, in_off, in_nbr, r.parent.data(), depth, level + 1,
                               [probe](V u) { return probe.direct(u); }, next.words(), awake, next_edges);
      next.rebuild_summary();
      front.swap(next);
      next_size = awake;
      // Materialise the queue only when the next step is top-down.
      if (static_cast<double>(awake) < static_cast<double>(n) / o.beta) {
        std::atomic<std::int64_t> end{tail};
#pragma omp parallel
        {
          std::vector<V> local;
#pragma omp for schedule(static) nowait
          for (std::int64_t w = 0; w < static_cast<std::int64_t>(front.num_words()); ++w)
            for (std::uint64_t bits = front.word(static_cast<std::size_t>(w)); bits; bits &= bits - 1)
              local.push_back(static_cast<V>(w * 64 + __builtin_ctzll(bits)));
          const std::int64_t at = end.fetch_add(static_cast<std::int64_t>(local.size()));
          std::copy(local.begin(), local.end(), queue.begin() + at);
        }
        head = tail;
        tail = end.load();
      }
    } else if (frontier_edges < kSerialEdges) {
      // A thin frontier (road graphs have hundreds of such levels): one
      // thread expands it, cheaper than waking the team for a few edges.
      ++r.top_down_steps;
      std::int64_t end = tail;
      for (std::int64_t i = head; i < tail; ++i) {
        const V u = queue[i];
        for (V v : g.out_neighbors(u)) {
          const P seen = r.parent[v];
          if (seen < 0) {
            r.parent[v] = static_cast<P>(u);
            next_edges += -seen - 1;
            if (depth) depth[v] = level + 1;
            queue[end++] = v;
          }
        }
      }
      next_size = end - tail;
      head = tail;
      tail = end;
      unexplored -= next_edges;
    } else {
      // Consecutive thick top-down levels share one parallel region (one
      // barrier per level); the run stops where the test above would turn
      // bottom-up or the frontier thins out.
      detail::TopDownState st{head, tail, level, frontier_edges, unexplored, 0};
      detail::top_down_run(g, r.parent.data(), depth, queue.data(), st, splits_statically(g), [&](eid_t edges, eid_t left) {
        return edges < kSerialEdges || go_bottom_up(edges, left);
      });
      r.top_down_steps += st.steps;
      head = st.head;
      tail = st.tail;
      level = st.level;
      frontier_edges = st.frontier_edges;
      unexplored = st.unexplored;
      qsize = tail - head;
      continue;
    }
    // As in Beamer's own code, only top-down steps count edges as explored
    // (the top-down branches do): once the search has been bottom-up, the estimate
    // stays high, so a thin tail is not handed to a full bottom-up sweep.
    frontier_edges = next_edges;
    qsize = next_size;
    ++level;
  }
}

template <typename V>
BfsResult<V> bfs_direction_optimizing(const CSRGraph<V>& g, V root, const BfsOptions& o = {}) {
  BfsResult<V> r;
  BfsWorkspace<V> ws;
  bfs_direction_optimizing(g, root, o, r, ws);
  return r;
}

// Depths of a BFS tree from its parent array (for results computed without
// depths): each vertex climbs to the first ancestor of known depth and the
// path is filled on the way back, so every vertex is resolved once.
template <typename V, typename P>
NumaArray<std::int32_t> depths_from_parents(const CSRGraph<V>& g, V root, const P* parent) {
  const std::int64_t n = g.num_vertices();
  NumaArray<std::int32_t> depth(static_cast<std::size_t>(n));
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { depth[v] = parent[v] < 0 ? -1 : -2; });
  depth[root] = 0;
  std::vector<std::int64_t> path;
  for (std::int64_t v = 0; v < n; ++v) {
    std::int64_t x = v;
    while (depth[x] == -2) {
      path.push_back(x);
      x = static_cast<std::int64_t>(parent[x]);
      if (x < 0 || x >= n || static_cast<std::int64_t>(path.size()) > n) {
        x = -1;  // broken chain: leave the path at -2 for the verifier to reject
        break;
      }
    }
    if (x < 0) {
      path.clear();
      continue;
    }
    for (std::int32_t d = depth[x]; !path.empty(); path.pop_back()) depth[path.back()] = ++d;
  }
  return depth;
}

}  // namespace numagraph::kernels
