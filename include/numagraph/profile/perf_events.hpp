// Per-thread counters through perf_event_open(2): software events (task
// clock, page faults, context switches, CPU migrations), which every Linux
// kernel has, and hardware events (cycles, instructions, cache references and
// misses, LLC load misses, dTLB load misses, branch misses, stalled cycles)
// where the CPU's PMU exposes them. Virtual machines often expose none.
//
// One event per thread and kind (pid = the thread's tid, cpu = -1, counting
// only while that thread runs), each read with its enabled and running times:
// when the kernel multiplexes more events than the PMU has counters, an
// epoch's change is scaled by enabled/running. An event that does not open
// on every thread is unavailable, with errno's reason and
// /proc/sys/kernel/perf_event_paranoid; where counting the kernel is refused
// (paranoid 2), the event is opened for user space only and says so.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/profile/source.hpp"

namespace numagraph::profile {

// The Linux thread ids of the OpenMP worker threads, in OpenMP thread order
// (one parallel region calling gettid). Call it outside parallel regions.
std::vector<pid_t> openmp_worker_tids();

// /proc/sys/kernel/perf_event_paranoid, or -100 when unreadable.
int perf_event_paranoid();

struct PerfEventsOptions {
  // Also one column per thread ("perf.task_clock.t3"), besides the totals.
  bool per_thread = true;
  bool hardware = true;  // try the hardware events
};

class PerfEventsSource final : public Source {
 public:
  explicit PerfEventsSource(std::vector<pid_t> tids, PerfEventsOptions options = {});
  ~PerfEventsSource() override;
  PerfEventsSource(const PerfEventsSource&) = delete;
  PerfEventsSource& operator=(const PerfEventsSource&) = delete;

  const char* name() const override { return "perf_events"; }
  void start() override;
  void sample(double* values) override;

  int threads() const { return static_cast<int>(tids_.size()); }

 private:
  struct Reading {
    std::uint64_t value = 0, enabled = 0, running = 0;
  };
  struct Event {
    std::string name;
    std::vector<int> fds;        // one per thread
    std::vector<Reading> last;   // previous reading per thread
  };
  bool read(int fd, Reading& r) const;

  std::vector<pid_t> tids_;
  PerfEventsOptions options_;
  std::vector<Event> events_;
};

}  // namespace numagraph::profile
