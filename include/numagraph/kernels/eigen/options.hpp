// Eigenvector and Katz centrality: options and result, shared by the flat
// and engine power iterations (power_iteration.hpp, engine_power_iteration.hpp).
// Both follow NetworkX's definitions, starting vectors and stopping rule
// (networkx.eigenvector_centrality, networkx.katz_centrality):
//   eigenvector: x0 = 1/n; x' = (A^T + I) x, then x' /= ||x'||_2;
//   Katz:        x0 = 0;   x' = alpha A^T x + beta; at the end x /= ||x||_2
//                (normalized) or not;
// A[u][v] is the weight of arc u -> v (1 unweighted), so A^T x sums a
// vertex's in-edges. Both stop after the first iteration whose L1 change
// sum |x' - x| is below n * tolerance, and fail after max_iterations.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

struct EigenvectorOptions {
  int max_iterations = 100;
  double tolerance = 1e-6;  // stop at L1 change < n * tolerance
  bool use_weights = true;  // a weighted graph's weights (false: every edge counts 1)
  // False: a run that does not converge returns its last iterate with
  // `converged` false instead of throwing (the Python module raises its own).
  bool require_convergence = true;
  std::int64_t cache_block_bytes = kAutoBlock;  // tiling of the flat sweep (sweep/cache_blocking.hpp)
};

struct KatzOptions {
  double alpha = 0.1;  // attenuation; converges when alpha < 1 / (largest eigenvalue of A)
  double beta = 1.0;   // every vertex's own weight
  int max_iterations = 1000;
  double tolerance = 1e-6;
  bool normalized = true;  // divide the result by its L2 norm
  bool use_weights = true;
  bool require_convergence = true;
  std::int64_t cache_block_bytes = kAutoBlock;
};

enum class PowerRule { kEigenvector, kKatz };

// The one description both kernels run: which update, its constants, the
// stopping rule.
struct PowerIteration {
  PowerRule rule = PowerRule::kEigenvector;
  double alpha = 1, beta = 0;  // Katz's constants (eigenvector: x + A^T x)
  int max_iterations = 100;
  double tolerance = 1e-6;
  bool normalized = true;  // Katz: normalize at the end (eigenvector: every iteration)
  bool weighted = false;   // sum the arcs' weights
  std::int64_t cache_block_bytes = kAutoBlock;

  double stop_limit(std::int64_t n) const { return tolerance * static_cast<double>(n); }
  // x of vertex v after the sum of its in-edges: the update before any normalization.
  double update(double x, double sum) const { return rule == PowerRule::kKatz ? alpha * sum + beta : x + sum; }
  double start(std::int64_t n) const { return rule == PowerRule::kKatz ? 0.0 : 1.0 / static_cast<double>(n); }
};

template <typename G>
PowerIteration power_iteration_of(const G& g, const EigenvectorOptions& o) {
  return {PowerRule::kEigenvector, 1, 0, o.max_iterations, o.tolerance, true, o.use_weights && g.weighted(),
          o.cache_block_bytes};
}

template <typename G>
PowerIteration power_iteration_of(const G& g, const KatzOptions& o) {
  return {PowerRule::kKatz, o.alpha, o.beta, o.max_iterations, o.tolerance, o.normalized,
          o.use_weights && g.weighted(), o.cache_block_bytes};
}

struct CentralityResult {
  NumaArray<double> values;  // per vertex, float64
  int iterations = 0;
  double last_change = 0;   // L1 change of the last iteration
  bool converged = false;   // last_change < n * tolerance
  double eigenvalue = 0;    // eigenvector: ||(A^T + I) x|| - 1 at the last iteration (the shift removed)
  int cache_segments = 1;   // column ranges of the tiled flat sweep (1: not tiled)
  double cache_copy_s = 0;  // seconds spent building the tiles
  CallInfo ran;
};

inline void check_power_iteration(const PowerIteration& p) {
  if (p.max_iterations < 0)
    throw UsageError("the iteration limit must be zero or positive (got " + std::to_string(p.max_iterations) + ")");
  if (!(p.tolerance >= 0)) throw UsageError("the tolerance must be zero or positive");
  if (p.rule == PowerRule::kKatz && !(std::isfinite(p.alpha) && std::isfinite(p.beta)))
    throw UsageError("Katz centrality needs a finite alpha and beta");
}

// The error of a run that did not converge, in the CLI's words.
inline UsageError not_converged(const char* what, const CentralityResult& r, const PowerIteration& p,
                                std::int64_t n) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "%s did not converge in %d iterations (L1 change %.3g, needs < n * tolerance = %.3g): raise "
                "--max-iterations or --tolerance%s",
                what, r.iterations, r.last_change, p.stop_limit(n),
                p.rule == PowerRule::kKatz ? ", or lower --alpha below 1 / (largest eigenvalue)" : "");
  return UsageError(buf);
}

template <typename V>
void unpermute(CentralityResult& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.values, ids);
}

}  // namespace numagraph::kernels
