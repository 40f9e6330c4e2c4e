// The graphs the multilevel community search works on, the weight map each
// thread sums neighbour weights in, and the aggregation that turns a
// partition into the next level's graph.
//
// Every level is a weighted undirected CSR in the input graph's convention:
// each edge stored both ways, a self-loop once. A vertex of an aggregated
// graph is a community of the level below; its self-loop weighs the
// community's internal edges (each once), so modularity is the same on every
// level. Weights are summed in a fixed order (members in vertex order, arcs in
// CSR order), so the aggregate is the same whatever the thread count.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <omp.h>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::kernels::community {

// Sweeps over fewer arcs than this run on one thread (a fork costs more than
// the sweep; the answer is the same). NUMAGRAPH_SERIAL_BELOW=<arcs>
// (kernels/thread_budget.hpp) overrides it, 0 forking for every sweep, as
// the tests do.
inline eid_t parallel_arcs() {
  static const eid_t arcs = std::getenv("NUMAGRAPH_SERIAL_BELOW") ? serial_below_arcs("communities") : eid_t{1} << 14;
  return arcs;
}

// The input graph, read in place: unit weights when unweighted.
template <typename V>
struct InputAdjacency {
  const eid_t* offsets;
  const V* targets;
  const weight_t* weights;  // null: every arc weighs 1
  std::int64_t n;

  explicit InputAdjacency(const CSRGraph<V>& g)
      : offsets(g.out().offsets.data()),
        targets(g.out().neighbors.data()),
        weights(g.weighted() ? g.out().weights.data() : nullptr),
        n(g.num_vertices()) {}
  std::int64_t num_vertices() const { return n; }
  eid_t begin(std::int64_t v) const { return offsets[v]; }
  eid_t end(std::int64_t v) const { return offsets[v + 1]; }
  V target(eid_t e) const { return targets[e]; }
  double weight(eid_t e) const { return weights ? static_cast<double>(weights[e]) : 1.0; }
};

// An aggregated level, owned, with double weights (sums of many arcs).
template <typename V>
struct LevelGraph {
  std::vector<eid_t> offsets;
  std::vector<V> targets;
  std::vector<double> weights;

  std::int64_t num_vertices() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
  eid_t begin(std::int64_t v) const { return offsets[v]; }
  eid_t end(std::int64_t v) const { return offsets[v + 1]; }
  V target(eid_t e) const { return targets[e]; }
  double weight(eid_t e) const { return weights[e]; }
};

// Weighted degree k(v): the arcs' weights, a self-loop counted twice
// (NetworkX's degree). Per vertex in CSR order.
template <typename Adj>
std::vector<double> weighted_degrees(const Adj& a) {
  const std::int64_t n = a.num_vertices();
  std::vector<double> k(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(dynamic, 1024) if (a.end(n - 1) >= parallel_arcs())
  for (std::int64_t v = 0; v < n; ++v) {
    double s = 0;
    for (eid_t e = a.begin(v); e < a.end(v); ++e) s += static_cast<std::int64_t>(a.target(e)) == v ? 2 * a.weight(e) : a.weight(e);
    k[v] = s;
  }
  return k;
}

// Sums of weights per community id, for one vertex (or one community) at a
// time: open addressing sized to the arcs about to be added, iterated in
// insertion order (so ties break the same way on every run).
class alignas(parallel::kCacheLine) WeightMap {  // one per thread, side by side: no shared line
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  void prepare(eid_t arcs) {
    std::size_t cap = 16;
    while (cap < 2 * static_cast<std::size_t>(arcs) + 2) cap *= 2;
    if (keys_.size() < cap) {
      keys_.assign(cap, kEmpty);
      values_.resize(cap);
    }
    mask_ = cap - 1;
    shift_ = 64 - std::countr_zero(cap);
  }
  void add(std::uint64_t key, double w) {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
    while (keys_[h] != kEmpty && keys_[h] != key) h = (h + 1) & mask_;
    if (keys_[h] == kEmpty) {
      keys_[h] = key;
      values_[h] = 0;
      used_.push_back(h);
    }
    values_[h] += w;
  }
  double get(std::uint64_t key) const {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
    while (keys_[h] != kEmpty) {
      if (keys_[h] == key) return values_[h];
      h = (h + 1) & mask_;
    }
    return 0;
  }
  std::size_t size() const { return used_.size(); }
  std::uint64_t key(std::size_t i) const { return keys_[used_[i]]; }
  double value(std::size_t i) const { return values_[used_[i]]; }
  void clear() {
    for (const std::size_t h : used_) keys_[h] = kEmpty;
    used_.clear();
  }

 private:
  std::vector<std::uint64_t> keys_;
  std::vector<double> values_;
  std::vector<std::size_t> used_;
  std::size_t mask_ = 0;
  int shift_ = 60;
};

// Renumbers `part` (ids in [0, n)) densely in the order of first appearance,
// that is by each part's smallest vertex; returns the number of parts.
template <typename V>
std::int64_t renumber_dense(std::vector<V>& part) {
  const std::size_t n = part.size();
  constexpr V kUnset = static_cast<V>(~V{0});
  std::vector<V> id(n, kUnset);
  V next = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (id[part[v]] == kUnset) id[part[v]] = next++;
    part[v] = id[part[v]];
  }
  return next;
}

