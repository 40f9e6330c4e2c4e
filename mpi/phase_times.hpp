// Wall time of one distributed BFS split into phases, per rank:
//
//   top_down   local work of top-down steps (scanning the frontier queue,
//              claiming vertices, applying the received (vertex, parent) words);
//   bottom_up  local work of bottom-up steps (scanning unvisited vertices
//              against the frontier bitmap);
//   exchange   moving the frontier: packing and the MPI_Alltoall(v) of top-down
//              steps, FrontierExchange::exchange() (allgather + summary) of
//              bottom-up steps;
//   switch     the direction switch: the per-step MPI_Allreduce of the
//              frontier's size and edges, the decision, and converting the
//              frontier between queue and bitmap;
//   wait       load imbalance: a timed MPI_Barrier before each of those
//              collectives, i.e. the time this rank waits for the slowest one
//              to arrive, so that exchange and switch hold only the transfer.
//
// Whatever is left of the BFS time (clearing the arrays) is "other".
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>

namespace numagraph::dist {

enum class Phase : std::size_t { kTopDown, kBottomUp, kExchange, kSwitch, kWait };
inline constexpr std::size_t kNumPhases = 5;
// Names in --json and the result block, in Phase order.
inline constexpr std::array<const char*, kNumPhases> kPhaseNames = {"top_down", "bottom_up", "exchange", "switch",
                                                                    "wait"};

struct PhaseTimes {
  std::array<double, kNumPhases> s{};
  double& operator[](Phase p) { return s[static_cast<std::size_t>(p)]; }
  double operator[](Phase p) const { return s[static_cast<std::size_t>(p)]; }
};

// Adds the wall time of its scope (MPI_Wtime) to one phase.
class PhaseTimer {
 public:
  PhaseTimer(PhaseTimes& times, Phase phase) : to_(times[phase]), t0_(MPI_Wtime()) {}
  ~PhaseTimer() { to_ += MPI_Wtime() - t0_; }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double& to_;
  double t0_;
};

}  // namespace numagraph::dist
