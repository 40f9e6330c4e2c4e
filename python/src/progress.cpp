// numagraph.progress(): the tracker (a phase listener added to the default
// listeners while a block is open) and the delivery of its counts to the
// Python sink from the caller's thread (progress.hpp).
#include "progress.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "common.hpp"
#include "listeners.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::py::progress {
namespace {

std::atomic<bool> g_active{false};  // a block is open

// One call's progress as the sink receives it.
struct Counts {
  std::int64_t call_index = 0;  // 1, 2, ... per call (job with phases) since the block opened
  std::string call;             // the kernel's outer phase: "pagerank", "betweenness", ...
  std::string phase;            // what `done` counts, or the phase running now
  std::string unit = "phases";
  std::int64_t done = 0;
  std::int64_t total = -1;  // -1: unknown
  bool at_most = false;
  double elapsed = 0;       // seconds since the job started
  std::uint64_t events = 0;  // phase events seen; 0: nothing to report
};

// Counts the phases of the job running on the worker. begin/end come from
// the worker or from one thread of its OpenMP team; the caller's thread
// reads a copy: hence the mutex (a few phase events per iteration or
// source, so it costs nothing measurable).
class Tracker final : public PhaseListener {
 public:
  void job_started(const void* job) {
    std::lock_guard lock(mu_);
    job_ = job;
    clock_.restart();
    stack_.clear();
    expected_.clear();
    step_ = 1;
    c_ = Counts{};
  }
  // Numbers the calls of a new block from 1.
  void restart_numbering() {
    std::lock_guard lock(mu_);
    calls_ = 0;
  }
  void job_finished(const void* job) {
    std::lock_guard lock(mu_);
    if (job_ != job) return;
    finished_ = snapshot();
    finished_job_ = job;
    job_ = nullptr;
  }
  void expect(std::string_view phase, std::int64_t total, const char* unit, std::int64_t step,
              bool at_most) {
    std::lock_guard lock(mu_);
    expected_ = phase;
    step_ = step;
    c_.phase = phase;
    c_.total = total;
    c_.unit = unit;
    c_.at_most = at_most;
  }
  void begin(std::string_view phase) override {
    if (!g_active.load(std::memory_order_relaxed)) return;
    std::lock_guard lock(mu_);
    if (!job_) return;
    if (c_.events == 0) c_.call_index = ++calls_;  // jobs without phases (loads) are not numbered
    if (stack_.empty() && phase != "reorder" && phase != "setup") c_.call = phase;
    stack_.emplace_back(phase);
    ++c_.events;
  }
  void end(std::string_view phase) override {
    if (!g_active.load(std::memory_order_relaxed)) return;
    std::lock_guard lock(mu_);
    if (!job_) return;
    if (!stack_.empty()) stack_.pop_back();
    ++c_.events;
    if (!expected_.empty()) {
      if (phase == expected_) c_.done += step_;
    } else if (!stack_.empty()) {
      ++c_.done;  // an inner phase of the call ended
    }
  }
  // `job`'s counts: while it runs, or (when `last`) as it finished.
  std::optional<Counts> counts(const void* job, bool last) {
    std::lock_guard lock(mu_);
    if (job_ == job) return snapshot();
    if (last && finished_job_ == job) return finished_;
    return std::nullopt;
  }

 private:
  Counts snapshot() const {
    Counts c = c_;
    c.elapsed = clock_.seconds();
    // The last batch of sources may be partial.
    if (c.total >= 0 && c.done > c.total) c.done = c.total;
    if (expected_.empty()) c.phase = stack_.empty() ? c.call : stack_.back();
    return c;
  }

  std::mutex mu_;
  const void* job_ = nullptr;
  const void* finished_job_ = nullptr;
  profile::Timer clock_;
  std::vector<std::string> stack_;
  std::string expected_;
  std::int64_t step_ = 1;
  std::int64_t calls_ = 0;
  Counts c_, finished_;
};

// All never destroyed: an abandoned kernel may still report at exit. The
// tracker, once added to the default listeners, stays there (closing a
// block must not wait for the worker, which may still run a kernel
// abandoned on Ctrl-C); with no block open it returns at once.
Tracker& tracker() {
  static auto* t = new Tracker;
  return *t;
}
nb::object& sink() {  // touched with the GIL held only
  static auto* s = new nb::object();
  return *s;
}
bool g_installed = false;  // with the GIL held
// Throttling, on callers' threads with the GIL held.
double g_interval = 0.1;
profile::Timer g_since_last;
const void* g_last_job = nullptr;
std::uint64_t g_last_events = 0;

void start(nb::object callable, double interval) {
  if (g_active.load())
    throw UsageError("a numagraph.progress() block is already open: close it first");
  if (!(interval >= 0)) throw UsageError("the progress interval must be 0 or more seconds");
  sink() = std::move(callable);
  g_interval = interval;
  g_last_job = nullptr;
  g_since_last.restart();
  tracker().restart_numbering();
  if (!g_installed) run_job([] { add_default_listener(&tracker()); }, false);
  g_installed = true;
  g_active.store(true);
}

void stop() {
  g_active.store(false);
  sink() = nb::object();
}

}  // namespace

void expect(std::string_view phase, std::int64_t total, const char* unit, std::int64_t step,
            bool at_most) {
  if (g_active.load(std::memory_order_relaxed)) tracker().expect(phase, total, unit, step, at_most);
}

void job_started(const void* job) {
  if (g_active.load(std::memory_order_relaxed)) tracker().job_started(job);
}

void job_finished(const void* job) {
  if (g_active.load(std::memory_order_relaxed)) tracker().job_finished(job);
}

void poll(const void* job, bool last) {
  if (!g_active.load(std::memory_order_relaxed) || !sink().is_valid()) return;
  const std::optional<Counts> c = tracker().counts(job, last);
  if (!c || c->events == 0) return;
  const bool unchanged = job == g_last_job && c->events == g_last_events;
  if (!last && (g_since_last.seconds() < g_interval || unchanged)) return;
  g_since_last.restart();
  g_last_job = job;
  g_last_events = c->events;
  nb::object total = c->total >= 0 ? nb::cast(c->total) : nb::none();
  nb::object s = sink();  // a reference of our own: the sink may close the block
  s(c->call_index, c->call, c->phase, c->done, total, c->unit, c->elapsed, last, c->at_most);
}

}  // namespace numagraph::py::progress

namespace numagraph::py {

void bind_progress(nb::module_& m) {
  m.def("_progress_start", &progress::start, nb::arg("sink"), nb::arg("interval"),
        "Opens the progress block: sink(call_index, call, phase, done, total, unit, elapsed, "
        "final, at_most) is called from the calling thread (numagraph.progress() calls it).");
  m.def("_progress_stop", &progress::stop, "Closes the progress block.");
}

}  // namespace numagraph::py
