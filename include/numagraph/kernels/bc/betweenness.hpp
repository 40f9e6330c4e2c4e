// numagraph::betweenness — the betweenness-centrality entry point: Brandes
// over the given sources on a flat kernel (brandes.hpp,
// brandes_direction_optimizing.hpp, brandes_batched.hpp,
// brandes_work_queues.hpp; BcOptions::variant) or the NUMA engine's work
// queues (engine_work_queues.hpp), as the Execution chooses.
#pragma once

#include <algorithm>
#include <vector>

#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/brandes_batched.hpp"
#include "numagraph/kernels/bc/brandes_source_parallel.hpp"
#include "numagraph/kernels/bc/brandes_direction_optimizing.hpp"
#include "numagraph/kernels/bc/brandes_work_queues.hpp"
#include "numagraph/kernels/bc/engine_work_queues.hpp"
#include "numagraph/kernels/bc/options.hpp"
#include "numagraph/kernels/engine_call.hpp"
#include "numagraph/numa/machine_resources.hpp"

namespace numagraph {

using kernels::BcOptions;
using kernels::BcResult;
using kernels::BcVariant;

namespace kernels {

// BcVariant::kAuto's choice (options.hpp) for a call on `threads` threads
// that may spend `scratch_budget` bytes on a variant's scratch.
template <typename V>
BcVariant flat_bc_variant(const CSRGraph<V>& g, std::size_t sources, BcVariant asked, int threads,
                          std::uint64_t scratch_budget = bc_scratch_memory_budget()) {
  if (asked != BcVariant::kAuto) return asked;
  const double degree = static_cast<double>(g.num_arcs()) / static_cast<double>(std::max<std::int64_t>(1, g.num_vertices()));
  if (degree >= 8) {
    // Sharing the sweeps pays from 8 sources on (4 searches in turn are
    // faster on kron20 and urand22: docs/kernels/bc.md), while the lanes fit
    // the scratch budget.
    const int lanes = batched_lanes(static_cast<int>(std::min<std::size_t>(sources, BrandesBatchedOptions{}.batch)));
    if (sources >= 8 && batched_workspace_bytes<V>(g.num_vertices(), lanes) <= scratch_budget)
      return BcVariant::kBatched;
    return BcVariant::kDirectionOptimizing;
  }
  const std::uint64_t scratch = source_parallel_bytes_per_thread<V>(g.num_vertices(), g.num_arcs()) * static_cast<std::uint64_t>(threads);
  if (sources >= 2 && sources >= static_cast<std::size_t>(threads) && scratch <= scratch_budget)
    return BcVariant::kSourceParallel;
  // Sources one after the other on a sparse graph (roads, meshes): no level
  // is big enough to pull, and the push-only search, whose vertices sum
  // their own path counts, is the faster (docs/kernels/bc.md).
  return BcVariant::kBrandes;
}

// How a call's progress is counted: the kernel `betweenness` will run and how
// many sources each of its "backward" phases stands for (one per source; a
// batch of 16, brandes_batched.hpp; a round of one source per thread,
// brandes_source_parallel.hpp). Work queues and the engine count one per source.
struct BcProgressPlan {
  BcVariant variant;
  std::size_t sources_per_phase;
};

template <typename V>
BcProgressPlan bc_progress_plan(const CSRGraph<V>& g, std::size_t sources, const BcOptions& o, const Execution& x) {
  const int threads = parallel::max_threads();
  if (x.numa_engine(MachineView::current()) || o.variant == BcVariant::kWorkQueues)
    return {BcVariant::kWorkQueues, 1};
  const BcVariant v = flat_bc_variant(g, sources, o.variant, threads);
  const std::size_t per = v == BcVariant::kBatched ? static_cast<std::size_t>(BrandesBatchedOptions{}.batch)
                          : v == BcVariant::kSourceParallel
                              ? std::max<std::size_t>(1, std::min<std::size_t>(threads, sources))
                              : 1;
  return {v, per};
}

}  // namespace kernels

// Raw Brandes sums over `sources` (caller's ids) into `r`, in the caller's
// ids, reusing its scores array when the size fits. Runs on the graph in
// Execution::reorder's order.
template <typename V>
void betweenness(const CSRGraph<V>& g, const std::vector<V>& sources, const BcOptions& o, const Execution& x,
                 BcResult& r) {
  if (sources.empty()) throw UsageError("betweenness needs at least one source");
  for (V s : sources)
    if (static_cast<std::int64_t>(s) >= g.num_vertices())
      throw UsageError("betweenness source " + std::to_string(s) + " is not a vertex");
  if (o.task_size < 1) throw UsageError("the work-queue task size must be at least 1");
  const bool work_queues = o.variant == BcVariant::kWorkQueues;
  if (!work_queues && o.schedule != kernels::BcSchedule::kNwq)
    throw UsageError("the schedule applies to the work-queues variant: add --variant work-queues or drop --schedule");
  if (!work_queues && o.measure_working_set)
    throw UsageError("the working set is measured by the work-queues variant: add --variant work-queues or drop "
                     "--working-set");
  kernels::EngineCall<V> call(g, x, "betweenness", {.push = true, .out = false});
  const auto& kg = call.graph();
  std::vector<V> ksources(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) ksources[i] = call.ids().to_new(sources[i]);
  r.working_set.clear();
  if (call.engine()) {
    if (o.variant != BcVariant::kAuto && !work_queues)
      throw UsageError(std::string("the BC variant '") + kernels::to_string(o.variant) +
                       "' is a flat kernel; the NUMA engine has its work-queue Brandes: drop --variant (or give "
                       "work-queues) or use --engine flat");
    if (o.schedule != kernels::BcSchedule::kNwq)
      throw UsageError("the NUMA engine's work queues have no dynamic schedule: use --engine flat with --schedule "
                       "dynamic");
    if (o.measure_working_set)
      throw UsageError("the working set is measured by the flat work-queues kernel: add --engine flat");
    // Steal across nodes only when every thread has a CPU of its own:
    // time-sliced threads would steal other nodes' work by accident of
    // scheduling (MachineView::threads_fit).
    const kernels::StealPolicy steal{call.machine().distance, call.machine().threads_fit()};
    r = call.run_engine([&](const auto& pg, engine::EngineMode mode, auto& acc) {
      return kernels::betweenness_numa(pg, ksources, o, steal, mode, acc);
    });
  } else {
    if (o.task_size != BcOptions{}.task_size && !work_queues)
      throw UsageError("the task size applies to the work queues: add --variant work-queues or --engine numa, or "
                       "drop --task-size");
    r.stolen_tasks = 0;
    r.steal_across_nodes = false;
    call.run_flat([&] {
      r.variant = kernels::flat_bc_variant(g, sources.size(), o.variant, parallel::max_threads());
      if (work_queues) {
        // Dry threads steal across nodes only when every thread has a CPU of
        // its own, as on the engine.
        const kernels::BrandesWqOptions wq{o.schedule, o.task_size, o.measure_working_set, call.machine().thread_node,
                                           {call.machine().distance, call.machine().threads_fit()}};
        auto stats = kernels::betweenness_brandes_work_queues(
            kg, ksources, r.scores, call.template workspace<kernels::BrandesWorkspace<V>>(), wq);
        r.stolen_tasks = stats.stolen_tasks;
        r.steal_across_nodes = wq.steal.across_nodes;
        r.working_set = std::move(stats.working_set);
      } else if (r.variant == BcVariant::kBatched)
        kernels::betweenness_brandes_batched(kg, ksources, r.scores,
                                             call.template workspace<kernels::BrandesBatchedWorkspace<V>>());
      else if (r.variant == BcVariant::kSourceParallel)
        kernels::betweenness_brandes_source_parallel(kg, ksources, r.scores);
      else if (r.variant == BcVariant::kDirectionOptimizing)
        kernels::betweenness_brandes_do(kg, ksources, r.scores,
                                        call.template workspace<kernels::BrandesDoWorkspace<V>>());
      else
        kernels::betweenness_brandes(kg, ksources, r.scores, call.template workspace<kernels::BrandesWorkspace<V>>());
    }, static_cast<std::int64_t>(ksources.size()));
  }
  kernels::unpermute(r, call.ids());
  r.ran = call.info();
}

template <typename V>
BcResult betweenness(const CSRGraph<V>& g, const std::vector<V>& sources, const BcOptions& o = {},
                     const Execution& x = {}) {
  BcResult r;
  betweenness(g, sources, o, x, r);
  return r;
}

}  // namespace numagraph
