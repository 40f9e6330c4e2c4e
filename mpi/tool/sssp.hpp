// Distributed single-source shortest paths by delta-stepping (Meyer and
// Sanders, 2003) on a DistCsr: each rank keeps buckets of its own vertices,
// OpenMP threads inside it, and the ranks agree round by round on the bucket
// to work on, the smallest non-empty one anywhere (one MPI_Allreduce).
//
// A round on bucket B: the rank relaxes the arcs of its vertices in B, and
// keeps relaxing what falls back into B locally until its own B is empty:
// distances only ever go down, so settling a rank's local part of the bucket
// before talking costs no correctness and saves rounds (road graphs have
// hundreds of buckets, and every round is a collective). Relaxations of
// ghost targets are sent to their owners as (owner-local index, distance) in
// one exchange() at the end of the round; a ghost is sent only a distance
// below every one sent for it before. The search ends when every bucket of
// every rank is empty.
//
// By default a round relaxes every arc of a vertex taken from B, as the
// shared-memory kernel does. Meyer and Sanders' split (light arcs, weight <=
// delta, while B refills; then the heavy arcs of every vertex taken from B
// once, from its final distance, in one more round) is there too
// (SsspArcs::kLightThenHeavy), and was slower on every graph measured: it
// reads each vertex's arcs twice, adds a collective round per bucket, and
// saves only the heavy relaxations of vertices settled twice in one bucket,
// which the narrow Kronecker buckets rarely have and roads' light-arc
// buckets make few (measured on Kronecker scale 18 and USA-road-d.NY at 1
// and 2 ranks: the figures are in the commit message that added this file).
//
// Distances are doubles, d[v] = d[u] + (double)w (unweighted graphs: w = 1),
// the shared-memory kernel's sums (kernels/sssp/delta_stepping.hpp): the
// result is the minimum over paths of left-to-right sums, which does not
// depend on the order of relaxations, so it equals the shared kernel's bit
// for bit on any number of ranks and threads.
//
// Precondition: no negative weight (delta-stepping needs weights >= 0). The
// numagraph-mpi command line refuses such graphs before the search; the
// kernel does not check, since a check failing on one rank only would leave
// the others waiting in a collective.
#pragma once

#include <cstdint>
#include <vector>

#include "dist_csr.hpp"
#include "numagraph/kernels/sssp/options.hpp"
#include "step_times.hpp"

namespace numagraph::dist {

struct DistSsspResult {
  std::vector<double> dist;  // per own vertex; +infinity where unreachable
  double delta = 0;          // the bucket width the search used
  std::int64_t rounds = 0;   // rounds of the search (each one collective exchange)
};

// How a round relaxes: every arc of every vertex taken from the bucket (as
// the shared-memory kernel does), or light arcs first and heavy arcs once per
// bucket (Meyer and Sanders).
enum class SsspArcs { kAll, kLightThenHeavy };

// The shared-memory kernel's rule for the bucket width (kernels/sssp/
// delta_rule.hpp) on the whole graph's weights, for a search on `threads`
// threads in all. Collective.
double choose_delta(const DistCsr& g, int threads);

// Collective over g.comm. `source` is a global dense id (< g.n, the same on
// every rank). o.delta > 0 is the bucket width; 0 chooses it with
// choose_delta for all the ranks' threads together.
DistSsspResult sssp(const DistCsr& g, std::int64_t source, const kernels::SsspOptions& o, StepTimes& t,
                    SsspArcs arcs = SsspArcs::kAll);

}  // namespace numagraph::dist
