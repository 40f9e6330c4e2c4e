// Loading a .ngr over MPI. Every rank maps the file and touches only what
// its own block needs: a run of the offsets to cut the blocks, then its
// block's offsets, lists, weights, labels and names. The checksum is summed
// in pieces (each rank a share of the 1 MiB blocks) and combined everywhere,
// and each rank runs read_ngr's structural checks on its own block, so the
// whole file is checked once, by all ranks together.
#pragma once

#include <mpi.h>

#include "dist_load.hpp"

namespace numagraph::dist {

// Collective. Errors end the job through agree() (one message, one code).
DistGraph load_ngr_distributed(const LoadRequest& request, MPI_Comm comm);

}  // namespace numagraph::dist
