// CSRGraph<V>: compressed sparse row graph with vertex ids of type V (uint32_t
// or uint64_t), 64-bit offsets, optional weights and optional in-edges.
//
// Undirected graphs store every edge in both directions (a self-loop once), so
// out-neighbours are all neighbours and in_* returns the out arrays. Directed
// graphs keep a separate in-edge CSR when built with in-edges (pull-style and
// bottom-up kernels need it). Neighbour lists are sorted by id.
// Built once by the Builder (or loaded from .ngr), read-only afterwards.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "numagraph/graph/types.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/reorder/permutation.hpp"

namespace numagraph {

// The arrays of one direction: offsets has n+1 entries.
template <typename V>
struct CSRArrays {
  NumaArray<eid_t> offsets;
  NumaArray<V> neighbors;
  NumaArray<weight_t> weights;  // empty when unweighted
};

template <typename V>
class CSRGraph {
  static_assert(std::is_same_v<V, std::uint32_t> || std::is_same_v<V, std::uint64_t>,
                "vertex ids are uint32_t or uint64_t");

 public:
  using vertex_type = V;

  CSRGraph() = default;
  // `in` is ignored (may be empty) for undirected graphs. `labels`, when not
  // empty, maps each dense id to the user's original id.
  CSRGraph(std::int64_t num_vertices, bool directed, WeightKind weight_kind, CSRArrays<V> out,
           CSRArrays<V> in, NumaArray<std::uint64_t> labels, std::int64_t self_loops)
      : num_vertices_(num_vertices),
        directed_(directed),
        weight_kind_(weight_kind),
        out_(std::move(out)),
        in_(std::move(in)),
        labels_(std::move(labels)),
        self_loops_(self_loops) {}

  CSRGraph(CSRGraph&&) noexcept = default;
  CSRGraph& operator=(CSRGraph&&) noexcept = default;

  std::int64_t num_vertices() const { return num_vertices_; }
  // Stored arcs of the out-CSR (undirected: both directions, loops once).
  eid_t num_arcs() const { return num_vertices_ == 0 ? 0 : out_.offsets[num_vertices_]; }
  // Directed: arcs. Undirected: each edge once (a self-loop counts once).
  eid_t num_edges() const { return directed_ ? num_arcs() : (num_arcs() + self_loops_) / 2; }
  std::int64_t num_self_loops() const { return self_loops_; }
  bool directed() const { return directed_; }
  bool weighted() const { return weight_kind_ != WeightKind::kNone; }
  WeightKind weight_kind() const { return weight_kind_; }
  bool has_in_edges() const { return !directed_ || !in_.offsets.empty(); }
  bool relabelled() const { return !labels_.empty(); }

  eid_t out_degree(V v) const { return out_.offsets[v + 1] - out_.offsets[v]; }
  eid_t in_degree(V v) const { return in_arrays().offsets[v + 1] - in_arrays().offsets[v]; }

  std::span<const V> out_neighbors(V v) const {
    return {out_.neighbors.data() + out_.offsets[v], static_cast<std::size_t>(out_degree(v))};
  }
  std::span<const weight_t> out_weights(V v) const {
    return {out_.weights.data() + out_.offsets[v], static_cast<std::size_t>(out_degree(v))};
  }
  std::span<const V> in_neighbors(V v) const {
    const auto& a = in_arrays();
    return {a.neighbors.data() + a.offsets[v], static_cast<std::size_t>(in_degree(v))};
  }
  std::span<const weight_t> in_weights(V v) const {
    const auto& a = in_arrays();
    return {a.weights.data() + a.offsets[v], static_cast<std::size_t>(in_degree(v))};
  }

  const CSRArrays<V>& out() const { return out_; }
  // In-edge arrays (the out arrays for undirected graphs).
  const CSRArrays<V>& in_arrays() const { return directed_ ? in_ : out_; }
  // Original id of dense vertex v (v itself when not relabelled).
  std::uint64_t label(V v) const { return labels_.empty() ? v : labels_[v]; }
  const NumaArray<std::uint64_t>& labels() const { return labels_; }

  // Vertex names (graphs read with string ids, CSV/TSV): the name of the
  // vertex whose user id (io::user_id) is k is (*names())[k]; null otherwise.
  const VertexNames& names() const { return names_; }
  bool named() const { return names_ != nullptr; }
  void set_names(VertexNames names) { names_ = std::move(names); }

  // A renumbered graph (reorder/) remembers how: vertex v here is vertex
  // permutation().to_old(v) of the graph the caller's ids refer to. The
  // identity for graphs that were not renumbered. labels() stay indexed by
  // this graph's ids.
  const reorder::Permutation<V>& permutation() const { return permutation_; }
  bool reordered() const { return !permutation_.identity(); }
  void set_permutation(reorder::Permutation<V> p) { permutation_ = std::move(p); }

  // Bytes held by all arrays (what `numagraph info` reports).
  std::size_t bytes() const {
    auto arr = [](const CSRArrays<V>& a) {
      return a.offsets.bytes() + a.neighbors.bytes() + a.weights.bytes();
    };
    return arr(out_) + (directed_ ? arr(in_) : 0) + labels_.bytes() + permutation_.old_of_new.bytes() +
           permutation_.new_of_old.bytes();
  }

 private:
  std::int64_t num_vertices_ = 0;
  bool directed_ = false;
  WeightKind weight_kind_ = WeightKind::kNone;
  CSRArrays<V> out_;
  CSRArrays<V> in_;
  NumaArray<std::uint64_t> labels_;
  std::int64_t self_loops_ = 0;
  reorder::Permutation<V> permutation_;
  VertexNames names_;
};

using Graph32 = CSRGraph<std::uint32_t>;
using Graph64 = CSRGraph<std::uint64_t>;

}  // namespace numagraph
