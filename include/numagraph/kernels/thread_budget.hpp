// How many threads a flat kernel call uses: the whole pool, unless the graph
// is too small for a second thread to pay for the fork, the barriers and the
// shared cache lines. Below a problem's cut-off (stored arcs, measured per
// problem: docs/kernels/sssp.md, "Threads on small graphs") the call runs on one thread,
// or, for SSSP, starts on one thread and calls the team when a round is wide.
// NUMAGRAPH_SERIAL_BELOW=<arcs> overrides every cut-off (0: never serial).
// The NUMA engine is exempt: its partitions are laid out for the whole pool.
#pragma once

#include <omp.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "numagraph/graph/types.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

struct SerialCutoff {
  std::string_view problem;  // the EngineCall's problem name
  eid_t arcs;                // below this many stored arcs, one thread
  // Below the cut-off the kernel starts on one thread and calls the team
  // itself once its work is wide enough, so the call keeps the pool (SSSP:
  // its first round too wide for bin fusion, kernels/sssp/delta_stepping.hpp).
  bool starts_alone = false;
};

// bench/small_graph_threads.py --sweep measures where two threads start to
// stop losing on Kronecker graphs (no slower there and on every larger graph
// measured); each cut-off is that size rounded down to a power of two
// (docs/kernels/sssp.md, "Threads on small graphs").
inline constexpr SerialCutoff kSerialCutoffs[] = {
    {"bfs", eid_t{1} << 15},
    {"sssp", eid_t{1} << 18, true},
    {"betweenness", eid_t{1} << 17},
    {"pagerank", eid_t{1} << 16},
    {"spmv", eid_t{1} << 16},
    {"belief_propagation", eid_t{1} << 15},
    {"connected_components", eid_t{1} << 16},
    {"triangles", eid_t{1} << 14},
    {"core_numbers", eid_t{1} << 17},
    {"clustering", eid_t{1} << 15},
    // Two threads never caught up with one up to Kronecker 21 (31.8M arcs,
    // oriented by parity): one thread runs Tarjan's search, one pass over
    // the arcs (kernels/scc/tarjan.hpp), the team forward-backward search.
    {"strongly_connected_components", eid_t{1} << 25},
};

// `problem`'s row of the table, or null for problems not in it.
inline const SerialCutoff* serial_cutoff_of(std::string_view problem) {
  for (const auto& c : kSerialCutoffs)
    if (c.problem == problem) return &c;
  return nullptr;
}

// The cut-off in force for `problem`: NUMAGRAPH_SERIAL_BELOW when set (a
// non-negative integer; anything else is refused), else the table's (0 for
// problems not in it).
inline eid_t serial_below_arcs(std::string_view problem) {
  if (const char* env = std::getenv("NUMAGRAPH_SERIAL_BELOW"); env && *env) {
    char* end = nullptr;
    const long long v = std::strtoll(env, &end, 10);
    if (end && *end == '\0' && v >= 0) return static_cast<eid_t>(v);
    throw UsageError(std::string("NUMAGRAPH_SERIAL_BELOW must be a non-negative number of arcs (got '") + env +
                     "'): unset it for the measured cut-offs, 0 to always use every thread");
  }
  const SerialCutoff* c = serial_cutoff_of(problem);
  return c ? c->arcs : 0;
}

// Whether `problem`'s kernel starts alone below its cut-off (the table's
// starts_alone; false for problems not in it).
inline bool starts_alone_below_cutoff(std::string_view problem) {
  const SerialCutoff* c = serial_cutoff_of(problem);
  return c && c->starts_alone;
}

// Threads for one flat call of `problem` on a graph of `arcs` stored arcs,
// with `pool` threads configured.
inline int call_threads(std::string_view problem, eid_t arcs, int pool) {
  if (starts_alone_below_cutoff(problem)) return pool;
  return pool > 1 && arcs < serial_below_arcs(problem) ? 1 : pool;
}

// Whether a call of a start-alone problem begins on one thread (below its
// cut-off, with more than one thread in the pool).
inline bool call_starts_alone(std::string_view problem, eid_t arcs, int pool) {
  return starts_alone_below_cutoff(problem) && pool > 1 && arcs < serial_below_arcs(problem);
}

// Sets the calling thread's OpenMP team size for a scope and restores it.
class ThreadLimit {
 public:
  explicit ThreadLimit(int threads) : previous_(omp_get_max_threads()) {
    if (threads != previous_) omp_set_num_threads(threads);
  }
  ~ThreadLimit() {
    if (omp_get_max_threads() != previous_) omp_set_num_threads(previous_);
  }
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  int previous_;
};

}  // namespace numagraph::kernels
