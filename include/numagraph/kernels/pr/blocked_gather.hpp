// The sweep over cache-blocked lists (graph/segmented_lists.hpp) shared by
// the flat pull kernels (Jacobi PageRank, SpMV): a vertex's sum is gathered
// range by range, every range before the last adding into `partial[v]`, and
// the last one completing it. Summing range by range changes only the order
// of the additions (results differ from the unblocked sweep in the last bits
// and do not depend on the number of threads).
#pragma once

#include <cstdint>

#include "numagraph/graph/segmented_lists.hpp"
#include "numagraph/kernels/pr/gather_sum.hpp"

namespace numagraph::kernels {

// Piece s of vertex v's sum: values[u] (* weight) over the piece.
template <typename V, typename T>
[[gnu::always_inline]] inline double piece_sum(const SegmentedLists<V>& lists, bool weighted, int s, std::int64_t v,
                                               const T* values) {
  const auto nb = lists.piece(s, v);
  return weighted ? gather_weighted_sum(nb, lists.piece_weights(s, v), values) : gather_sum(nb, values);
}

// Every range but the last, for every vertex, into `partial`. Call it from
// inside a parallel region, by every thread: the barrier after each range
// keeps all threads on the same range, so the cache holds one range of
// `values` for all of them.
template <typename V, typename T>
void gather_leading_pieces(const SegmentedLists<V>& lists, bool weighted, const T* values, double* partial) {
  const std::int64_t n = lists.num_lists();
  for (int s = 0; s + 1 < lists.num_segments(); ++s) {
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < n; ++v) {
      const double sum = piece_sum(lists, weighted, s, v, values);
      partial[v] = s == 0 ? sum : partial[v] + sum;
    }
  }
}

// v's whole sum: the leading ranges' partial (after gather_leading_pieces)
// plus the last range's piece.
template <typename V, typename T>
[[gnu::always_inline]] inline double gather_last_piece(const SegmentedLists<V>& lists, bool weighted, std::int64_t v,
                                                       const T* values, const double* partial) {
  const int last = lists.num_segments() - 1;
  return (last == 0 ? 0.0 : partial[v]) + piece_sum(lists, weighted, last, v, values);
}

}  // namespace numagraph::kernels
