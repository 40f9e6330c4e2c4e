// numagraph.profile's C++ side: one sampler for the process, made, started
// and stopped on the worker thread (its perf events follow that thread's
// OpenMP pool, which runs every kernel), and added to the default phase
// listeners (listeners.hpp; numagraph.progress() adds its own beside it) so
// Python's calls, whose Execution names none, report their phases to it.
// The profile comes back as the JSON document the CLI writes
// (docs/profiling.md), which python/numagraph/profiling.py reads.
#include <memory>
#include <string>

#include <nanobind/stl/string.h>

#include "common.hpp"
#include "listeners.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/profile_file.hpp"
#include "numagraph/profile/sampler.hpp"
#include "numagraph/profile/source.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::py {

namespace {

// Touched only inside jobs on the worker thread.
std::unique_ptr<profile::Sampler>& sampler() {
  static auto* s = new std::unique_ptr<profile::Sampler>;  // never destroyed: jobs may outlive statics
  return *s;
}

void profile_start(int interval_ms) {
  profile::check_interval_ms(interval_ms);
  run_job(
      [interval_ms] {
        auto& s = sampler();
        if (s && s->running()) throw UsageError("a numagraph.profile() block is already open: close it first");
        s = std::make_unique<profile::Sampler>(profile::default_sources(), profile::SamplerOptions{interval_ms});
        s->start();
        add_default_listener(s.get());
      },
      false);
}

// Stops the sampler; returns the JSON document and writes it to `path`
// (atomically) when not empty: CSV when it ends in .csv, else JSON.
std::string profile_stop(const std::string& path, const std::string& command) {
  std::string json;
  run_job(
      [&] {
        auto& s = sampler();
        if (!s || !s->running()) throw UsageError("no numagraph.profile() block is open");
        remove_default_listener(s.get());
        const profile::Profile p = s->stop();
        const profile::Record meta = profile::profile_metadata(command);
        json = profile::profile_json(p, meta);
        if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) profile::write_profile_csv(path, p);
        else if (!path.empty()) profile::write_profile_json(path, p, meta);
        s.reset();
      },
      false);
  return json;
}

}  // namespace

void bind_profile(nb::module_& m) {
  m.def("_profile_start", &profile_start, nb::arg("interval_ms"),
        "Starts the process's profile sampler (numagraph.profile() calls it).");
  m.def("_profile_stop", &profile_stop, nb::arg("path") = "", nb::arg("command") = "python",
        "Stops the sampler; returns the profile as JSON, also written to path when given.");
}

}  // namespace numagraph::py
