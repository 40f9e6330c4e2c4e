#include "numagraph/util/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "numagraph/util/error.hpp"

namespace numagraph {

namespace {

// The signal-safe registry: fixed storage, no allocation, slots claimed with
// a compare-and-swap. The handler only reads slots whose state is kLive.
constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = PATH_MAX;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
struct Slot {
  std::atomic<int> state{kFree};
  char path[kPathBytes];
};
Slot g_slots[kSlots];

int claim_slot(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(kLive, std::memory_order_release);
      return i;
    }
  }
  return -1;  // more than kSlots files at once: still atomic, just not cleaned on a signal
}

void release_slot(int i) {
  if (i >= 0) g_slots[i].state.store(kFree, std::memory_order_release);
}

extern "C" void remove_temps_and_die(int sig) {
  for (auto& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kLive) unlink(s.path);
  // SA_RESETHAND restored the default action; the signal is blocked while
  // this handler runs, so it is delivered (and kills) when the handler returns.
  raise(sig);
}

void install_signal_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) != 0) continue;
      // Leave handlers others installed (Python's SIGINT) and ignored signals.
      if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temps_and_die;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      sigaction(sig, &sa, nullptr);
    }
  });
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Paths that name an already open stream rather than a file to replace.
bool names_a_stream(const std::string& path) {
  return path == "/dev/stdout" || path == "/dev/stderr" || starts_with(path, "/dev/fd/") ||
         starts_with(path, "/proc/self/fd/");
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Creates an empty, new file in `dir` with O_EXCL and returns its name; the
// name carries the pid and a counter so concurrent writers (threads or
// processes) never share one. The name is listed in the registry (`slot`)
// before the file exists, so a signal can never leave it behind.
std::string create_temp(const std::string& dir, const std::string& base, mode_t mode, const std::string& for_path,
                        int& slot) {
  static std::atomic<unsigned> counter{0};
  const std::string stem = base.substr(0, 160);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = dir + "/." + stem + ".tmp-" + std::to_string(getpid()) + "-" +
                             std::to_string(counter.fetch_add(1));
    slot = claim_slot(name);
    const int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      close(fd);
      return name;
    }
    release_slot(slot);
    slot = -1;
    if (errno != EEXIST)
      throw IoError("cannot write " + for_path + ": cannot create a file in " + dir + ": " + std::strerror(errno) +
                    " (check the directory exists and is writable)");
  }
  throw IoError("cannot write " + for_path + ": no free temporary name in " + dir +
                " (remove stale .*.tmp-* files there)");
}

void copy_into(const std::string& from, const std::string& to, bool append) {
  const int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = open(to.c_str(), O_WRONLY | O_CLOEXEC | (append ? O_APPEND : 0));
  const int err = errno;
  if (in < 0 || out < 0) {
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    throw IoError("cannot write " + to + ": " + std::strerror(err) + " (check the path and permissions)");
  }
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t got = read(in, buf.data(), buf.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (ssize_t done = 0; done < got;) {
      const ssize_t put = write(out, buf.data() + done, static_cast<std::size_t>(got - done));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) {
        const int e = errno;
        close(in);
        close(out);
        throw IoError("error writing " + to + ": " + std::strerror(e));
      }
      done += put;
    }
  }
  close(in);
  if (close(out) != 0) throw IoError("error writing " + to + ": " + std::strerror(errno));
}

}  // namespace

void AtomicFile::install_signal_handlers() { install_signal_cleanup(); }

AtomicFile::AtomicFile(const std::string& path) : path_(path), target_(path) {
  if (path.empty()) throw UsageError("empty output file name: give a path");
  struct stat st {};
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    throw IoError("cannot write " + path + ": it is a directory (give a file name)");
  // A rename would replace a write-protected file: keep the protection.
  if (exists && access(path.c_str(), W_OK) != 0)
    throw IoError("cannot write " + path + ": " + std::strerror(errno) + " (the file is write-protected)");
  in_place_ = names_a_stream(path) || (exists && !S_ISREG(st.st_mode));
  install_signal_cleanup();
  if (in_place_) {
    const char* tmp = std::getenv("TMPDIR");
    temp_ = create_temp(tmp && *tmp ? tmp : "/tmp", "numagraph-out", 0600, path, slot_);
  } else {
    struct stat lst {};
    if (lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      // Replace the file the link points to, not the link.
      if (char* real = realpath(path.c_str(), nullptr)) {
        target_ = real;
        std::free(real);
      }
    }
    temp_ = create_temp(directory_of(target_), base_name(target_), exists ? (st.st_mode & 07777) : 0666, path, slot_);
    // An existing file keeps its permissions (O_CREAT's mode is masked by the umask).
    if (exists) chmod(temp_.c_str(), st.st_mode & 07777);
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) remove_temp();
  release_slot(slot_);
}

void AtomicFile::remove_temp() noexcept {
  if (!temp_.empty()) unlink(temp_.c_str());
}

void AtomicFile::commit() {
  if (committed_) return;
  try {
    if (in_place_) {
      struct stat st {};
      const bool regular = stat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode);
      // /dev/stdout redirected to a file: append, so `>>` keeps what was there.
      copy_into(temp_, path_, regular);
      remove_temp();
    } else if (rename(temp_.c_str(), target_.c_str()) != 0) {
      throw IoError("cannot write " + path_ + ": renaming the finished file into place failed: " +
                    std::strerror(errno) + " (check the directory is writable)");
    }
  } catch (...) {
    remove_temp();
    throw;
  }
  committed_ = true;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void refuse_output_onto_input(const std::string& output, const std::string& input, const std::string& flag) {
  if (output.empty() || input.empty() || !same_file(output, input)) return;
  throw UsageError(flag + " " + output + " is the input graph " + input +
                   ": writing there would destroy the input; give another file name");
}

}  // namespace numagraph
