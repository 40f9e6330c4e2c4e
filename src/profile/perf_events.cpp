#include "numagraph/profile/perf_events.hpp"

#include <linux/perf_event.h>
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

namespace numagraph::profile {

namespace {

struct EventSpec {
  const char* name;
  const char* unit;
  std::uint32_t type;
  std::uint64_t config;
};

constexpr std::uint64_t cache_event(std::uint64_t cache, std::uint64_t op, std::uint64_t result) {
  return cache | (op << 8) | (result << 16);
}

const EventSpec kSoftware[] = {
    {"task_clock", "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page_faults", "count", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context_switches", "count", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu_migrations", "count", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
};

const EventSpec kHardware[] = {
    {"cycles", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache_references", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache_misses", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branch_misses", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"stalled_cycles_frontend", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"stalled_cycles_backend", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"llc_load_misses", "count", PERF_TYPE_HW_CACHE,
     cache_event(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
    {"dtlb_load_misses", "count", PERF_TYPE_HW_CACHE,
     cache_event(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
};

int open_event(const EventSpec& e, pid_t tid, bool user_only) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = e.type;
  a.config = e.config;
  a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  a.exclude_kernel = user_only;
  a.exclude_hv = user_only;
  return static_cast<int>(syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

std::string open_failure(int err) {
  const int paranoid = perf_event_paranoid();
  const std::string level =
      paranoid == -100 ? std::string("perf_event_paranoid unreadable") : "perf_event_paranoid=" + std::to_string(paranoid);
  std::string s = std::string(strerrordesc_np(err)) + " (" + strerrorname_np(err) + "; " + level + ")";
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return s + ": the CPU or hypervisor exposes no such event (virtual machines often have no hardware PMU)";
    case EACCES:
    case EPERM:
      return s + ": not permitted; counting one's own threads needs perf_event_paranoid <= 2 "
                 "(sysctl kernel.perf_event_paranoid=2) or CAP_PERFMON";
    case EMFILE:
    case ENFILE:
      return s + ": out of file descriptors (one per event and thread); raise `ulimit -n`";
    default:
      return s;
  }
}

}  // namespace

std::vector<pid_t> openmp_worker_tids() {
  std::vector<pid_t> tids(static_cast<std::size_t>(omp_get_max_threads()), 0);
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    if (t < static_cast<int>(tids.size())) tids[static_cast<std::size_t>(t)] = static_cast<pid_t>(gettid());
  }
  std::erase(tids, 0);  // a team smaller than asked (dynamic threads, nested limits)
  return tids;
}

int perf_event_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int level = -100;
  if (!(in >> level)) return -100;
  return level;
}

PerfEventsSource::PerfEventsSource(std::vector<pid_t> tids, PerfEventsOptions options)
    : tids_(std::move(tids)), options_(options) {
  if (tids_.empty()) {
    add_unavailable("", "no threads to count");
    return;
  }
  auto try_open = [&](const EventSpec& spec) {
    Event ev{spec.name, {}, std::vector<Reading>(tids_.size())};
    bool user_only = false;
    int err = 0;
    for (pid_t tid : tids_) {
      int fd = open_event(spec, tid, user_only);
      if (fd < 0 && (errno == EACCES || errno == EPERM) && !user_only && ev.fds.empty()) {
        user_only = true;  // paranoid 2 refuses kernel counting: count user space
        fd = open_event(spec, tid, true);
      }
      if (fd < 0) {
        err = errno;
        break;
      }
      ev.fds.push_back(fd);
    }
    if (err != 0) {
      for (int fd : ev.fds) close(fd);
      add_unavailable(spec.name, open_failure(err));
      return;
    }
    const std::string note = user_only ? "user space only (the kernel's share is not counted here)" : "";
    add_metric(std::string("perf.") + spec.name, spec.unit, MetricKind::kCounter, note);
    if (options_.per_thread)
      for (std::size_t t = 0; t < tids_.size(); ++t)
        add_metric("perf." + std::string(spec.name) + ".t" + std::to_string(t), spec.unit, MetricKind::kCounter,
                   note);
    events_.push_back(std::move(ev));
  };
  for (const auto& spec : kSoftware) try_open(spec);
  if (options_.hardware)
    for (const auto& spec : kHardware) try_open(spec);
}

PerfEventsSource::~PerfEventsSource() {
  for (auto& ev : events_)
    for (int fd : ev.fds) close(fd);
}

bool PerfEventsSource::read(int fd, Reading& r) const {
  std::uint64_t buf[3];
  if (::read(fd, buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) return false;
  r = {buf[0], buf[1], buf[2]};
  return true;
}

void PerfEventsSource::start() {
  for (auto& ev : events_)
    for (std::size_t t = 0; t < ev.fds.size(); ++t)
      if (!read(ev.fds[t], ev.last[t])) ev.last[t] = {};
}

void PerfEventsSource::sample(double* values) {
  std::size_t k = 0;
  for (auto& ev : events_) {
    double* total = &values[k++];
    *total = 0;
    for (std::size_t t = 0; t < ev.fds.size(); ++t) {
      Reading now;
      double v = NAN;
      if (read(ev.fds[t], now)) {
        const Reading& was = ev.last[t];
        const double dv = static_cast<double>(now.value - was.value);
        const double de = static_cast<double>(now.enabled - was.enabled);
        const double dr = static_cast<double>(now.running - was.running);
        // Multiplexed: the event counted dr of de ns; scale to the whole epoch.
        v = dr > 0 ? (dr < de ? dv * (de / dr) : dv) : 0.0;
        ev.last[t] = now;
      }
      *total += v;
      if (options_.per_thread) values[k++] = v;
    }
  }
}

}  // namespace numagraph::profile
