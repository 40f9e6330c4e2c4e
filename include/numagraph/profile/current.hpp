// The phase listener of the call running now, so that kernels can mark
// phases inside a call (PageRank iterations, BFS levels) without a listener
// in their signature; and a process-wide default listener for calls whose
// Execution names none (a profile opened around Python calls, which run on
// a worker thread of their own).
//
// EngineCall sets the current listener for the duration of its kernel
// (ListenerScope); a kernel marks a phase with `profile::InnerPhase
// phase("iteration");` on the thread that runs the call, outside parallel
// regions (or from one thread of the team). Without a listener that costs a
// thread-local load and a branch.
#pragma once

#include <string_view>

#include "numagraph/execution.hpp"

namespace numagraph::profile {

// The listener calls fall back to when their Execution has none; null by default.
void set_default_listener(PhaseListener* listener);
PhaseListener* default_listener();

// The listener of the call running on this thread (null: none).
PhaseListener* current_listener();

// Makes `listener` the current one on this thread for the scope.
class ListenerScope {
 public:
  explicit ListenerScope(PhaseListener* listener);
  ~ListenerScope();
  ListenerScope(const ListenerScope&) = delete;
  ListenerScope& operator=(const ListenerScope&) = delete;

 private:
  PhaseListener* previous_;
};

// begin(name) on the current listener now, end(name) on leaving the scope.
class InnerPhase {
 public:
  explicit InnerPhase(std::string_view name) : listener_(current_listener()), name_(name) {
    if (listener_) listener_->begin(name_);
  }
  ~InnerPhase() {
    if (listener_) listener_->end(name_);
  }
  InnerPhase(const InnerPhase&) = delete;
  InnerPhase& operator=(const InnerPhase&) = delete;

 private:
  PhaseListener* listener_;
  std::string_view name_;
};

}  // namespace numagraph::profile