// The graph whose vertices are the parts of `part` (dense ids, `parts` of
// them): an arc between two parts weighs the sum of the arcs between their
// members; a part's self-loop weighs its internal edges, each once.
template <typename V, typename Adj>
LevelGraph<V> aggregate(const Adj& a, const std::vector<V>& part, std::int64_t parts) {
  const std::int64_t n = a.num_vertices();
  // Members grouped by part, in vertex order (a counting sort).
  std::vector<std::int64_t> first(static_cast<std::size_t>(parts) + 1, 0);
  for (std::int64_t v = 0; v < n; ++v) ++first[part[v] + 1];
  for (std::int64_t c = 0; c < parts; ++c) first[c + 1] += first[c];
  std::vector<V> members(static_cast<std::size_t>(n));
  {
    std::vector<std::int64_t> at(first.begin(), first.end() - 1);
    for (std::int64_t v = 0; v < n; ++v) members[at[part[v]]++] = static_cast<V>(v);
  }
  // Each thread writes the rows of the parts it takes into its own buffer,
  // then the rows are copied to their places.
  struct Row {
    std::int64_t part;
    std::size_t at;
  };
  struct Buffer {
    std::vector<Row> rows;
    std::vector<V> targets;
    std::vector<double> weights;
  };
  std::vector<Buffer> buffers(static_cast<std::size_t>(parallel::max_threads()));
  LevelGraph<V> out;
  out.offsets.assign(static_cast<std::size_t>(parts) + 1, 0);
#pragma omp parallel if (a.end(n - 1) >= parallel_arcs())
  {
    Buffer& buf = buffers[static_cast<std::size_t>(omp_get_thread_num())];
    WeightMap map;
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t c = 0; c < parts; ++c) {
      eid_t arcs = 0;
      for (std::int64_t i = first[c]; i < first[c + 1]; ++i) arcs += a.end(members[i]) - a.begin(members[i]);
      map.prepare(arcs);
      double loop = 0;
      bool internal = false;
      for (std::int64_t i = first[c]; i < first[c + 1]; ++i) {
        const std::int64_t v = members[i];
        for (eid_t e = a.begin(v); e < a.end(v); ++e) {
          const auto u = static_cast<std::int64_t>(a.target(e));
          const double w = a.weight(e);
          if (static_cast<std::int64_t>(part[u]) == c) {
            loop += u == v ? w : 0.5 * w;  // an internal edge is seen from both ends
            internal = true;
          } else {
            map.add(part[u], w);
          }
        }
      }
      buf.rows.push_back({c, buf.targets.size()});
      if (internal) {
        buf.targets.push_back(static_cast<V>(c));
        buf.weights.push_back(loop);
      }
      for (std::size_t j = 0; j < map.size(); ++j) {
        buf.targets.push_back(static_cast<V>(map.key(j)));
        buf.weights.push_back(map.value(j));
      }
      out.offsets[c + 1] = static_cast<eid_t>(map.size()) + (internal ? 1 : 0);
      map.clear();
    }
  }
  for (std::int64_t c = 0; c < parts; ++c) out.offsets[c + 1] += out.offsets[c];
  out.targets.resize(static_cast<std::size_t>(out.offsets[parts]));
  out.weights.resize(out.targets.size());
#pragma omp parallel for schedule(dynamic, 1) if (a.end(n - 1) >= parallel_arcs())
  for (std::size_t t = 0; t < buffers.size(); ++t) {
    const Buffer& buf = buffers[t];
    for (std::size_t r = 0; r < buf.rows.size(); ++r) {
      const Row row = buf.rows[r];
      const std::size_t end = r + 1 < buf.rows.size() ? buf.rows[r + 1].at : buf.targets.size();
      std::copy(buf.targets.begin() + row.at, buf.targets.begin() + end, out.targets.begin() + out.offsets[row.part]);
      std::copy(buf.weights.begin() + row.at, buf.weights.begin() + end, out.weights.begin() + out.offsets[row.part]);
    }
  }
  return out;
}

}  // namespace numagraph::kernels::community
