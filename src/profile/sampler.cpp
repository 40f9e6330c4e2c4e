#include "numagraph/profile/sampler.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>

#include "numagraph/util/error.hpp"

namespace numagraph::profile {

void check_interval_ms(int ms) {
  if (ms < 1 || ms > 1000)
    throw UsageError("profile interval " + std::to_string(ms) +
                     " ms is out of range: give 1 to 1000 ms (default " + std::to_string(kDefaultIntervalMs) + ")");
}

std::vector<double> Profile::column(std::size_t metric) const {
  std::vector<double> c(samples());
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = value(i, metric);
  return c;
}

int Profile::find(std::string_view name) const {
  for (std::size_t j = 0; j < metrics.size(); ++j)
    if (metrics[j].name == name) return static_cast<int>(j);
  return -1;
}

std::vector<int> Profile::sample_phases() const {
  std::vector<int> out(samples(), 0);
  for (std::size_t i = 0; i < samples(); ++i) {
    const double mid = 0.5 * ((i ? t[i - 1] : 0.0) + t[i]);
    // The innermost: the deepest phase containing the midpoint, latest begun on ties.
    for (std::size_t p = 1; p < phases.size(); ++p)
      if (phases[p].begin <= mid && mid < phases[p].end &&
          phases[p].depth >= phases[static_cast<std::size_t>(out[i])].depth)
        out[i] = static_cast<int>(p);
  }
  return out;
}

std::vector<double> Profile::phase_totals(std::size_t p) const {
  const std::size_t m = metrics.size();
  std::vector<double> sum(m, 0.0), weight(m, 0.0);
  const double b = phases[p].begin, e = phases[p].end;
  // From the first epoch ending after the phase begins to the first that starts after it ends
  // (short phases, BC's per source, are many: each reads only its own epochs).
  const auto first = static_cast<std::size_t>(std::upper_bound(t.begin(), t.end(), b) - t.begin());
  for (std::size_t i = first; i < samples() && (i ? t[i - 1] : 0.0) < e; ++i) {
    const double lo = i ? t[i - 1] : 0.0, hi = t[i];
    const double overlap = std::min(hi, e) - std::max(lo, b);
    if (overlap <= 0 || hi <= lo) continue;
    const double share = overlap / (hi - lo);
    for (std::size_t j = 0; j < m; ++j) {
      const double v = value(i, j);
      if (std::isnan(v)) continue;
      // Counters: the epoch's share inside the phase; gauges: weighted by time.
      sum[j] += metrics[j].kind == MetricKind::kCounter ? v * share : v * overlap;
      weight[j] += overlap;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    if (weight[j] == 0) sum[j] = NAN;
    else if (metrics[j].kind == MetricKind::kGauge) sum[j] /= weight[j];
  }
  return sum;
}

Sampler::Sampler(std::vector<std::unique_ptr<Source>> sources, SamplerOptions options)
    : sources_(std::move(sources)), options_(options) {
  check_interval_ms(options_.interval_ms);
  for (const auto& s : sources_) {
    for (const auto& m : s->metrics()) {
      profile_.metrics.push_back(m);
      profile_.metric_source.push_back(s->name());
    }
    for (const auto& u : s->unavailable()) profile_.unavailable.push_back(u);
  }
  width_ = profile_.metrics.size();
  profile_.interval_ms = options_.interval_ms;
  profile_.phases.assign(1, Phase{"run", -1, 0, 0, 0});
}

Sampler::~Sampler() {
  if (running()) stop();
}

double Sampler::now() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

void Sampler::start() {
  if (running()) throw UsageError("the profile sampler is already running");
  profile_.t.clear();
  profile_.values.clear();
  profile_.phases.assign(1, Phase{"run", -1, 0, 0, 0});
  profile_.sampler_cpu_s = 0;
  for (auto& s : sources_) s->start();
  std::lock_guard<std::mutex> lock(mutex_);
  open_.assign(1, 0);
  stop_ = false;
  start_ = Clock::now();
  active_ = true;
  thread_ = std::thread([this] { loop(); });
}

Profile Sampler::stop() {
  if (!running()) return profile_;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();  // the thread took the last sample
  std::lock_guard<std::mutex> lock(mutex_);
  active_ = false;
  const double end = profile_.t.back();
  for (int p : open_) profile_.phases[static_cast<std::size_t>(p)].end = end;
  for (auto& ph : profile_.phases) ph.end = std::min(ph.end, end), ph.begin = std::min(ph.begin, end);
  open_.clear();
  return profile_;
}

void Sampler::begin(std::string_view phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  const int parent = open_.back();
  const double t = now();
  profile_.phases.push_back(
      Phase{std::string(phase), parent, profile_.phases[static_cast<std::size_t>(parent)].depth + 1, t, t});
  open_.push_back(static_cast<int>(profile_.phases.size() - 1));
}

void Sampler::end(std::string_view phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  const double t = now();
  // The innermost open phase of that name ("run", open_[0], is closed by stop()).
  for (std::size_t k = open_.size(); k-- > 1;) {
    if (profile_.phases[static_cast<std::size_t>(open_[k])].name != phase) continue;
    for (std::size_t q = k; q < open_.size(); ++q) profile_.phases[static_cast<std::size_t>(open_[q])].end = t;
    open_.resize(k);
    return;
  }
}

void Sampler::take_sample() {
  // Values first, then the time, so that t[i] never precedes the reads.
  const std::size_t row = profile_.values.size();
  profile_.values.resize(row + width_);
  double* out = profile_.values.data() + row;
  for (auto& s : sources_) {
    s->sample(out);
    out += s->metrics().size();
  }
  profile_.t.push_back(now());
}

void Sampler::loop() {
  const auto interval = std::chrono::milliseconds(options_.interval_ms);
  auto deadline = start_ + interval;
  // Room for a minute of samples before the first reallocation.
  const std::size_t expect = static_cast<std::size_t>(60000 / options_.interval_ms);
  profile_.t.reserve(expect);
  profile_.values.reserve(expect * width_);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    const bool stopping = wake_.wait_until(lock, deadline, [this] { return stop_; });
    lock.unlock();
    take_sample();
    lock.lock();
    if (stopping) break;
    const auto late = Clock::now();
    while (deadline <= late) deadline += interval;  // skip the deadlines an overrun missed
  }
  timespec cpu{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0) profile_.sampler_cpu_s = cpu.tv_sec + cpu.tv_nsec * 1e-9;
}

}  // namespace numagraph::profile
