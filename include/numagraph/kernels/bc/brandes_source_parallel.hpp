// Betweenness centrality with the parallelism over sources instead of inside
// each search: every thread runs serial Brandes searches, source after source,
// on arrays of its own, and the threads' score sums are added at the end.
//
// Why: on a road network a search has hundreds or thousands of levels of a
// few hundred vertices each, so a level-synchronous search spends its time in
// barriers and atomics (docs/kernels/bc.md). With many sampled sources there
// is enough independent work without splitting one search: no barrier, no
// atomic, and each thread's arrays stay in its own cache. It costs memory per
// thread: 40 bytes per vertex and 4 per arc with 32-bit ids (44 and 8 with
// 64-bit ones), which flat_bc_variant's automatic choice checks.
//
// Sources go to threads round robin (source i to thread i mod T), and the
// threads' sums are added in thread order, so a run is deterministic for a
// given thread count. Each search is the textbook one: a FIFO queue whose
// order is also the backward sweep's stack, path counts added when an arc
// leads one level down. Those arcs (the shortest-path DAG's) are also written
// to a list, position by position of the queue, so the backward sweep reads
// only them, without a depth test, instead of every arc again: on road-NY
// they are 44 % of the arcs (docs/kernels/bc.md). The sweep keeps, as
// brandes_direction_optimizing.hpp does,
//   c[w] = (1 + delta[w]) / sigma[w] = 1 / sigma[w] + sum of c over successors,
// delta[w] = sigma[w] * (sum of c): one division per vertex, not one per arc,
// and one array read per successor, not two, and sets each vertex's depth and
// sigma back once it is done. Raw sums over the sources, as
// betweenness_brandes gives. Phases: thread 0 marks each of its searches
// "backward", one per round of `threads` sources.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::kernels {

// Bytes of per-thread scratch the source-parallel kernel needs for n vertices
// and `arcs` arcs.
template <typename V>
std::uint64_t source_parallel_bytes_per_thread(std::int64_t n, std::uint64_t arcs) {
  // sigma, c, scores, depth, order, the end of each queue position's DAG arcs; the DAG arcs
  return static_cast<std::uint64_t>(n) * (8 + 8 + 8 + 4 + sizeof(V) + sizeof(eid_t)) + arcs * sizeof(V);
}

// The most scratch BC's automatic choice spends on this kernel's per-thread
// arrays or on the batched kernel's lanes: a quarter of the machine's
// memory, at most 8 GiB.
inline std::uint64_t bc_scratch_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const std::uint64_t physical =
      pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : std::uint64_t{4} << 30;
  return std::min<std::uint64_t>(physical / 4, std::uint64_t{8} << 30);
}

template <typename V>
void betweenness_brandes_source_parallel(const CSRGraph<V>& g, const std::vector<V>& sources,
                                         NumaArray<double>& scores) {
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  const int threads = std::max(1, std::min<int>(parallel::max_threads(), static_cast<int>(sources.size())));
  std::vector<NumaArray<double>> sums(static_cast<std::size_t>(threads));
  std::atomic<bool> stopped{false};
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id();
    // First touch by the thread that uses them: each thread's arrays on its node
    // (with --placement local; a --place role policy wins, as everywhere).
    const auto size = static_cast<std::size_t>(n);
    auto sigma = NumaArray<double>::for_overwrite(size, numa::placement_for("sigma"));
    auto c = NumaArray<double>::for_overwrite(size, numa::placement_for("delta"));
    NumaArray<double>& sum = sums[static_cast<std::size_t>(t)];
    sum = NumaArray<double>::for_overwrite(size, numa::placement_for("scores"));
    auto depth = NumaArray<std::int32_t>::for_overwrite(size, numa::placement_for("depth"));
    auto order = NumaArray<V>::for_overwrite(std::max<std::size_t>(size, 1), numa::placement_for("frontier"));
    // An arc is in a search's DAG at most once: num_arcs() bounds the list.
    auto successors = NumaArray<V>::for_overwrite(std::max<std::size_t>(g.num_arcs(), 1), numa::placement_for("frontier"));
    auto successors_end = NumaArray<eid_t>::for_overwrite(std::max<std::size_t>(size, 1), numa::placement_for("frontier"));
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(depth.begin(), depth.end(), -1);
    for (std::size_t i = static_cast<std::size_t>(t); i < sources.size(); i += static_cast<std::size_t>(threads)) {
      if (cancel_requested()) {
        stopped.store(true, std::memory_order_relaxed);
        break;
      }
      // The calling thread (thread 0) marks its own searches: one phase per
      // round of `threads` sources, which is what progress lines count.
      std::optional<profile::InnerPhase> mark;
      if (t == 0) mark.emplace("backward");
      const V s = sources[i];
      std::int64_t head = 0, tail = 1;
      eid_t dag_arcs = 0;
      order[0] = s;
      depth[s] = 0;
      sigma[s] = 1;
      while (head < tail) {
        const V u = order[head];
        const std::int32_t next = depth[u] + 1;
        const double sigma_u = sigma[u];
        for (eid_t e = off[u]; e < off[u + 1]; ++e) {
          const V v = nbr[e];
          if (depth[v] < 0) {
            depth[v] = next;
            order[tail++] = v;
          }
          if (depth[v] == next) {
            sigma[v] += sigma_u;
            successors[dag_arcs++] = v;
          }
        }
        successors_end[head++] = dag_arcs;
      }
      for (std::int64_t k = tail; k-- > 0;) {
        const V w = order[k];
        double acc = 0;
        for (eid_t j = k > 0 ? successors_end[k - 1] : 0; j < successors_end[k]; ++j) acc += c[successors[j]];
        const double sigma_w = sigma[w];
        c[w] = 1 / sigma_w + acc;
        if (w != s) sum[w] += sigma_w * acc;
        // Done with w: the next search finds it unvisited (c is written
        // before it is read in every search, so it is never filled).
        depth[w] = -1;
        sigma[w] = 0;
      }
    }
  }
  throw_if_cancelled();
  if (stopped.load()) throw Cancelled();
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) {
    double total = 0;
    for (const auto& s : sums) total += s[v];
    scores[v] = total;
  });
}

}  // namespace numagraph::kernels
