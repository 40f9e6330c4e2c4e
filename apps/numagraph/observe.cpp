#include "observe.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "common.hpp"
#include "numagraph/profile/fan_out.hpp"
#include "numagraph/profile/prefetchers.hpp"
#include "numagraph/profile/profile_file.hpp"
#include "numagraph/profile/sampler.hpp"
#include "numagraph/profile/source.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::cli {

namespace {

// The progress line: redrawn in place ("\r", erase line) at most every
// 0.2 s, on stderr, only when stderr is a terminal.
class ProgressLine final : public PhaseListener {
 public:
  void enable(const std::string& command) {
    enabled_ = true;
    prefix_ = "numagraph " + command + ": ";
  }
  bool enabled() const { return enabled_; }

  void expect(std::string_view phase, std::int64_t total, const char* unit, bool at_most) {
    phase_ = phase;
    total_ = total;
    unit_ = unit;
    at_most_ = at_most;
    done_ = 0;
    started_ = false;
  }
  void begin(std::string_view phase) override {
    if (!enabled_) return;
    if (!started_ && phase != "reorder" && phase != "setup") {
      clock_.restart();  // the rate counts from the first call
      started_ = true;
    }
    running_ = phase;
    if (phase_.empty()) draw(false);
  }
  void end(std::string_view phase) override {
    if (!enabled_ || phase_.empty() || phase != phase_) return;
    ++done_;
    draw(false);
  }
  void note(const std::string& what) {
    if (!enabled_) return;
    write(prefix_ + what + " ...");
  }
  void clear() {
    if (!enabled_ || !shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
  }

 private:
  void draw(bool force) {
    const double now = clock_.seconds();
    if (shown_ && !force && now - last_ < 0.2) return;
    last_ = now;
    std::string s = prefix_;
    if (phase_.empty()) {
      s += running_;
    } else {
      char buf[160];
      const double rate = now > 0 ? static_cast<double>(done_) / now : 0;
      std::snprintf(buf, sizeof buf, "%lld/%s%lld %s", static_cast<long long>(done_), at_most_ ? "<=" : "",
                    static_cast<long long>(total_), unit_.c_str());
      s += buf;
      if (rate > 0) {
        const double left = static_cast<double>(total_ - done_) / rate;
        std::snprintf(buf, sizeof buf, ", %.3g/s, %s%.1f s left", rate, at_most_ ? "at most " : "", left);
        s += buf;
      }
    }
    write(s);
  }
  void write(const std::string& line) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
  }

  bool enabled_ = false, shown_ = false, started_ = false, at_most_ = false;
  std::string prefix_, phase_, unit_, running_;
  std::int64_t total_ = 0, done_ = 0;
  double last_ = 0;
  profile::Timer clock_;
};

std::string g_command_line = "numagraph";
std::string g_command = "numagraph";
ObserveFlags g_flags;
std::unique_ptr<profile::Prefetchers> g_prefetchers;
std::unique_ptr<profile::Sampler> g_sampler;
ProgressLine g_progress;
profile::FanOutListener g_listeners;

}  // namespace

void add_observe_options(CLI::App& app, ObserveFlags& flags) {
  app.add_option("--profile", flags.profile,
                 "sample counters, NUMA traffic and energy over the run and write them with the phases to FILE "
                 "(JSON; CSV when FILE ends in .csv; docs/profiling.md)")
      ->type_name("FILE");
  app.add_option("--profile-interval", flags.profile_interval_ms,
                 "--profile's sampling interval in milliseconds, 1 to 1000 (default 10)")
      ->type_name("MS")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              std::size_t used = 0;
              const int ms = std::stoi(text, &used);
              if (used != text.size()) return "expects whole milliseconds (got '" + text + "')";
              profile::check_interval_ms(ms);
              return {};
            } catch (const UsageError& e) {
              return e.what();
            } catch (const std::exception&) {
              return "expects whole milliseconds, 1 to 1000 (got '" + text + "')";
            }
          },
          ""));
  add_quiet_option(app, flags.quiet);
  app.add_option("--prefetchers", flags.prefetchers,
                 "turn the hardware prefetchers on or off for the run (Intel MSR 0x1A4 via /dev/cpu/N/msr, needs "
                 "root; restored at exit and on signals); reported unavailable where the machine refuses")
      ->check(CLI::IsMember({"on", "off"}));
}

void add_quiet_option(CLI::App& app, bool& quiet) {
  app.add_flag("-q,--quiet", quiet, "no progress line on stderr (shown only when stderr is a terminal)");
}

void start_progress(bool quiet) {
  if (!quiet && isatty(STDERR_FILENO) && !g_progress.enabled()) g_progress.enable(g_command);
}

void set_command_line(int argc, char** argv) {
  g_command_line.clear();
  for (int i = 0; i < argc; ++i) {
    if (i) g_command_line += ' ';
    g_command_line += i ? argv[i] : "numagraph";
  }
  if (argc > 1) g_command = argv[1];
}

void start_observing(const ObserveFlags& flags) {
  g_flags = flags;
  g_listeners = profile::FanOutListener();
  g_listeners.add(reorder_listener());
  if (!flags.prefetchers.empty() && !g_prefetchers) {
    g_prefetchers = std::make_unique<profile::Prefetchers>(flags.prefetchers == "on");
    if (!g_prefetchers->applied())
      std::fprintf(stderr, "numagraph: note: --prefetchers %s: %s\n", flags.prefetchers.c_str(),
                   g_prefetchers->report().c_str());
  }
  if (!flags.profile.empty()) {
    g_sampler = std::make_unique<profile::Sampler>(profile::default_sources(),
                                                   profile::SamplerOptions{flags.profile_interval_ms});
    g_listeners.add(g_sampler.get());
  }
  start_progress(flags.quiet);
  if (g_progress.enabled()) g_listeners.add(&g_progress);
}

PhaseListener* command_listener() {
  if (g_listeners.size() == 0) g_listeners.add(reorder_listener());  // commands without run options
  return g_listeners.get();
}

void begin_timed_calls() {
  if (g_sampler && !g_sampler->running()) g_sampler->start();
}

void finish_observing(profile::Record& rec) {
  g_progress.clear();
  if (g_prefetchers) rec.set("prefetchers", g_prefetchers->report());
  if (!g_sampler || !g_sampler->running()) return;
  const profile::Profile p = g_sampler->stop();
  const std::string& path = g_flags.profile;
  const bool csv = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  if (csv) {
    profile::write_profile_csv(path, p);
  } else {
    profile::Record meta = profile::profile_metadata(g_command_line);
    if (g_prefetchers) meta.set("prefetchers", g_prefetchers->report());
    meta.set("record", rec);
    profile::write_profile_json(path, p, meta);
  }
  rec.set("profile", path).set("profile_samples", static_cast<std::int64_t>(p.samples()));
}

void expect_progress(std::string_view phase, std::int64_t total, const char* unit, bool at_most) {
  g_progress.expect(phase, total, unit, at_most);
}
void progress_note(const std::string& what) { g_progress.note(what); }
void progress_clear() { g_progress.clear(); }

}  // namespace numagraph::cli
