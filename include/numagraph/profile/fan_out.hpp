// A PhaseListener that passes every phase on to several others, so that one
// Execution serves a command's timing (the reorder clock), its profile
// (Sampler) and its progress line at once. Begins go to the listeners in the
// order they were added, ends in the reverse order, as nested scopes would.
#pragma once

#include <string_view>
#include <vector>

#include "numagraph/execution.hpp"

namespace numagraph::profile {

class FanOutListener final : public PhaseListener {
 public:
  FanOutListener() = default;
  explicit FanOutListener(std::vector<PhaseListener*> to) {
    for (PhaseListener* l : to) add(l);
  }

  // Adds `l` (null and listeners already present are ignored).
  void add(PhaseListener* l) {
    if (!l || l == this) return;
    for (PhaseListener* x : to_)
      if (x == l) return;
    to_.push_back(l);
  }
  std::size_t size() const { return to_.size(); }

  // The listener to give an Execution: null with none, the only one with
  // one (no indirection), else this.
  PhaseListener* get() {
    if (to_.empty()) return nullptr;
    return to_.size() == 1 ? to_.front() : this;
  }

  void begin(std::string_view phase) override {
    for (PhaseListener* l : to_) l->begin(phase);
  }
  void end(std::string_view phase) override {
    for (auto it = to_.rbegin(); it != to_.rend(); ++it) (*it)->end(phase);
  }

 private:
  std::vector<PhaseListener*> to_;
};

}  // namespace numagraph::profile
