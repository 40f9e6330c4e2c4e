// The process-wide default phase listener of Python's calls
// (profile/current.hpp), shared by the blocks that want phases at the same
// time: numagraph.profile()'s sampler and numagraph.progress()'s tracker.
// Both are added and removed inside jobs on the worker thread, where every
// kernel runs, so the fan-out never changes under a running call.
#pragma once

#include "numagraph/execution.hpp"

namespace numagraph::py {

// Adds `l` to the listeners every call reports its phases to (worker thread only).
void add_default_listener(PhaseListener* l);
// Removes `l` again (worker thread only).
void remove_default_listener(PhaseListener* l);

}  // namespace numagraph::py
