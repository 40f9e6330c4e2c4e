// Cache-blocked copy of one direction of a CSR, for pull kernels whose random
// reads overflow the last-level cache ("CSR segmenting", Zhang et al.,
// "Making caches work for graph analytics", 2017).
//
// The far endpoints are split into S contiguous ranges of `width` vertices
// (a power of two) and every vertex's list is cut into S pieces, one per
// range; segment s holds, for every vertex, the piece whose neighbours lie in
// range s. A pull kernel sweeps the segments one after another: during one
// sweep its random reads stay within `width` values, which fit in the cache,
// instead of ranging over the whole vertex array (one DRAM line per arc on a
// large random graph). The price is S passes over the offsets and a partial
// sum per vertex carried from one segment to the next.
//
// Layout: one neighbour array, segment-major; the piece of (s, v) is
// [offsets[s*n + v], offsets[s*n + v + 1]). Lists must be sorted (as every
// CSRGraph's are); pieces stay sorted. Weights travel with their arcs.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/numa/placement.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph {

template <typename V>
class SegmentedLists {
 public:
  // Cuts the lists of `g` (in-lists when `in_direction`, else out-lists) at
  // multiples of `width` (a power of two, at least 1).
  SegmentedLists(const CSRGraph<V>& g, bool in_direction, std::int64_t width)
      : SegmentedLists(g.num_vertices(), g.num_vertices(), width) {
    build(g.weighted(), numa::default_placement(), [&](std::int64_t v) {
      const auto x = static_cast<V>(v);
      const auto nb = in_direction ? g.in_neighbors(x) : g.out_neighbors(x);
      const weight_t* w = nullptr;
      if (g.weighted()) w = (in_direction ? g.in_weights(x) : g.out_weights(x)).data();
      return std::pair{nb, w};
    });
  }

  // Cuts `count` lists whose neighbours are ids in [0, universe): lists(i)
  // returns list i and its weights (nullptr when unweighted), and the copy
  // lives where `place` says (the NUMA engine: on the node that owns the
  // lists). Pieces are indexed by i.
  template <typename Lists>
  SegmentedLists(std::int64_t count, std::int64_t universe, std::int64_t width, bool weighted,
                 numa::Placement place, Lists lists)
      : SegmentedLists(count, universe, width) {
    build(weighted, std::move(place), lists);
  }

  int num_segments() const { return segments_; }
  std::int64_t num_lists() const { return n_; }

  // Piece s of list v (for a graph, v is the vertex).
  std::span<const V> piece(int s, std::int64_t v) const {
    const std::int64_t i = s * n_ + v;
    return {neighbors_.data() + offsets_[i], static_cast<std::size_t>(offsets_[i + 1] - offsets_[i])};
  }
  const weight_t* piece_weights(int s, std::int64_t v) const { return weights_.data() + offsets_[s * n_ + v]; }

 private:
  SegmentedLists(std::int64_t count, std::int64_t universe, std::int64_t width)
      : n_(count), shift_(std::countr_zero(static_cast<std::uint64_t>(width))) {
    if (width < 1 || !std::has_single_bit(static_cast<std::uint64_t>(width)))
      throw UsageError("segment width must be a power of two (got " + std::to_string(width) + ")");
    segments_ = static_cast<int>(std::max<std::int64_t>(1, (universe + width - 1) / width));
    if (segments_ > kMaxSegments)
      throw UsageError("cache blocks of " + std::to_string(width) + " vertices would cut " + std::to_string(universe) +
                       " vertices into more than " + std::to_string(kMaxSegments) + " segments: use larger blocks");
  }

  template <typename Lists>
  void build(bool weighted, numa::Placement place, Lists lists) {
    const std::int64_t cells = static_cast<std::int64_t>(segments_) * n_;
    offsets_ = NumaArray<eid_t>(static_cast<std::size_t>(cells + 1), place);
    // Count each piece, then one prefix sum over the segment-major counts
    // gives every piece's start. Lists are walked in runs of neighbours of one
    // segment (a sorted list has at most S), so the copy moves each run with
    // one std::copy.
    parallel::for_static(std::int64_t{0}, cells, [&](std::int64_t i) { offsets_[i] = 0; });
    parallel::for_dynamic(std::int64_t{0}, n_, [&](std::int64_t v) {
      const auto nb = lists(v).first;
      for (std::size_t j = 0; j < nb.size();) {
        const std::size_t end = run_end(nb, j);
        offsets_[segment_of(nb[j]) * n_ + v] += end - j;
        j = end;
      }
    }, std::int64_t{1024});
    parallel::exclusive_prefix_sum(offsets_.data(), offsets_.data(), cells);
    const eid_t arcs = offsets_[cells];
    neighbors_ = NumaArray<V>(static_cast<std::size_t>(arcs), place);
    if (weighted) weights_ = NumaArray<weight_t>(static_cast<std::size_t>(arcs), place);
    parallel::for_dynamic(std::int64_t{0}, n_, [&](std::int64_t v) {
      eid_t cursor[kMaxSegments];
      for (int s = 0; s < segments_; ++s) cursor[s] = offsets_[s * n_ + v];
      const auto [nb, w] = lists(v);
      for (std::size_t j = 0; j < nb.size();) {
        const std::size_t end = run_end(nb, j);
        eid_t& at = cursor[segment_of(nb[j])];
        std::copy(nb.begin() + static_cast<std::ptrdiff_t>(j), nb.begin() + static_cast<std::ptrdiff_t>(end),
                  neighbors_.data() + at);
        if (weighted) std::copy(w + j, w + end, weights_.data() + at);
        at += end - j;
        j = end;
      }
    }, std::int64_t{1024});
  }

  std::int64_t segment_of(V u) const { return static_cast<std::int64_t>(u) >> shift_; }
  // End of the run of neighbours in nb[j]'s segment that starts at j, found
  // by binary search: lists are sorted (CSRGraph's invariant, which every
  // builder and reader establishes).
  std::size_t run_end(std::span<const V> nb, std::size_t j) const {
    const std::int64_t s = segment_of(nb[j]);
    const auto it = std::partition_point(nb.begin() + static_cast<std::ptrdiff_t>(j) + 1, nb.end(),
                                         [&](V u) { return segment_of(u) == s; });
    return static_cast<std::size_t>(it - nb.begin());
  }

  std::int64_t n_ = 0;
  int shift_ = 0;
  int segments_ = 1;
  NumaArray<eid_t> offsets_;
  NumaArray<V> neighbors_;
  NumaArray<weight_t> weights_;
};

}  // namespace numagraph
