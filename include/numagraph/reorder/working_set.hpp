// The per-thread working set of one search (the BC paper, seed 000, Fig. 12
// and 13): how many distinct vertices, and distinct 64-byte lines of a
// 4-byte-per-vertex array (16 vertices a line, e.g. BFS depths), each thread
// touches while it expands its share of every level: the frontier vertices
// it takes and every out-neighbour it reads. The ideal is the reached
// vertices (lines) divided by the threads: nobody touches what another does.
//
// A deterministic model, not a measurement of a run (a run's split depends
// on which thread wins each race; the BC work-queues kernel measures that,
// `numagraph bc --variant work-queues --working-set`). A level-synchronous
// top-down search from `root` over out-edges; each level is cut into
// `threads` contiguous slices of equal size (± 1), slice t is thread t's,
// the level listed in one of two ways:
//
//   kIdOrder         by vertex id: a frontier bitmap scanned by a static
//                    schedule (a top-down BFS step). The numbering decides
//                    who gets which vertices.
//   kDiscoveryOrder  in the order the previous level discovered it (each
//                    thread's discoveries are its next queue, the queues in
//                    thread order, and stealing evens out their sizes: the
//                    paper's NWQ schedule of one BC source, whose forward
//                    sweep touches what its backward sweep does). Vertices
//                    stay with the thread that found them; the numbering
//                    changes which lines they share.
//
// Under ADL (adl-serial) the two coincide: within a level the new ids are
// the discovery order reversed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::reorder {

enum class WorkingSetSchedule { kIdOrder, kDiscoveryOrder };

inline constexpr int kVerticesPerLine = 16;  // 64-byte lines of 4-byte entries

struct WorkingSet {
  std::int64_t reached = 0;                // vertices the search reaches, root included
  std::vector<std::int64_t> vertices;      // per thread: distinct vertices touched
  std::vector<std::int64_t> lines;         // per thread: distinct 64-byte lines touched
  double ideal_vertices() const { return vertices.empty() ? 0 : static_cast<double>(reached) / vertices.size(); }
  // Lines the reached vertices occupy, over the threads (the ideal split).
  std::int64_t reached_lines = 0;
  double ideal_lines() const { return lines.empty() ? 0 : static_cast<double>(reached_lines) / lines.size(); }
};

// Serial: a model, cheap next to the kernels (one pass over the reached arcs;
// a bit per vertex and per line for each thread).
template <typename V>
WorkingSet measure_working_set(const CSRGraph<V>& g, V root, int threads, WorkingSetSchedule schedule) {
  const std::int64_t n = g.num_vertices();
  if (threads < 1) throw UsageError("the working set needs at least one thread");
  if (static_cast<std::int64_t>(root) < 0 || static_cast<std::int64_t>(root) >= n)
    throw UsageError("working-set root " + std::to_string(static_cast<std::int64_t>(root)) +
                     " is not a vertex of this graph of " + std::to_string(n) + " vertices");
  const auto p = static_cast<std::size_t>(threads);
  const std::size_t vwords = static_cast<std::size_t>((n + 63) / 64);
  const std::size_t lcount = static_cast<std::size_t>((n + kVerticesPerLine - 1) / kVerticesPerLine);
  const std::size_t lwords = (lcount + 63) / 64;
  std::vector<std::uint64_t> vbits(p * vwords, 0), lbits(p * lwords, 0);
  WorkingSet ws;
  ws.vertices.assign(p, 0);
  ws.lines.assign(p, 0);
  auto touch = [&](std::size_t t, V x) {
    const auto v = static_cast<std::uint64_t>(x);
    std::uint64_t& vw = vbits[t * vwords + v / 64];
    if (vw >> (v % 64) & 1) return;
    vw |= std::uint64_t{1} << (v % 64);
    ++ws.vertices[t];
    const std::uint64_t l = v / kVerticesPerLine;
    std::uint64_t& lw = lbits[t * lwords + l / 64];
    if (!(lw >> (l % 64) & 1)) {
      lw |= std::uint64_t{1} << (l % 64);
      ++ws.lines[t];
    }
  };

  std::vector<std::uint8_t> seen(static_cast<std::size_t>(n), 0);
  std::vector<std::uint8_t> line_seen(lcount, 0);
  std::vector<V> level{root}, next;
  seen[static_cast<std::size_t>(root)] = 1;
  while (!level.empty()) {
    ws.reached += static_cast<std::int64_t>(level.size());
    for (V v : level) line_seen[static_cast<std::size_t>(v) / kVerticesPerLine] = 1;
    if (schedule == WorkingSetSchedule::kIdOrder) std::sort(level.begin(), level.end());
    const std::size_t size = level.size();
    for (std::size_t t = 0; t < p; ++t) {
      // Slice t: [t * size / p, (t + 1) * size / p).
      const std::size_t b = t * size / p, e = (t + 1) * size / p;
      for (std::size_t i = b; i < e; ++i) {
        const V u = level[i];
        touch(t, u);
        for (V w : g.out_neighbors(u)) {
          touch(t, w);
          if (!seen[static_cast<std::size_t>(w)]) {
            seen[static_cast<std::size_t>(w)] = 1;
            next.push_back(w);
          }
        }
      }
    }
    level.swap(next);
    next.clear();
  }
  ws.reached_lines = std::count(line_seen.begin(), line_seen.end(), std::uint8_t{1});
  return ws;
}

}  // namespace numagraph::reorder
