#include "numagraph/profile/current.hpp"

#include <atomic>

namespace numagraph::profile {

namespace {
std::atomic<PhaseListener*> g_default{nullptr};
thread_local PhaseListener* t_current = nullptr;
}  // namespace

void set_default_listener(PhaseListener* listener) { g_default.store(listener, std::memory_order_release); }
PhaseListener* default_listener() { return g_default.load(std::memory_order_acquire); }

PhaseListener* current_listener() { return t_current; }

ListenerScope::ListenerScope(PhaseListener* listener) : previous_(t_current) { t_current = listener; }
ListenerScope::~ListenerScope() { t_current = previous_; }

}  // namespace numagraph::profile
