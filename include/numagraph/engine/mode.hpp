// How an engine kernel runs: kNuma uses the per-node parts and replicas;
// kShared runs the same steps on the shared arrays, as a NUMA-oblivious
// kernel would access memory (the baseline the access accounting compares
// against). Not to be confused with the flat kernels (kernels/*/ files
// without the engine_ prefix), which do not use the engine at all.
#pragma once

namespace numagraph::engine {

enum class EngineMode { kNuma, kShared };

inline const char* to_string(EngineMode m) { return m == EngineMode::kNuma ? "numa" : "shared"; }

}  // namespace numagraph::engine
