// What a command observes about its own run besides the timings:
//   --profile FILE          the sampler (profile/sampler.hpp) from the first
//                           timed call to the record, phases from the calls'
//                           listener; FILE is JSON (CSV when it ends in .csv)
//   --profile-interval MS   the sampling interval, 1..1000 (default 10)
//   --quiet                 no progress line on stderr
//   --prefetchers on|off    the hardware prefetchers for the run (MSR 0x1A4)
// and the progress line shown on a terminal for long work. One command runs
// per process, so this is process state, set up by apply_run_options.
// docs/profiling.md describes the flags and the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "numagraph/execution.hpp"
#include "numagraph/profile/record.hpp"

namespace numagraph::cli {

struct ObserveFlags {
  std::string profile;           // --profile FILE
  int profile_interval_ms = 10;  // --profile-interval MS
  bool quiet = false;            // --quiet
  std::string prefetchers;       // --prefetchers on|off; empty: left alone
};

void add_observe_options(CLI::App& app, ObserveFlags& flags);
// -q/--quiet alone, for commands without timed calls (convert, generate),
// and the progress line for them (on a terminal, unless quiet).
void add_quiet_option(CLI::App& app, bool& quiet);
void start_progress(bool quiet);
// The command line, for the profile's metadata (main calls it).
void set_command_line(int argc, char** argv);

// After the runtime is configured: sets the prefetchers, makes the sampler
// (its perf events follow the worker threads) and the progress line.
void start_observing(const ObserveFlags& flags);
// The listener make_execution gives the command's calls: the reorder clock
// (common.hpp), the sampler and the progress line, whichever exist.
PhaseListener* command_listener();
// Starts the sampler if it is not running (time_trials calls it before each
// timed call: the profile starts with the first).
void begin_timed_calls();
// Stops the sampler and writes the profile (the record goes into its
// metadata), clears the progress line, and adds "profile" and "prefetchers"
// to the record. emit() calls it before printing.
void finish_observing(profile::Record& rec);

// Progress: `total` ends of inner phase `phase` are expected (`at_most`: an
// upper bound, as PageRank's iterations with a tolerance); the line shows
// done/total `unit`, the rate and the time left. Without an expectation it
// names the phase running.
void expect_progress(std::string_view phase, std::int64_t total, const char* unit, bool at_most = false);
// A line naming work without phases (loading, generating), until the next
// line or progress_clear().
void progress_note(const std::string& what);
void progress_clear();

}  // namespace numagraph::cli
