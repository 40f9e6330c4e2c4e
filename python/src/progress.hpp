// numagraph.progress()'s C++ side: a phase listener that counts the phases
// of the call running on the worker thread, and the hooks through which the
// executor (executor.cpp) hands the counts to the Python sink. The sink is
// called only on the thread that made the call, from run_job's wait loop
// with the GIL held (never from the worker or an OpenMP thread), at most
// every `interval` seconds plus once when the call ends; a sink that raises
// stops the call (cancel flag) and its exception is raised from the call.
// Without an open progress() block every hook is one atomic load.
#pragma once

#include <cstdint>
#include <string_view>

namespace numagraph::py::progress {

// What the call about to run counts (from the job, before the kernel
// starts): ends of `phase`, `step` units each, out of `total` `unit`s
// (`at_most`: the call may stop earlier, PageRank's tolerance). Calls that
// set nothing count the ends of their inner phases, total unknown.
void expect(std::string_view phase, std::int64_t total, const char* unit, std::int64_t step = 1,
            bool at_most = false);

// The executor's hooks: on the worker around each job ...
void job_started(const void* job);
void job_finished(const void* job);
// ... and on the caller's thread with the GIL held: hands `job`'s counts to
// the sink when due (always when `last`). Throws nb::python_error when the
// sink raises.
void poll(const void* job, bool last);

}  // namespace numagraph::py::progress
