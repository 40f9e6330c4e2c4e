// Leiden's refinement (Traag, Waltman and van Eck 2019, greedy form): inside
// each community C of the local-moving partition, start from singletons and
// let each vertex that is still alone join the neighbouring sub-community S of
// C with the largest modularity gain (>= 0), provided v and S are well
// connected to the rest of C:
//   E(v, C-v) >= gamma k_v (K_C - k_v) / 2m   and   E(S, C-S) >= gamma K_S (K_C - K_S) / 2m.
// A vertex only ever joins a sub-community it has an edge to, so every
// sub-community is connected. The next level aggregates the sub-communities
// (and starts from C), which is why Leiden's communities stay connected.
//
// Parallel as the local moving (local_moving.hpp): batches of the seeded
// order decide against frozen sub-communities, then the moves are applied in
// order; a move is dropped when it would break the connectivity argument: v
// is no longer alone (someone joined it) or S was a singleton whose vertex
// left in this batch. One pass over the vertices; O(n + m).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "numagraph/kernels/community/level_graph.hpp"
#include "numagraph/kernels/community/local_moving.hpp"
#include "numagraph/kernels/community/options.hpp"

namespace numagraph::kernels::community {

// Sub-community of every vertex (ids in [0, n), each inside comm's community).
template <typename V, typename Adj>
std::vector<V> leiden_refine(const Adj& a, const std::vector<double>& k, double two_m, const CommunityOptions& o,
                             const std::vector<V>& order, const std::vector<V>& comm) {
  const std::int64_t n = a.num_vertices();
  std::vector<V> sub(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v) sub[v] = static_cast<V>(v);
  if (n == 0 || two_m <= 0) return sub;
  std::vector<double> comm_tot(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t v = 0; v < n; ++v) comm_tot[comm[v]] += k[v];
  std::vector<double> sub_tot(k);                                 // K_S
  std::vector<std::int64_t> sub_size(static_cast<std::size_t>(n), 1);
  std::vector<double> sub_out(static_cast<std::size_t>(n));      // E(S, C-S)
#pragma omp parallel for schedule(dynamic, 1024) if (a.end(n - 1) >= parallel_arcs())
  for (std::int64_t v = 0; v < n; ++v) {
    double s = 0;
    for (eid_t e = a.begin(v); e < a.end(v); ++e) {
      const auto u = static_cast<std::int64_t>(a.target(e));
      if (u != v && comm[u] == comm[v]) s += a.weight(e);
    }
    sub_out[v] = s;
  }
  const double gamma = o.resolution;
  const std::int64_t batch = batch_size(n);
  struct Move {
    V to;
    bool to_singleton;
    double to_weight;  // E(v, S) when decided
  };
  std::vector<Move> move(static_cast<std::size_t>(batch));
  std::vector<WeightMap> maps(static_cast<std::size_t>(parallel::max_threads()));
  {
    for (std::int64_t b0 = 0; b0 < n; b0 += batch) {
      const std::int64_t b1 = std::min(n, b0 + batch);
      eid_t arcs = 0;
      for (std::int64_t i = b0; i < b1; ++i) arcs += a.end(order[i]) - a.begin(order[i]);
#pragma omp parallel for schedule(dynamic, 16) if (arcs >= parallel_arcs())
      for (std::int64_t i = b0; i < b1; ++i) {
        WeightMap& map = maps[static_cast<std::size_t>(omp_get_thread_num())];
        const std::int64_t v = order[i];
        Move& mv = move[i - b0];
        mv.to = sub[v];
        if (sub_size[sub[v]] != 1) continue;
        const V c = comm[v];
        const double kv = k[v];
        if (sub_out[sub[v]] < gamma * kv * (comm_tot[c] - kv) / two_m) continue;  // v not well connected
        map.prepare(a.end(v) - a.begin(v));
        for (eid_t e = a.begin(v); e < a.end(v); ++e) {
          const auto u = static_cast<std::int64_t>(a.target(e));
          if (u != v && comm[u] == c) map.add(sub[u], a.weight(e));
        }
        double best_score = 0;
        for (std::size_t j = 0; j < map.size(); ++j) {
          const auto s = static_cast<V>(map.key(j));
          if (s == sub[v]) continue;
          if (sub_out[s] < gamma * sub_tot[s] * (comm_tot[c] - sub_tot[s]) / two_m) continue;
          const double score = map.value(j) - gamma * kv * sub_tot[s] / two_m;
          if (score >= best_score) {
            if (score == best_score && mv.to != sub[v] && s > mv.to) continue;
            best_score = score;
            mv = {s, sub_size[s] == 1, map.value(j)};
          }
        }
        map.clear();
      }
      for (std::int64_t i = b0; i < b1; ++i) {
        const std::int64_t v = order[i];
        const Move mv = move[i - b0];
        const V from = sub[v];
        if (mv.to == from || sub_size[from] != 1) continue;
        if (mv.to_singleton && sub[mv.to] != mv.to) continue;  // the vertex it was to join has left
        sub_out[mv.to] += sub_out[from] - 2 * mv.to_weight;
        sub_tot[mv.to] += k[v];
        sub_tot[from] = 0;
        ++sub_size[mv.to];
        sub_size[from] = 0;
        sub[v] = mv.to;
      }
    }
  }
  return sub;
}

}  // namespace numagraph::kernels::community
