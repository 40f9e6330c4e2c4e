// Builder, when ids are sparse: the distinct vertex ids of an edge
// list, and relabelling them to their ranks 0..k-1. Private to builder.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "numagraph/graph/types.hpp"

namespace numagraph::build {

// The ids that occur in an edge list, as one bit per id 0..max id. Counting
// them is a pass over the bits, and an id's rank (its relabelled id) is a
// word's running count plus one popcount: no sort and no search.
class IdBitmap {
 public:
  // Nullopt when the bitmap would take more than one 64-bit word per edge
  // (plus 1024): such ids are certainly sparse, and relabel_by_sorting serves.
  static std::optional<IdBitmap> of(const EdgeList& e, std::uint64_t max_id);

  std::uint64_t distinct() const { return distinct_; }
  // Rewrites every id of `e` to its rank among the distinct ids; returns the
  // distinct ids in order (the labels).
  NumaArray<std::uint64_t> relabel(EdgeList& e);

 private:
  std::vector<std::uint64_t> words_;
  std::uint64_t distinct_ = 0;
};

// The same by sorting a copy of all ids: for ids too sparse for a bitmap.
NumaArray<std::uint64_t> relabel_by_sorting(EdgeList& e);

}  // namespace numagraph::build
