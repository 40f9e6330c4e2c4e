// The engine flags every kernel command takes (`--engine`, `--account`), the
// Execution they make, and the engine fields of the record.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "numagraph/engine/accounting.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/profile/record.hpp"

namespace numagraph::cli {

struct EngineFlags {
  std::string engine = "auto";  // numa | flat | auto (numa when the topology has > 1 node)
  bool account = false;
};

void add_engine_options(CLI::App& app, EngineFlags& flags);

// The execution of a command's timed calls, keeping state in `cache`.
Execution make_execution(const EngineFlags& flags, KernelCache& cache);

// With --account, makes one more call, instrumented: call(execution) with
// the counts attached. Returns the counts (zeros without --account).
template <typename Call>
engine::AccessCounts account_if_asked(const EngineFlags& flags, KernelCache& cache, Call&& call) {
  engine::AccessCounts counts;
  if (!flags.account) return counts;
  Execution x = make_execution(flags, cache);
  x.account = &counts;
  call(x);
  return counts;
}

// Adds "engine" (the one that ran) and, with --account, the "account" object
// to the record, and prints the accounting table on stderr for people
// (stdout stays the record).
void report_engine(profile::Record& rec, const EngineFlags& flags, const CallInfo& ran,
                   const engine::AccessCounts& counts, bool json);

}  // namespace numagraph::cli
