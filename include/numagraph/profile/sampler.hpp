// A thread that samples every source at a fixed interval while a program
// runs, and a PhaseListener that marks the program's phases on the same
// clock, so that every sample belongs to a phase and every phase has totals
// (joules, page faults, task clock...).
//
// Sample i closes the epoch (t[i-1], t[i]] (t[-1] = 0, the start); times
// are seconds since start() on the steady clock. Deadlines are start +
// k * interval, so a late sample does not shift the later ones; a sample
// that overruns skips the deadlines it missed. Phase 0 is "run", from start()
// to stop(); phases may nest (begin "pagerank", begin "iteration", end
// "iteration", ...). A sample belongs to the innermost phase open at its
// epoch's midpoint.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/profile/source.hpp"

namespace numagraph::profile {

inline constexpr int kDefaultIntervalMs = 10;
// Throws UsageError unless 1 <= ms <= 1000.
void check_interval_ms(int ms);

struct Phase {
  std::string name;
  int parent = -1;  // index in Profile::phases; -1 for "run"
  int depth = 0;    // 0 for "run"
  double begin = 0, end = 0;  // seconds since start
};

// What a Sampler recorded.
struct Profile {
  int interval_ms = kDefaultIntervalMs;
  std::vector<Metric> metrics;
  std::vector<std::string> metric_source;  // the source of each metric
  std::vector<Unavailable> unavailable;
  std::vector<double> t;       // end of each epoch
  std::vector<double> values;  // sample-major: values[i * metrics.size() + j]
  std::vector<Phase> phases;   // in begin order; phases[0] is "run"
  double sampler_cpu_s = 0;    // CPU time of the sampler thread

  std::size_t samples() const { return t.size(); }
  double duration() const { return phases.empty() ? 0 : phases[0].end; }
  double value(std::size_t sample, std::size_t metric) const { return values[sample * metrics.size() + metric]; }
  std::vector<double> column(std::size_t metric) const;
  // Index of the metric named `name`, or -1.
  int find(std::string_view name) const;
  // The innermost phase open at the midpoint of each sample's epoch.
  std::vector<int> sample_phases() const;
  // For phase p and each metric: counters, the sum of the epochs' values
  // weighted by the share of each epoch inside the phase (an estimate for
  // phases shorter than an epoch); gauges, their time-weighted mean. NaN
  // when no epoch overlaps the phase or no value was read.
  std::vector<double> phase_totals(std::size_t p) const;
};

struct SamplerOptions {
  int interval_ms = kDefaultIntervalMs;
};

class Sampler final : public PhaseListener {
 public:
  explicit Sampler(std::vector<std::unique_ptr<Source>> sources, SamplerOptions options = {});
  ~Sampler() override;  // stops the thread if still running
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Reads every source's baseline and starts the sampling thread.
  void start();
  // Takes a last sample, stops the thread, closes open phases and returns
  // what was recorded. The sampler can be started again afterwards.
  Profile stop();
  bool running() const { return thread_.joinable(); }

  // PhaseListener: mark a phase's begin and end (any thread; ignored when
  // not running). end() closes the innermost open phase of that name and
  // any phase opened inside it; an end without a begin is ignored.
  void begin(std::string_view phase) override;
  void end(std::string_view phase) override;

  const std::vector<std::unique_ptr<Source>>& sources() const { return sources_; }

 private:
  using Clock = std::chrono::steady_clock;
  double now() const;
  void loop();
  void take_sample();

  std::vector<std::unique_ptr<Source>> sources_;
  SamplerOptions options_;
  std::size_t width_ = 0;
  Clock::time_point start_;
  std::thread thread_;
  std::mutex mutex_;  // guards stop_, active_ and the phases
  std::condition_variable wake_;
  bool stop_ = false;
  bool active_ = false;  // between start() and stop(): phases are recorded
  std::vector<int> open_;  // indexes of open phases, outermost first
  Profile profile_;
};

}  // namespace numagraph::profile
