// PageRank of a DistCsr: the Jacobi iteration of the shared-memory kernels
// (numagraph/kernels/pr/pull_jacobi.hpp, and pull_jacobi_weighted.hpp for
// NetworkX's weighted and personalized model, model.hpp), spread over the
// ranks, with the same start, update, stopping rule and counters:
//
//   x'[v] = (1 - d) p[v] + d * (sum over in-arcs u -> v of x[u] w(u,v) / W(u)  +  D q[v])
//
// An iteration: every owner has its vertices' contributions x[u] / W(u)
// (32-bit floats unless the run needs doubles, as the shared kernels
// decide), values_to_ghosts() copies them to the ranks that hold u as a
// ghost, each rank sums the in-arcs of its own vertices (in the same order
// as the shared sweep: neighbour lists are sorted by global id) and finishes
// each vertex (score, L1 change, next contribution, dangling score), and one
// allreduce adds up the L1 change and the dangling score D over the ranks.
// So scores agree with the shared kernel's to rounding, and the iteration
// count is the same: the run stops after max_iterations or when the L1
// change falls below the tolerance (n * tolerance in NetworkX's mode).
// Once a rank's contributions (its own and its ghosts') outgrow one core's
// L2, it sums them as the shared Jacobi kernels do, from a tiled copy of its
// in-arcs (sweep/tiled_arcs.hpp, built from its rows' lists), under the
// shared rule (cache_tile_shape) applied to its block.
//
// Gauss-Seidel is not distributed: a sweep that reads scores updated earlier
// in the same sweep would need a remote vertex's new score before its owner
// has swept it. The shared CLI's default variant (auto) is Gauss-Seidel for
// the plain unweighted model on the flat engine; compare with its
// `--variant jacobi` (or --networkx, weights, a personalization, which pick
// Jacobi there too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/sweep/cache_blocking.hpp"
#include "step_times.hpp"

namespace numagraph::dist {

struct DistPageRankOptions {
  double damping = 0.85;
  int max_iterations = 20;
  double tolerance = 1e-4;  // 0: run every iteration
  bool networkx = false;    // dangling mass spread (as q), stop at L1 < n * tolerance
  bool use_weights = true;  // on a weighted graph, W(u) = u's out-weight sum and arcs are weighted
  // Per own vertex (size local_n), already divided by the sum over the whole
  // graph, as model.hpp normalizes them. personalization: the teleport
  // distribution p (empty: uniform 1/n). dangling: NetworkX's mode only,
  // where the dangling mass goes (empty: the personalization, else uniform).
  std::vector<double> personalization;
  std::vector<double> dangling;
  // Tiling of each rank's sweep (sweep/tiled_arcs.hpp), decided per rank by
  // the shared Jacobi kernels' rule on its block: kAutoBlock, 0 (off) or
  // bytes of contributions per column range.
  std::int64_t cache_block_bytes = kAutoBlock;
};

struct DistPageRankResult {
  std::vector<double> scores;  // per own vertex
  int iterations = 0;
  double last_change = 0;     // L1 change of the last iteration, over the whole graph
  bool weights_used = false;  // the arcs were weighted (use_weights on a weighted graph)
  bool general_model = false;  // weights or a distribution: model.hpp's update, else pull_jacobi.hpp's
  bool double_contributions = false;
  int cache_segments = 1;   // my tiles' column ranges (1: not tiled)
  int tile_row_bits = 0;    // my tiles' rows, as 2^bits (0: not tiled)
  double cache_copy_s = 0;  // seconds of the call spent building my tiles
};

// Collective over g.comm. Expects inputs that pagerank_input_problem() finds
// nothing wrong with on every rank (check them first, on every rank).
DistPageRankResult pagerank(const DistCsr& g, const DistPageRankOptions& o, StepTimes& times);

// What is wrong with the run's inputs on this rank (empty: nothing): the
// damping, iterations or tolerance out of range, a distribution of the wrong
// size or with a negative value, a dangling distribution outside NetworkX's
// mode, a negative weight among my arcs. Local (no MPI): run it inside
// agree() so that every rank stops together.
std::string pagerank_input_problem(const DistCsr& g, const DistPageRankOptions& o);

}  // namespace numagraph::dist
