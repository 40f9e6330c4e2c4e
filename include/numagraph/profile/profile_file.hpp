// Writing a Profile: one JSON file (format in docs/profiling.md: metadata,
// metrics with units, unavailable sources with reasons, samples as columns,
// phases with per-phase totals) and a CSV export of the samples. Both are
// written atomically (util/atomic_file.hpp).
#pragma once

#include <string>

#include "numagraph/profile/record.hpp"
#include "numagraph/profile/sampler.hpp"

namespace numagraph::profile {

// What a profile records about the run: "command", "host", "date" (UTC,
// ISO 8601), "threads", "topology", "nodes", "bind", "placement", "pages"
// (requested), "page_size" (the base page, bytes), from numa::Runtime when
// configured. Callers may add or replace fields.
Record profile_metadata(const std::string& command);

// The JSON document as a string; `metadata` becomes its "metadata" object,
// with interval_ms, duration_s, samples and the sampler's CPU time added.
std::string profile_json(const Profile& p, const Record& metadata);
void write_profile_json(const std::string& path, const Profile& p, const Record& metadata);

// One row per sample: t (seconds), phase (the innermost phase's name), then
// every metric; the header names each column with its unit: "t[s]",
// "phase", "perf.task_clock[ns]".
std::string profile_csv(const Profile& p);
void write_profile_csv(const std::string& path, const Profile& p);

}  // namespace numagraph::profile
