#include "listeners.hpp"

#include <algorithm>
#include <vector>

#include "numagraph/profile/current.hpp"
#include "numagraph/profile/fan_out.hpp"

namespace numagraph::py {
namespace {

// Never destroyed: an abandoned kernel may still report to them at exit.
std::vector<PhaseListener*>& listeners() {
  static auto* v = new std::vector<PhaseListener*>;
  return *v;
}
profile::FanOutListener& fan_out() {
  static auto* f = new profile::FanOutListener;
  return *f;
}

void install() {
  fan_out() = profile::FanOutListener(listeners());
  profile::set_default_listener(fan_out().get());
}

}  // namespace

void add_default_listener(PhaseListener* l) {
  auto& v = listeners();
  if (std::find(v.begin(), v.end(), l) == v.end()) v.push_back(l);
  install();
}

void remove_default_listener(PhaseListener* l) {
  auto& v = listeners();
  v.erase(std::remove(v.begin(), v.end(), l), v.end());
  install();
}

}  // namespace numagraph::py
