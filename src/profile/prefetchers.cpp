#include "numagraph/profile/prefetchers.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <vector>

#include "numagraph/util/atomic_file.hpp"

namespace numagraph::profile {

namespace {

constexpr off_t kMsrPrefetchControl = 0x1A4;
constexpr std::uint64_t kDisableBits = 0xF;
constexpr int kMaxCpus = 4096;

// What the restore needs, in fixed storage: the signal handler reads it
// (pwrite and close are async-signal-safe; nothing here allocates).
struct Saved {
  int fd = -1;
  std::uint64_t value = 0;
};
Saved g_saved[kMaxCpus];
volatile sig_atomic_t g_count = 0;
struct sigaction g_previous[3];
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

void restore_all() noexcept {
  const int n = g_count;
  g_count = 0;
  for (int i = 0; i < n; ++i) {
    if (g_saved[i].fd < 0) continue;
    (void)!pwrite(g_saved[i].fd, &g_saved[i].value, sizeof g_saved[i].value, kMsrPrefetchControl);
    close(g_saved[i].fd);
    g_saved[i].fd = -1;
  }
}

extern "C" void restore_and_pass_on(int sig) {
  restore_all();
  for (int k = 0; k < 3; ++k)
    if (kSignals[k] == sig) sigaction(sig, &g_previous[k], nullptr);
  raise(sig);  // blocked until this handler returns; then the previous action runs
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    AtomicFile::install_signal_handlers();  // so that a signal still removes half-written files
    std::atexit(restore_all);
    for (int k = 0; k < 3; ++k) {
      struct sigaction sa {};
      sa.sa_handler = restore_and_pass_on;
      sigemptyset(&sa.sa_mask);
      sigaction(kSignals[k], &sa, &g_previous[k]);
    }
  });
}

std::string cpu_vendor() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("vendor_id", 0) == 0) return line.substr(line.find(':') + 2);
  return {};
}

}  // namespace

Prefetchers::Prefetchers(bool on, const std::string& dev_root) : on_(on) {
  if (g_count > 0) {
    reason_ = "the prefetchers are already set by this process";
    return;
  }
  const std::string vendor = cpu_vendor();
  if (dev_root == "/dev" && vendor != "GenuineIntel") {
    reason_ = "MSR 0x1A4 is Intel's prefetcher control and this CPU is " +
              (vendor.empty() ? std::string("unknown") : vendor) + "; nothing was changed";
    return;
  }
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  std::vector<Saved> opened;
  for (long c = 0; c < cpus && c < kMaxCpus; ++c) {
    const std::string path = dev_root + "/cpu/" + std::to_string(c) + "/msr";
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    std::uint64_t value = 0;
    std::string why;
    if (fd < 0)
      why = path + ": " + std::strerror(errno) +
            (errno == ENOENT   ? " (load the msr module: sudo modprobe msr)"
             : errno == EACCES || errno == EPERM ? " (needs root or CAP_SYS_RAWIO)"
                                                 : "");
    else if (pread(fd, &value, sizeof value, kMsrPrefetchControl) != sizeof value)
      why = path + ": MSR 0x1A4 cannot be read (" + std::strerror(errno) + "; a VM or a CPU without it)";
    if (!why.empty()) {
      if (fd >= 0) close(fd);
      for (const Saved& o : opened) close(o.fd);
      reason_ = why + "; nothing was changed";
      return;
    }
    opened.push_back({fd, value});
  }
  const int count = static_cast<int>(opened.size());
  if (count == 0) {
    reason_ = "no CPU found under " + dev_root + "/cpu; nothing was changed";
    return;
  }
  install_handlers();
  for (int i = 0; i < count; ++i) g_saved[i] = opened[i];
  g_count = count;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t want = on ? (opened[i].value & ~kDisableBits) : (opened[i].value | kDisableBits);
    if (pwrite(opened[i].fd, &want, sizeof want, kMsrPrefetchControl) != sizeof want) {
      reason_ = "writing MSR 0x1A4 of CPU " + std::to_string(i) + " failed (" + std::strerror(errno) +
                "); the old values were written back";
      restore_all();
      return;
    }
  }
}

Prefetchers::~Prefetchers() {
  if (applied()) restore_all();
}

std::string Prefetchers::report() const {
  return applied() ? std::string(on_ ? "on" : "off") : "unavailable: " + reason_;
}

}  // namespace numagraph::profile
