// How an engine kernel runs: kNuma uses the per-node parts and replicas;
// kFlat runs the same steps on shared arrays, as a NUMA-oblivious kernel
// would (the baseline the access accounting compares against).
#pragma once

namespace numagraph::engine {

enum class EngineMode { kNuma, kFlat };

inline const char* to_string(EngineMode m) { return m == EngineMode::kNuma ? "numa" : "flat"; }

}  // namespace numagraph::engine
