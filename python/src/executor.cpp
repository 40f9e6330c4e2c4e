// The worker thread that runs every C++ call of the Python module, and the
// wait loop that keeps Ctrl-C working while it runs (see common.hpp).
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include <unistd.h>

#include "common.hpp"
#include "progress.hpp"
#include "numagraph/util/cancel.hpp"

namespace numagraph::py {
namespace {

struct Job {
  std::function<void()> fn;
  std::exception_ptr error;
  bool done = false;
  bool dropped = false;  // the caller gave up before the job started
  std::condition_variable finished;
};

class Executor {
 public:
  static Executor& get() {
    // Leaked on purpose: the worker may still run an abandoned kernel at
    // interpreter exit, and joining it there would hang the exit. A forked
    // child (multiprocessing) has no worker thread: it starts its own (and,
    // being a new thread, its own OpenMP pool).
    static Executor* e = nullptr;
    static pid_t owner = 0;
    if (!e || owner != getpid()) {
      e = new Executor();
      owner = getpid();
    }
    return *e;
  }

  void submit(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(job);
    wake_.notify_one();
  }

  // Waits up to `timeout` for `job`; true when it has finished.
  bool wait_for(const std::shared_ptr<Job>& job, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return job->finished.wait_for(lock, timeout, [&] { return job->done; });
  }

  // Ctrl-C for `job`: asked to stop if running; if still queued, taken out
  // and finished at once (a caller that waits for it, not abandonable, would
  // otherwise wait for the jobs ahead of it, or forever: the worker skips
  // dropped jobs). Under the lock the worker takes to start a job (and clear
  // the flag), so a request can never fall between the start and the
  // clearing: before, a worker that picked the job up late cleared the
  // request it had just been sent and the kernel ran on.
  void cancel(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mu_);
    job->dropped = true;
    const auto it = std::find(queue_.begin(), queue_.end(), job);
    if (it != queue_.end()) {
      queue_.erase(it);
      job->done = true;
      job->finished.notify_all();
      return;
    }
    request_cancel();
  }

 private:
  Executor() { std::thread([this] { loop(); }).detach(); }

  void loop() {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return !queue_.empty(); });
        job = std::move(queue_.front());
        queue_.pop_front();
        if (job->dropped) continue;
        // A cancel belongs to the call that raised it: start each job clean.
        clear_cancel();
      }
      std::exception_ptr error;
      progress::job_started(job.get());
      try {
        job->fn();
      } catch (...) {
        error = std::current_exception();
      }
      progress::job_finished(job.get());
      // Destroy what the job captured here, off the Python thread and without
      // the lock (it may free big arrays).
      job->fn = nullptr;
      std::lock_guard<std::mutex> lock(mu_);
      job->error = error;
      job->done = true;
      job->finished.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> queue_;
};

// How often the waiting Python thread looks for signals: Ctrl-C is answered
// within this interval (plus the grace period below).
constexpr std::chrono::milliseconds kPoll{50};
// After Ctrl-C, how long to give a kernel that polls the cancel flag to stop
// cleanly before an abandonable job is left to finish in the background.
constexpr std::chrono::milliseconds kGrace{300};

}  // namespace

void run_job(std::function<void()> fn, bool abandonable) {
  Executor& ex = Executor::get();
  auto job = std::make_shared<Job>();
  job->fn = std::move(fn);
  bool interrupted = false;
  // An exception the progress sink raised (progress.hpp): the call is asked
  // to stop, waited for, and this is raised in its place.
  std::optional<nb::python_error> sink_error;
  {
    nb::gil_scoped_release release;
    ex.submit(job);
    while (!ex.wait_for(job, kPoll)) {
      nb::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        break;
      }
      if (sink_error) continue;
      try {
        progress::poll(job.get(), false);
      } catch (nb::python_error& e) {
        if (e.matches(PyExc_KeyboardInterrupt)) {  // Ctrl-C while the sink ran: as any Ctrl-C
          e.restore();
          interrupted = true;
          break;
        }
        sink_error.emplace(std::move(e));
        ex.cancel(job);
      }
    }
    if (interrupted) {
      ex.cancel(job);
      if (abandonable) {
        ex.wait_for(job, kGrace);
      } else {
        while (!ex.wait_for(job, kPoll)) {
        }
      }
    }
  }
  // The Python error the signal handler set (KeyboardInterrupt) wins over
  // whatever the job did since: the user asked to stop.
  if (interrupted) throw nb::python_error();
  if (sink_error) throw std::move(*sink_error);
  if (job->error) std::rethrow_exception(job->error);
  progress::poll(job.get(), true);  // the call's last update
}

}  // namespace numagraph::py
