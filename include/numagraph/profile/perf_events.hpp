// Per-thread counters through perf_event_open(2): software events (task
// clock, page faults, context switches, CPU migrations), which every Linux
// kernel has, and hardware events (cycles, instructions, cache references and
// misses, LLC load misses, dTLB load misses, branch misses, stalled cycles)
// where the CPU's PMU exposes them. Virtual machines often expose none.
//
// Events are opened per thread (pid = the thread's tid, cpu = -1: counted
// only while that thread runs). Hardware events share counter groups, so
// that one read(2) per group and thread gets all of their values: an event
// joins a group until the PMU refuses one more (EINVAL/ENOSPC), which then
// starts the next group. Each software event is a group of its own: they
// never multiplex, and the task clock (a PMU of its own) stops or undercounts
// the other members of a mixed group (docs/profiling.md). A thread running
// on another CPU is read through an interrupt to that CPU, so fewer reads
// is what keeps the sampler cheap on many threads. Each group is read with
// its enabled and running times: when the kernel multiplexes groups on the
// PMU, an epoch's change is scaled by enabled/running of that epoch. An
// event that does not open on every thread is unavailable, with errno's
// reason and /proc/sys/kernel/perf_event_paranoid; where counting the
// kernel is refused (paranoid 2), the event is opened for user space only
// and says so.
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

// One epoch's count of a group member, scaled for multiplexing: the group
// counted `running` of the `enabled` ns the thread ran. A thread that did not
// run has enabled = 0 and counted nothing (0); a group that the PMU never
// scheduled while the thread ran has no estimate (NaN, not 0).
double scale_for_multiplexing(std::uint64_t count, std::uint64_t enabled, std::uint64_t running);

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
  struct Member {
    int fd;
    std::size_t event;        // index into names_
    std::uint64_t last = 0;   // previous raw count
  };
  struct Group {              // one counter group of one thread; members[0] leads
    bool hardware = false;
    std::vector<Member> members;
    std::uint64_t enabled = 0, running = 0;  // previous times
  };
  bool read_group(const Group& g);

  std::vector<pid_t> tids_;
  PerfEventsOptions options_;
  std::vector<std::string> names_;          // the events that opened, in column order
  std::vector<std::vector<Group>> groups_;  // per thread
  std::vector<double> scratch_;             // event x thread values of one sample
  std::vector<std::uint64_t> buffer_;       // one group read
};

}  // namespace numagraph::profile
