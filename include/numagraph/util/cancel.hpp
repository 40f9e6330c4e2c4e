// Cooperative cancellation: one process-wide flag that a front end raises
// (Python on Ctrl-C) and long kernels poll between iterations or levels.
//
// Why a flag and not thread cancellation: a kernel in the middle of an OpenMP
// region holds no lock a signal could safely interrupt, so only the kernel
// knows where stopping is clean. Poll with `throw_if_cancelled()` OUTSIDE
// parallel regions (an exception must not leave an OpenMP region), e.g. once
// per BFS level or PageRank iteration: one relaxed load, free at that rate.
// The front end clears the flag before it starts the next call.
#pragma once

#include <atomic>

#include "numagraph/util/error.hpp"

namespace numagraph {

// The run was stopped on request (Ctrl-C in Python). Python maps it to
// KeyboardInterrupt; the CLI never raises the flag.
class Cancelled : public Error {
 public:
  Cancelled() : Error("cancelled on request (Ctrl-C)") {}
};

inline std::atomic<bool>& cancel_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

inline bool cancel_requested() { return cancel_flag().load(std::memory_order_relaxed); }
inline void request_cancel() { cancel_flag().store(true, std::memory_order_relaxed); }
inline void clear_cancel() { cancel_flag().store(false, std::memory_order_relaxed); }

// Throws Cancelled when a cancel was requested: call between iterations.
inline void throw_if_cancelled() {
  if (cancel_requested()) throw Cancelled();
}

}  // namespace numagraph
