// The one place where an entry point decides between the flat kernel and the
// NUMA engine and gets what the engine needs: the graph the kernel runs on
// (the caller's, or its copy renumbered in Execution::reorder's order, from
// the cache or built and timed), the machine picture, the partitioned graph
// (from the cache, or built and timed), workspaces, the accounting policy and
// the phase listener (the Execution's, else profile::default_listener(); it
// is also the current listener, profile/current.hpp, while the kernel runs,
// so kernels mark inner phases). Each problem's entry point
// (kernels/<problem>/<problem>.hpp) makes one EngineCall, runs its kernel on
// graph(), maps the ids that go in with ids().to_new and brings the result
// back in the caller's ids with the result's unpermute(r, ids()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/engine/mode.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/timer.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/reorder/permutation.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// Calls listener->begin(phase) now and end(phase) on leaving the scope.
class PhaseScope {
 public:
  PhaseScope(PhaseListener* listener, std::string_view phase) : listener_(listener), phase_(phase) {
    if (listener_) listener_->begin(phase_);
  }
  ~PhaseScope() {
    if (listener_) listener_->end(phase_);
  }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  PhaseListener* listener_;
  std::string_view phase_;
};

template <typename V>
class EngineCall {
 public:
  // `problem` names the call's phase; `parts` are the partitions the
  // problem's engine variant reads.
  EngineCall(const CSRGraph<V>& g, const Execution& x, std::string_view problem, engine::PartitionOptions parts)
      : g_(&g), x_(x), problem_(problem), parts_(parts), machine_(MachineView::current()),
        numa_(x.numa_engine(machine_)), listener_(x.listener ? x.listener : profile::default_listener()) {
    if (!x_.cache) own_.emplace();
    if (!x_.reorder.none()) {
      PhaseScope phase(listener_, "reorder");
      g_ = &cache().reordered(g, x_.reorder, [&] { return renumber(g); });
    }
  }

  // The graph the kernel runs on: the caller's, or its renumbered copy.
  const CSRGraph<V>& graph() const { return *g_; }
  // Kernel vertex k is the caller's vertex ids().to_old(k): graph()'s own
  // permutation, which is not the identity either when the caller's graph
  // was itself renumbered (a reordered .ngr): the caller's ids are then
  // those of the graph it was made from.
  const reorder::Permutation<V>& ids() const { return g_->permutation(); }

  // True when the engine variant runs: the NUMA engine is chosen, or the
  // accounting asks for the engine's instrumented kernel.
  bool engine() const { return numa_ || x_.account != nullptr; }
  bool numa() const { return numa_; }
  const MachineView& machine() const { return machine_; }
  const Execution& execution() const { return x_; }

  template <typename T>
  T& workspace() {
    return cache().template workspace<T>(*g_);
  }

  // The partitioned graph, built on first use (the build is the call's setup).
  const engine::PartitionedGraph<V>& partitioned() {
    PhaseScope phase(listener_, "setup");
    return cache().partitioned(*g_, parts_, machine_, info_.setup_s);
  }

  // Runs f() as part of the call's setup: work done once per graph and
  // cache (a check of the input), timed apart from the kernel.
  template <typename F>
  void setup(F&& f) {
    PhaseScope phase(listener_, "setup");
    profile::Timer timer;
    f();
    info_.setup_s += timer.seconds();
  }

  // Runs f(pg, mode, acc) for the engine variant: NUMA mode without
  // accounting, or instrumented (NUMA or shared mode) with the totals added
  // to the execution's counts.
  template <typename F>
  decltype(auto) run_engine(F&& f) {
    const auto& pg = partitioned();
    PhaseScope phase(listener_, problem_);
    profile::ListenerScope inner(listener_);
    info_.numa = numa_;
    const engine::EngineMode mode = numa_ ? engine::EngineMode::kNuma : engine::EngineMode::kShared;
    if (x_.account) {
      engine::Accounting acc(pg.layout());
      struct AddCounts {  // also when f throws: the counts so far are still the run's
        engine::Accounting& acc;
        engine::AccessCounts* out;
        ~AddCounts() { *out += acc.total(); }
      } add{acc, x_.account};
      return f(pg, mode, acc);
    }
    engine::NoAccounting none;
    return f(pg, mode, none);
  }

  // Runs the flat kernel f(), on one thread when the graph is below the
  // problem's serial cut-off (thread_budget.hpp); info().threads says how many.
  // `sweeps`: how many times the call walks the graph where the cut-off was
  // measured with one (BC's sources), so more work earns the threads back.
  template <typename F>
  decltype(auto) run_flat(F&& f, std::int64_t sweeps = 1) {
    PhaseScope phase(listener_, problem_);
    profile::ListenerScope inner(listener_);
    info_.numa = false;
    const eid_t work = g_->num_arcs() * static_cast<eid_t>(std::max<std::int64_t>(sweeps, 1));
    ThreadLimit limit(call_threads(problem_, work, omp_get_max_threads()));
    info_.threads = omp_get_max_threads();
    return f();
  }

  // Whether the flat kernel should start on one thread and call the team
  // itself (a start-alone problem below its cut-off, thread_budget.hpp).
  bool starts_alone() const { return call_starts_alone(problem_, g_->num_arcs(), omp_get_max_threads()); }

  CallInfo info() const { return info_; }

 private:
  KernelCache& cache() { return x_.cache ? *x_.cache : *own_; }

  // g in x_.reorder's order, timed: reorder_s counts computing the order and
  // building the copy, reorder_bfs_equiv that time in flat BFS runs on g
  // (compute_order measures one; reorder/compute.hpp).
  CSRGraph<V> renumber(const CSRGraph<V>& g) {
    reorder::OrderStats stats;
    const auto p = reorder::compute_order(g, x_.reorder, &stats);
    profile::Timer timer;
    CSRGraph<V> r = reorder::apply_permutation(g, p);
    info_.reorder_s = stats.seconds + timer.seconds();
    info_.reorder_bfs_equiv = stats.seconds > 0 ? info_.reorder_s * stats.bfs_equivalents / stats.seconds : 0;
    return r;
  }

  const CSRGraph<V>* g_;
  const Execution& x_;
  std::string_view problem_;
  engine::PartitionOptions parts_;
  MachineView machine_;
  bool numa_;
  PhaseListener* listener_;
  std::optional<KernelCache> own_;
  CallInfo info_;
};

// For problems (or variants) that have no engine version: refuses an
// explicit --engine numa and accounting, so neither is accepted and ignored.
inline void require_flat(const Execution& x, const std::string& what) {
  if (x.engine == EngineChoice::kNuma)
    throw UsageError(what + " has no NUMA-engine version: use --engine flat or auto");
  if (x.account)
    throw UsageError(what + " has no NUMA-engine version to instrument: drop --account");
}

}  // namespace numagraph::kernels
