// The belief-propagation model every BP variant and its verifier share.
//
// A pairwise binary Markov random field on an undirected graph: each vertex v
// has a variable x_v in {0, 1} with prior P(x_v = 1) = p_v, and every edge has
// the same potential psi(x, y) = a if x == y else 1 - a (a = `coupling`;
// a > 1/2 favours agreeing neighbours). Priors come from the seed: p_v is
// uniform in [0.1, 0.9], a pure function of (seed, v).
//
// Messages are kept in log-odds form, r = log(m(1) / m(0)), which is
// numerically stable at any degree. With the cavity log-odds c = L_u - r_{v->u}
// (L_u = log-odds prior of u + sum of u's incoming messages), the message u->v
// is message_log_odds(c). The schedule is synchronous (Jacobi): iteration t+1
// computes every message from iteration t's messages, all starting at 0
// (uniform). The belief is P(x_v = 1) = sigmoid(L_v).
#pragma once

#include <cmath>
#include <cstdint>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::kernels::bp {

struct Model {
  double coupling = 0.7;     // psi(x, x) = coupling, psi(x, 1-x) = 1 - coupling
  std::uint64_t seed = 27491095;
  int iterations = 5;
};

struct Result {
  NumaArray<double> belief;  // P(x_v = 1)
  CallInfo ran;
};

// Brings the beliefs of a run on a renumbered graph back to the caller's ids
// (EngineCall::ids()). The priors went in by caller id (the kernels' `prior_id`).
template <typename V>
void unpermute(Result& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.belief, ids);
}

// Prior log-odds of vertex v: p_v uniform in [0.1, 0.9] from a hash of (seed, v).
inline double prior_log_odds(const Model& m, std::uint64_t v) {
  std::uint64_t x = m.seed ^ (v * 0x9e3779b97f4a7c15ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  const double p = 0.1 + 0.8 * static_cast<double>(x >> 11) * 0x1.0p-53;
  return std::log(p / (1 - p));
}

// log(m(1)/m(0)) of a message whose sender has cavity log-odds c:
//   m(y) = sum_x exp(c * x) psi(x, y)  =>  ratio = (1-a + a e^c) / (a + (1-a) e^c).
// Written with e^-|c| so large |c| never overflows.
inline double message_log_odds(const Model& m, double c) {
  const double a = m.coupling, b = 1 - a;
  const double e = std::exp(-std::fabs(c));
  return c >= 0 ? std::log((b * e + a) / (a * e + b)) : std::log((b + a * e) / (a + b * e));
}

inline double belief(double log_odds) { return 1.0 / (1.0 + std::exp(-log_odds)); }

}  // namespace numagraph::kernels::bp
