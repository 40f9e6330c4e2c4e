// Connected-components parameters and result, shared by every CC variant.
#pragma once

#include <string>
#include <string_view>

#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// afforest: sampled linking, then the rest (Sutton et al.; flat and engine);
// sv: Shiloach-Vishkin hooking and shortcutting (flat only); lp: min-label
// propagation over the node parts (Polymer's choice; engine only).
enum class CcVariant { kAfforest, kShiloachVishkin, kLabelPropagation };

inline CcVariant parse_cc_variant(std::string_view name) {
  if (name == "afforest") return CcVariant::kAfforest;
  if (name == "sv") return CcVariant::kShiloachVishkin;
  if (name == "lp") return CcVariant::kLabelPropagation;
  throw UsageError("the CC variant must be 'afforest', 'sv' or 'lp' (got '" + std::string(name) + "')");
}

inline const char* to_string(CcVariant v) {
  return v == CcVariant::kAfforest ? "afforest" : v == CcVariant::kShiloachVishkin ? "sv" : "lp";
}

struct CcOptions {
  CcVariant variant = CcVariant::kAfforest;
};

// Weak components for directed graphs. labels[v] is the id of a member of
// v's component, in the graph's id type: the smallest id on the engine
// variants and on any run in another order (unpermute); any member (the same
// for the whole component) on the flat ones.
template <typename V>
struct CcResult {
  NumaArray<V> labels;
  int rounds = 0;  // engine variants: rounds of linking or propagation
  CcVariant variant = CcVariant::kAfforest;
  CallInfo ran;
};

// Brings the labels of a run on a renumbered graph back to the caller's ids
// (EngineCall::ids()): the same partition, each component labelled by its
// smallest caller id (the kernel's label is a kernel id, whose caller id
// would be some member, not the smallest).
template <typename V>
void unpermute(CcResult<V>& r, const reorder::Permutation<V>& ids) {
  component_labels_to_caller(r.labels, ids);
}

}  // namespace numagraph::kernels
