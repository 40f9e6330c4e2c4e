// Direction-optimizing BFS on the NUMA engine (Beamer's top-down/bottom-up
// switching, Polymer's per-node edge partitions).
//
// Top-down (sparse frontier): every node walks the whole frontier list in
// order (a sequential read, remote for other nodes' entries) and follows only
// its push part: the out-edges whose target it owns. Claiming a target
// (compare-and-swap on parent) is therefore always a local random write.
// Bottom-up (dense frontier): every node checks its own unvisited vertices,
// scanning their in-edges (local) and testing the frontier bitmap in its own
// replica (local random reads); a found parent is a local write, and the
// owner refreshes every replica of the next bitmap word by word (sequential).
//
// kFlat mode runs the same steps on the shared arrays (no push parts, one
// bitmap), which is what a NUMA-oblivious BFS does; the accounting compares
// the two. Depths are the same in both modes and on every topology; parents
// may differ (any BFS tree is valid) and are checked by the BFS verifier.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "numagraph/engine/barrier.hpp"
#include "numagraph/engine/frontier.hpp"
#include "numagraph/engine/pull_sum.hpp"

namespace numagraph::kernels {

struct NumaBfsOptions {
  double alpha = 15;  // top-down -> bottom-up when frontier edges > unexplored edges / alpha
  double beta = 18;   // bottom-up -> top-down when frontier vertices < n / beta
};

struct NumaBfsResult {
  NumaArray<std::int64_t> parent;  // -1: not reached; the root is its own parent
  NumaArray<std::int32_t> depth;   // -1: not reached
  int top_down_steps = 0;
  int bottom_up_steps = 0;
};

namespace detail {

// Nodes each thread serves: its own, plus nodes that have no thread at all.
inline std::vector<std::vector<int>> served_parts(const engine::Layout& l) {
  std::vector<std::vector<int>> served(static_cast<std::size_t>(l.threads));
  std::vector<int> members(static_cast<std::size_t>(l.nodes), 0);
  for (int t = 0; t < l.threads; ++t) ++members[static_cast<std::size_t>(l.thread_node[t])];
  for (int t = 0; t < l.threads; ++t) served[t].push_back(l.thread_node[t]);
  for (int k = 0; k < l.nodes; ++k)
    if (members[k] == 0) served[static_cast<std::size_t>(k % l.threads)].push_back(k);
  return served;
}

}  // namespace detail

template <typename V, typename Acc = engine::NoAccounting>
NumaBfsResult bfs_numa(const engine::PartitionedGraph<V>& pg, V root, const NumaBfsOptions& o,
                       engine::EngineMode mode, Acc& acc) {
  using namespace engine;
  const Layout& layout = pg.layout();
  const auto& g = pg.graph();
  const std::int64_t n = pg.num_vertices();
  const bool numa = mode == EngineMode::kNuma;
  if (numa && !pg.has_push())
    throw UsageError("bfs_numa in numa mode needs a PartitionedGraph built with push parts");
  NumaBfsResult r;
  r.parent = NumaArray<std::int64_t>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  r.depth = NumaArray<std::int32_t>(static_cast<std::size_t>(n), numa::Placement::partitioned());
  run_on_threads(layout, [&](int tid) {
    for (const auto& [lo, hi] : layout.thread_ranges[tid])
      for (std::int64_t v = lo; v < hi; ++v) {
        r.parent[v] = -1;
        r.depth[v] = -1;
      }
  });
  r.parent[root] = static_cast<std::int64_t>(root);
  r.depth[root] = 0;

  const auto served = detail::served_parts(layout);
  const eid_t total_arcs = g.num_arcs();
  SparseFrontier<V> frontier{root};
  std::vector<std::vector<V>> next_parts(static_cast<std::size_t>(layout.threads));
  Bitmap front_bits(n), next_bits(n);
  Replicas<std::uint64_t> bit_replicas(numa ? layout.nodes : 0, static_cast<std::size_t>(front_bits.num_words()));
  std::vector<parallel::Padded<std::atomic<std::int64_t>>> cursor(static_cast<std::size_t>(layout.nodes));
  eid_t explored = g.out_degree(root);
  bool bottom_up = false;

  for (std::int32_t level = 0; !frontier.empty(); ++level) {
    // Beamer's heuristic on the current frontier.
    // (One degree read per frontier vertex, wherever it lives: the only
    // remote random reads left in kNuma mode; docs/numa-engine.md.)
    std::vector<parallel::Padded<std::int64_t>> degree_sums(static_cast<std::size_t>(layout.threads));
    run_on_threads(layout, [&](int tid) {
      const std::int64_t f = static_cast<std::int64_t>(frontier.size());
      std::int64_t sum = 0;
      for (std::int64_t i = f * tid / layout.threads; i < f * (tid + 1) / layout.threads; ++i) {
        sum += g.out_degree(frontier[static_cast<std::size_t>(i)]);
        if constexpr (Acc::enabled) acc.count_vertex(tid, frontier[static_cast<std::size_t>(i)], Pattern::kRandom);
      }
      degree_sums[static_cast<std::size_t>(tid)].value = sum;
    });
    std::int64_t frontier_edges = 0;
    for (const auto& s : degree_sums) frontier_edges += s.value;
    if (!bottom_up && static_cast<double>(frontier_edges) > static_cast<double>(total_arcs - explored) / o.alpha)
      bottom_up = true;
    else if (bottom_up && static_cast<double>(frontier.size()) < static_cast<double>(n) / o.beta)
      bottom_up = false;

    if (!bottom_up) {
      ++r.top_down_steps;
      for (auto& c : cursor) c.value.store(0);
      run_on_threads(layout, [&](int tid) {
        auto& next = next_parts[static_cast<std::size_t>(tid)];
        constexpr std::int64_t kChunk = 64;
        const std::int64_t fsize = static_cast<std::int64_t>(frontier.size());
        auto claim = [&](V u, V v) {
          if (__atomic_load_n(&r.parent[v], __ATOMIC_RELAXED) < 0 &&
              parallel::compare_and_swap(r.parent[v], std::int64_t{-1}, static_cast<std::int64_t>(u))) {
            r.depth[v] = level + 1;
            next.push_back(v);
          }
          if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kRandom);
        };
        if (!numa) {  // one shared cursor over the shared CSR
          for (std::int64_t s; (s = cursor[0].value.fetch_add(kChunk)) < fsize;) {
            for (std::int64_t i = s; i < std::min(fsize, s + kChunk); ++i) {
              const V u = frontier[static_cast<std::size_t>(i)];
              if constexpr (Acc::enabled) {
                acc.count(tid, 0, Pattern::kSequential);  // frontier list entry
                acc.count_vertex(tid, u, Pattern::kRandom);  // u's offsets
                acc.count_vertex(tid, u, Pattern::kSequential, g.out_degree(u));  // u's edges
              }
              for (V v : g.out_neighbors(u)) claim(u, v);
            }
          }
          return;
        }
        for (int part : served[static_cast<std::size_t>(tid)]) {
          const NodeEdges<V>& push = pg.push(part);
          auto& c = cursor[static_cast<std::size_t>(part)].value;
          for (std::int64_t s; (s = c.fetch_add(kChunk)) < fsize;) {
            for (std::int64_t i = s; i < std::min(fsize, s + kChunk); ++i) {
              const V u = frontier[static_cast<std::size_t>(i)];
              const eid_t b = push.begin(u), e = push.end(u);
              if constexpr (Acc::enabled) {
                acc.count(tid, 0, Pattern::kSequential);           // frontier list entry
                acc.count(tid, part, Pattern::kRandom);            // u's offsets in the part
                acc.count(tid, part, Pattern::kSequential, e - b); // u's edges into the part
              }
              for (eid_t j = b; j < e; ++j) claim(u, push.neighbors[static_cast<std::size_t>(j)]);
            }
          }
        }
      });
    } else {
      ++r.bottom_up_steps;
      // Dense frontier: set the bits of the current frontier, then refresh replicas.
      front_bits.clear();
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(frontier.size()); ++i)
        front_bits.set_atomic(frontier[static_cast<std::size_t>(i)]);
      if (numa) {
        run_on_threads(layout, [&](int tid) {
          for (const auto& [lo, hi] : layout.thread_ranges[tid]) {
            // Words fully or partly inside this thread's range; a word shared
            // by two ranges is copied by both with the same value.
            for (std::int64_t w = lo / 64; w < (hi + 63) / 64; ++w)
              for (int k = 0; k < layout.nodes; ++k) {
                bit_replicas.copy(k)[w] = front_bits.words()[w];
                if constexpr (Acc::enabled) acc.count(tid, k, Pattern::kSequential);
              }
          }
        });
      }
      run_on_threads(layout, [&](int tid) {
        auto& next = next_parts[static_cast<std::size_t>(tid)];
        const int my_node = layout.thread_node[static_cast<std::size_t>(tid)];
        const std::uint64_t* bits = numa ? bit_replicas.copy(my_node) : front_bits.words();
        for (const auto& [lo, hi] : layout.thread_ranges[tid]) {
          const int part = layout.node_of_vertex(lo);
          const NodeEdges<V>& in = pg.pull(part);
          for (std::int64_t v = lo; v < hi; ++v) {
            if constexpr (Acc::enabled) acc.count_vertex(tid, v, Pattern::kSequential);
            if (r.parent[v] >= 0) continue;
            const eid_t b = in.begin(v), e = in.end(v);
            eid_t j = b;
            for (; j < e; ++j) {
              const V u = in.neighbors[static_cast<std::size_t>(j)];
              if constexpr (Acc::enabled) {
                if (numa) acc.count(tid, my_node, Pattern::kRandom);
                else acc.count(tid, layout.node_of_vertex(u), Pattern::kRandom);
              }
              if (test_bit(bits, u)) {
                r.parent[v] = u;
                r.depth[v] = level + 1;
                next.push_back(static_cast<V>(v));
                break;
              }
            }
            if constexpr (Acc::enabled) acc.count(tid, part, Pattern::kSequential, j - b + 1);
          }
        }
      });
    }
    frontier = concatenate(next_parts);
    explored += frontier_edges;
  }
  return r;
}

}  // namespace numagraph::kernels
