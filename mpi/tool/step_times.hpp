// Where a distributed kernel's time goes, per rank: local work (compute),
// moving data (exchange: the MPI calls that carry it), and waiting for the
// slowest rank (wait: a timed barrier before each exchange, so that exchange
// holds only the transfer).
#pragma once

#include <mpi.h>

namespace numagraph::dist {

struct StepTimes {
  double compute = 0, exchange = 0, wait = 0;
};

// Adds the wall time of its scope to one of the counters.
class Timed {
 public:
  explicit Timed(double& to) : to_(to), t0_(MPI_Wtime()) {}
  ~Timed() { to_ += MPI_Wtime() - t0_; }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  double& to_;
  double t0_;
};

// The timed barrier before an exchange.
inline void wait_for_all(StepTimes& t, MPI_Comm comm) {
  Timed w(t.wait);
  MPI_Barrier(comm);
}

}  // namespace numagraph::dist
