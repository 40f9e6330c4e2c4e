// Tests' way to a DistCsr: every rank holds the same whole graph (built by
// the shared-memory loader) and keeps its own block of it, cut by the same
// rule as the distributed loader (balanced_blocks). The distributed kernels
// can then be checked against the shared-memory ones on the very same graph.
#pragma once

#include <mpi.h>

#include "dist_csr.hpp"

namespace numagraph::dist {

// Collective over comm.
DistCsr carve(const CSRGraph<std::uint32_t>& whole, MPI_Comm comm, ArcWork work = ArcWork::kBoth);

}  // namespace numagraph::dist
