// Dense value exchanges between owners and ghost copies, over the mirror
// lists of a DistCsr (one MPI_Alltoallv each, sizes known in advance).
#pragma once

#include <vector>

#include "dist_csr.hpp"
#include "exchange.hpp"

namespace numagraph::dist {

// Owners -> ghosts: afterwards ghost_values[g] = the owner's local_values of
// ghost g's vertex. ghost_values has g.ghosts() slots.
template <typename T>
void values_to_ghosts(const DistCsr& g, const T* local_values, T* ghost_values) {
  std::vector<T> send(g.mirror_local.size());
  for (std::size_t i = 0; i < send.size(); ++i) send[i] = local_values[g.mirror_local[i]];
  std::vector<int> sc(g.ranks), sd(g.ranks), rc(g.ranks), rd(g.ranks);
  for (int r = 0; r < g.ranks; ++r) {
    sd[r] = mpi_count(g.mirror_from[r], "the ghost exchange");
    sc[r] = mpi_count(g.mirror_from[r + 1] - g.mirror_from[r], "the ghost exchange");
    rd[r] = mpi_count(g.ghost_from[r], "the ghost exchange");
    rc[r] = mpi_count(g.ghost_from[r + 1] - g.ghost_from[r], "the ghost exchange");
  }
  check(MPI_Alltoallv(send.data(), sc.data(), sd.data(), item_type<T>(), ghost_values, rc.data(), rd.data(),
                      item_type<T>(), g.comm),
        "MPI_Alltoallv(ghosts)");
}

// Ghosts -> owners: every rank sends its ghost_values; each owner folds what
// arrives for a vertex into local_values[v] with combine(local_values[v], x),
// in rank order (so the result does not depend on timing).
template <typename T, typename Combine>
void values_from_ghosts(const DistCsr& g, const T* ghost_values, T* local_values, Combine&& combine) {
  std::vector<T> recv(g.mirror_local.size());
  std::vector<int> sc(g.ranks), sd(g.ranks), rc(g.ranks), rd(g.ranks);
  for (int r = 0; r < g.ranks; ++r) {
    sd[r] = mpi_count(g.ghost_from[r], "the ghost exchange");
    sc[r] = mpi_count(g.ghost_from[r + 1] - g.ghost_from[r], "the ghost exchange");
    rd[r] = mpi_count(g.mirror_from[r], "the ghost exchange");
    rc[r] = mpi_count(g.mirror_from[r + 1] - g.mirror_from[r], "the ghost exchange");
  }
  check(MPI_Alltoallv(ghost_values, sc.data(), sd.data(), item_type<T>(), recv.data(), rc.data(), rd.data(),
                      item_type<T>(), g.comm),
        "MPI_Alltoallv(ghosts)");
  for (std::size_t i = 0; i < recv.size(); ++i) combine(local_values[g.mirror_local[i]], recv[i]);
}

}  // namespace numagraph::dist
