// Errors in a distributed job: one message and one exit code for the whole
// job, never a hang and never one copy per rank.
//
// Every step that can fail on some ranks only (opening the file, parsing a
// line, a root that is not a vertex...) runs inside agree(): each rank runs
// the step, then all ranks compare outcomes in one collective. If any failed,
// the failing rank whose error comes first (the smallest input line; else the
// lowest rank) prints its message once, and every rank throws JobFailed with
// that error's exit code (util/error.hpp), which main turns into the process
// exit code after MPI_Finalize. Steps that fail on every rank at once (a
// check of a global count) agree the same way. Running out of memory, which
// hits one rank inside a collective step, ends the job with MPI_Abort.
#pragma once

#include <mpi.h>

#include <functional>
#include <string>

namespace numagraph::dist {

struct JobFailed {
  int exit_code;
};

// The prefix of every message the tool prints ("numagraph-mpi").
inline constexpr const char* kToolName = "numagraph-mpi";

// Collective over comm: runs step() and agrees on its outcome.
void agree(MPI_Comm comm, const std::function<void()>& step);

// Prints "numagraph-mpi: note: ..." once (rank 0 only).
void note_once(MPI_Comm comm, const std::string& text);

}  // namespace numagraph::dist
