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

int open_event(const EventSpec& e, pid_t tid, int group, bool user_only) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = e.type;
  a.config = e.config;
  a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  a.exclude_kernel = user_only;
  a.exclude_hv = user_only;
  return static_cast<int>(syscall(SYS_perf_event_open, &a, tid, -1, group, PERF_FLAG_FD_CLOEXEC));
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
    : tids_(std::move(tids)), options_(options), groups_(tids_.size()) {
  if (tids_.empty()) {
    add_unavailable("", "no threads to count");
    return;
  }
  // Opens `spec` on every thread, in that thread's last group of its kind
  // (or a new group when there is none or the PMU refuses one more member);
  // on any failure undoes it on the threads done so far.
  auto try_open = [&](const EventSpec& spec, bool hardware) {
    bool user_only = false;
    int err = 0;
    std::size_t t = 0;
    for (; t < tids_.size(); ++t) {
      auto& mine = groups_[t];
      Group* last = nullptr;
      for (auto& g : mine)
        if (hardware && g.hardware) last = &g;  // software events: one group each (see the header)
      auto open_in = [&](Group* g) {
        const int leader = g ? g->members[0].fd : -1;
        int fd = open_event(spec, tids_[t], leader, user_only);
        if (fd < 0 && (errno == EACCES || errno == EPERM) && !user_only && t == 0) {
          user_only = true;  // paranoid 2 refuses kernel counting: count user space
          fd = open_event(spec, tids_[t], leader, true);
        }
        return fd;
      };
      int fd = open_in(last);
      if (fd < 0 && last && (errno == EINVAL || errno == ENOSPC)) {
        last = nullptr;  // the group is full: this event leads a new one
        fd = open_in(nullptr);
      }
      if (fd < 0) {
        err = errno;
        break;
      }
      if (!last) {
        mine.push_back(Group{hardware, {}, 0, 0});
        last = &mine.back();
      }
      last->members.push_back(Member{fd, names_.size(), 0});
    }
    if (err != 0) {
      for (std::size_t u = 0; u < t; ++u) {  // this event is the newest member of one group per thread
        for (auto g = groups_[u].rbegin(); g != groups_[u].rend(); ++g) {
          if (g->members.empty() || g->members.back().event != names_.size()) continue;
          close(g->members.back().fd);
          g->members.pop_back();
          if (g->members.empty()) groups_[u].erase(std::next(g).base());
          break;
        }
      }
      add_unavailable(spec.name, open_failure(err));
      return;
    }
    const std::string note = user_only ? "user space only (the kernel's share is not counted here)" : "";
    add_metric(std::string("perf.") + spec.name, spec.unit, MetricKind::kCounter, note);
    if (options_.per_thread)
      for (std::size_t u = 0; u < tids_.size(); ++u)
        add_metric("perf." + std::string(spec.name) + ".t" + std::to_string(u), spec.unit, MetricKind::kCounter,
                   note);
    names_.push_back(spec.name);
  };
  for (const auto& spec : kSoftware) try_open(spec, false);
  if (options_.hardware)
    for (const auto& spec : kHardware) try_open(spec, true);
  scratch_.assign(names_.size() * tids_.size(), 0.0);
}

PerfEventsSource::~PerfEventsSource() {
  for (auto& mine : groups_)
    for (auto& g : mine)
      for (auto it = g.members.rbegin(); it != g.members.rend(); ++it) close(it->fd);  // leader last
}

double scale_for_multiplexing(std::uint64_t count, std::uint64_t enabled, std::uint64_t running) {
  if (enabled == 0) return 0.0;
  if (running == 0) return NAN;
  const double c = static_cast<double>(count);
  return running >= enabled ? c : c * (static_cast<double>(enabled) / static_cast<double>(running));
}

// Reads one group: {nr, time_enabled, time_running, value[nr]}.
bool PerfEventsSource::read_group(const Group& g) {
  buffer_.resize(3 + g.members.size());
  const ssize_t want = static_cast<ssize_t>(buffer_.size() * sizeof(std::uint64_t));
  return ::read(g.members[0].fd, buffer_.data(), static_cast<std::size_t>(want)) == want &&
         buffer_[0] == g.members.size();
}

void PerfEventsSource::start() {
  for (auto& mine : groups_)
    for (auto& g : mine) {
      if (!read_group(g)) continue;
      g.enabled = buffer_[1];
      g.running = buffer_[2];
      for (std::size_t k = 0; k < g.members.size(); ++k) g.members[k].last = buffer_[3 + k];
    }
}

void PerfEventsSource::sample(double* values) {
  const std::size_t threads = tids_.size();
  for (std::size_t t = 0; t < threads; ++t)
    for (auto& g : groups_[t]) {
      if (!read_group(g)) {
        for (const auto& m : g.members) scratch_[m.event * threads + t] = NAN;
        continue;
      }
      const std::uint64_t de = buffer_[1] - g.enabled;
      const std::uint64_t dr = buffer_[2] - g.running;
      g.enabled = buffer_[1];
      g.running = buffer_[2];
      for (std::size_t k = 0; k < g.members.size(); ++k) {
        Member& m = g.members[k];
        scratch_[m.event * threads + t] = scale_for_multiplexing(buffer_[3 + k] - m.last, de, dr);
        m.last = buffer_[3 + k];
      }
    }
  std::size_t k = 0;
  for (std::size_t e = 0; e < names_.size(); ++e) {
    double* total = &values[k++];
    *total = 0;
    for (std::size_t t = 0; t < threads; ++t) {
      const double v = scratch_[e * threads + t];
      *total += v;
      if (options_.per_thread) values[k++] = v;
    }
  }
}

}  // namespace numagraph::profile
