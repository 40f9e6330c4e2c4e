// The engine flags every kernel command takes (`--engine`, `--account`,
// `--reorder`, `--reorder-root`), the Execution they make, and the engine and
// reorder fields of the record.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/profile/record.hpp"
#include "numagraph/reorder/order.hpp"

namespace numagraph::cli {

struct EngineFlags {
  std::string engine = "auto";  // numa | flat | auto (numa when the topology has > 1 node)
  bool account = false;
  std::string reorder = "none";     // --reorder: the vertex order the kernel runs in
  std::string reorder_root{};       // --reorder-root: the user's id or name; empty: highest degree
};

void add_engine_options(CLI::App& app, EngineFlags& flags);
// --reorder and --reorder-root alone (add_engine_options adds them too), for
// commands with no engine choice.
void add_reorder_options(CLI::App& app, EngineFlags& flags);

// The execution of a command's timed calls, keeping state in `cache`
// (--reorder-root must not be given: it needs the graph, see below).
Execution make_execution(const EngineFlags& flags, KernelCache& cache);

// As above, with --reorder-root (the user's id, as --source) turned into the
// id of the graph `g` the kernel is given; `caller` is g in the ids the user
// knows (caller_graph in common.hpp: g itself unless g was loaded renumbered).
template <typename G>
Execution make_execution(const EngineFlags& flags, KernelCache& cache, const G& g, const G& caller) {
  EngineFlags rest = flags;
  rest.reorder_root.clear();
  Execution x = make_execution(rest, cache);
  if (!flags.reorder_root.empty()) {
    if (x.reorder.none()) throw UsageError("--reorder-root needs --reorder rcm, adl or adl-serial");
    const auto id = kernels::dense_id_of(caller, flags.reorder_root, "--reorder-root");
    x.reorder.root = static_cast<std::int64_t>(g.permutation().to_new(id));
  }
  return x;
}

// With --account, makes one more call, instrumented: call(execution) with
// the counts attached, in the execution `base` of the timed calls. Returns
// the counts (zeros without --account).
template <typename Call>
engine::AccessCounts account_if_asked(const EngineFlags& flags, const Execution& base, Call&& call) {
  engine::AccessCounts counts;
  if (!flags.account) return counts;
  Execution x = base;
  x.account = &counts;
  call(x);
  return counts;
}
template <typename Call>
engine::AccessCounts account_if_asked(const EngineFlags& flags, KernelCache& cache, Call&& call) {
  return account_if_asked(flags, make_execution(flags, cache), std::forward<Call>(call));
}

// Adds "engine" (the one that ran), with --reorder the order and what it
// cost ("reorder", "reorder_s", "reorder_bfs_equiv": the first call's, which
// built the renumbered graph; time_trials notes it), and with --account the
// "account" object to the record, and prints the accounting table on stderr
// for people (stdout stays the record).
void report_engine(profile::Record& rec, const EngineFlags& flags, const CallInfo& ran,
                   const engine::AccessCounts& counts, bool json);
// The reorder fields alone, for commands without an engine choice.
void report_reorder(profile::Record& rec, const EngineFlags& flags);

}  // namespace numagraph::cli
