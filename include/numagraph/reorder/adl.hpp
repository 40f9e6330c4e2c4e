// Adaptive Data Layout (the NUMA-aware BC paper, seed 000 §IV-A, Fig. 3):
// number the vertices in the order one BFS discovers them, then reverse the
// numbering as RCM does.
//
//   adl_order(g, root, /*parallel=*/true): a parallel top-down BFS in which
//     each thread appends what it claims to its own next-frontier queue; the
//     next frontier is the threads' queues concatenated in thread-id order,
//     so vertices are sorted by <depth, thread owner, discovery time>. Threads
//     claim the frontier in chunks of 64 vertices, as the flat BFS does;
//     frontiers under 64 vertices are expanded by thread 0 alone. Which thread
//     wins a contested vertex varies from run to run, so the order does too.
//   adl_order(g, root, false): a serial BFS, <depth, discovery time>; the
//     same as the parallel variant on one thread.
//
// Neighbours are visited in adjacency order (out-edges, then the in-edges of
// a directed graph, common.hpp). Components: the first search starts from
// the root (Spec::root or the highest-degree vertex), each further one from
// the highest-degree vertex not yet reached (ties by id); isolated vertices
// come last by id; then the whole sequence is reversed, so within a
// component depth never increases along the new ids.
#pragma once

#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/reorder/common.hpp"

namespace numagraph::reorder {

namespace detail {

inline constexpr std::int64_t kAdlChunk = 64;

// Level-synchronous BFS appending to seq[filled..): whenever the frontier is
// empty, one thread calls next_root() for a new start (-1: done). Two
// barriers per level: after the expansion (the queue sizes are known; every
// thread sums them itself) and after the copy (the next frontier is
// complete; nobody rewrites a size before every thread has summed them).
template <typename V, typename NextRoot>
void adl_parallel_searches(const CSRGraph<V>& g, std::uint8_t* visited, V* seq, std::int64_t& filled,
                           NextRoot&& next_root) {
  const int threads = parallel::max_threads();
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(threads), 0);
  std::int64_t root = -1;
  const std::int64_t start = filled;
  std::int64_t end = start;
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id(), nt = parallel::num_threads_in_region();
    std::vector<V> local;
    auto expand = [&](V u) {
      for_each_undirected(g, u, [&](V w) {
        if (!parallel::load_relaxed(visited[w]) && parallel::compare_and_swap(visited[w], std::uint8_t{0}, std::uint8_t{1}))
          local.push_back(w);
      });
    };
    std::int64_t head = start, tail = start;
    for (;;) {
      if (head == tail) {
#pragma omp single
        {
          root = next_root();
          if (root >= 0) {
            visited[root] = 1;
            seq[tail] = static_cast<V>(root);
          }
        }
        if (root < 0) break;
        ++tail;
      }
      local.clear();
      if (tail - head < kAdlChunk) {
        if (t == 0)
          for (std::int64_t i = head; i < tail; ++i) expand(seq[i]);
      } else {
#pragma omp for schedule(dynamic, kAdlChunk) nowait
        for (std::int64_t i = head; i < tail; ++i) expand(seq[i]);
      }
      sizes[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(local.size());
#pragma omp barrier
      std::int64_t at = tail, total = 0;
      for (int i = 0; i < nt; ++i) {
        if (i == t) at += total;
        total += sizes[static_cast<std::size_t>(i)];
      }
      std::copy(local.begin(), local.end(), seq + at);
      head = tail;
      tail += total;
#pragma omp barrier
    }
    if (t == 0) end = tail;
  }
  filled = end;
}

// Serial BFS appending to seq[filled..) from s.
template <typename V>
void adl_serial_search(const CSRGraph<V>& g, V s, std::uint8_t* visited, V* seq, std::int64_t& filled) {
  std::int64_t head = filled, tail = filled;
  seq[tail++] = s;
  visited[s] = 1;
  while (head < tail)
    for_each_undirected(g, seq[head++], [&](V w) {
      if (!visited[w]) {
        visited[w] = 1;
        seq[tail++] = w;
      }
    });
  filled = tail;
}

}  // namespace detail

// old_of_new of the ADL order; root: -1 or a vertex (see compute.hpp).
template <typename V>
NumaArray<V> adl_order(const CSRGraph<V>& g, std::int64_t root, bool parallel_bfs) {
  const std::int64_t n = g.num_vertices();
  auto seq = NumaArray<V>::for_overwrite(static_cast<std::size_t>(n));
  if (n == 0) return seq;
  const NumaArray<eid_t> degree = detail::undirected_degrees(g, !parallel_bfs);
  NumaArray<std::uint8_t> visited(static_cast<std::size_t>(n));
  const V first = detail::first_root(g, root, degree, !parallel_bfs);
  std::int64_t filled = 0;
  // The first search, then one per component left (their roots are known
  // only once the first is done).
  for (int round = 0; round < 2 && filled < n; ++round) {
    NumaArray<V> roots;
    if (round == 0) {
      roots = NumaArray<V>::for_overwrite(1);
      roots[0] = first;
    } else {
      roots = detail::unvisited_by_degree(g, degree, visited.data(), !parallel_bfs);
    }
    if (parallel_bfs) {
      std::size_t next = 0;
      detail::adl_parallel_searches(g, visited.data(), seq.data(), filled, [&]() -> std::int64_t {
        while (next < roots.size() && visited[roots[next]]) ++next;
        return next < roots.size() ? static_cast<std::int64_t>(roots[next]) : -1;
      });
    } else {
      for (V r : roots)
        if (!visited[r]) detail::adl_serial_search(g, r, visited.data(), seq.data(), filled);
    }
  }
  detail::append_unvisited(n, visited.data(), seq.data(), filled);
  return detail::reversed(seq, !parallel_bfs);
}

}  // namespace numagraph::reorder
