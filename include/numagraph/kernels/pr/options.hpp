// PageRank parameters and result, shared by every PageRank variant.
//
// Model: damping d (0.85); scores start at 1/n; every iteration sets
//   x[v] = (1 - d)/n + d * sum over in-neighbours u of x[u] / outdeg(u)
// and stops after `max_iterations` or when the L1 change of an iteration is
// below `tolerance` (0 = never: run exactly max_iterations, Polymer-style).
// Dangling vertices (no out-edges): by default their mass is dropped, as in
// gapbs; with `networkx` it is spread uniformly, and the stopping rule is
// NetworkX's (L1 change < n * tolerance), so scores match networkx.pagerank
// on the same graph. Edge weights and a personalization make it NetworkX's
// weighted and personalized model (kernels/pr/model.hpp).
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/sweep/cache_blocking.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernels/caller_ids.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::kernels {

// jacobi: every sweep reads the last sweep's scores (the NetworkX and
// Polymer iteration; the NUMA engine's); gauss-seidel: a sweep reads the
// scores already updated in it (gapbs's default; which of the two gets
// closer per sweep depends on the graph, docs/kernels/pr.md). auto:
// gauss-seidel on the flat engine, jacobi with `networkx`, with weights or a
// personalization (Jacobi only, model.hpp) or on the NUMA engine.
enum class PageRankVariant { kAuto, kJacobi, kGaussSeidel };

inline PageRankVariant parse_pagerank_variant(std::string_view name) {
  if (name == "auto") return PageRankVariant::kAuto;
  if (name == "jacobi") return PageRankVariant::kJacobi;
  if (name == "gauss-seidel") return PageRankVariant::kGaussSeidel;
  throw UsageError("the PageRank variant must be 'auto', 'jacobi' or 'gauss-seidel' (got '" + std::string(name) + "')");
}

inline const char* to_string(PageRankVariant v) {
  return v == PageRankVariant::kAuto ? "auto" : v == PageRankVariant::kJacobi ? "jacobi" : "gauss-seidel";
}

struct PageRankOptions {
  PageRankVariant variant = PageRankVariant::kAuto;
  double damping = 0.85;
  int max_iterations = 20;
  double tolerance = 1e-4;
  bool networkx = false;
  // Cache blocking of the sweep (tiles in pull_jacobi.hpp, segments in
  // pull_gauss_seidel_segmented.hpp and the NUMA engine): kAutoBlock, 0
  // (off) or bytes of contributions per block.
  std::int64_t cache_block_bytes = kAutoBlock;
  // NetworkX's weighted and personalized model (kernels/pr/model.hpp).
  // use_weights: on a weighted graph an edge passes on its source's score in
  // proportion to its weight (NetworkX's default weight="weight"); false:
  // every edge counts 1 (weight=None). No effect on an unweighted graph.
  bool use_weights = true;
  // The teleport distribution, one value per vertex in the caller's ids
  // (empty: uniform), normalized here to sum 1: values >= 0, not all 0.
  std::vector<double> personalization;
  // NetworkX's mode only: where the dangling mass goes, as personalization
  // (empty: the personalization, or uniform without one, as NetworkX).
  std::vector<double> dangling;
};

// Whether per-edge contributions must be doubles: a float carries about 7
// digits, enough for tolerances down to 1e-6 (the gapbs default is 1e-4).
inline bool needs_double_contributions(const PageRankOptions& o) {
  return o.networkx || (o.tolerance > 0 && o.tolerance < 1e-6);
}

// Calls f(C{}) with the contribution type the run needs (float or double).
template <typename F>
decltype(auto) with_contribution_type(const PageRankOptions& o, F&& f) {
  return needs_double_contributions(o) ? f(double{}) : f(float{});
}

// The blocking request of a PageRank sweep over the in-lists of g,
// `arc_bytes` per arc of the blocked copy (sweep/cache_blocking.hpp).
template <typename G>
CacheBlockRequest pagerank_block_request(const G& g, const PageRankOptions& o, std::size_t arc_bytes) {
  CacheBlockRequest r;
  r.vertices = g.num_vertices();
  r.arcs = static_cast<std::int64_t>(g.num_arcs());
  r.value_bytes = needs_double_contributions(o) ? sizeof(double) : sizeof(float);
  r.arc_bytes = arc_bytes;
  r.sweeps = o.max_iterations;
  r.block_bytes = o.cache_block_bytes;
  return r;
}

// The cache-blocking decision for a segmented sweep (Gauss-Seidel, the NUMA engine).
template <typename G>
std::int64_t pagerank_block_width(const G& g, const PageRankOptions& o) {
  return cache_block_width(pagerank_block_request(g, o, sizeof(typename G::vertex_type)));
}

// The tiling of the flat Jacobi sweep (pull_jacobi.hpp; a tile's arc is one 32-bit word).
template <typename G>
TileShape pagerank_tile_shape(const G& g, const PageRankOptions& o) {
  return cache_tile_shape(pagerank_block_request(g, o, sizeof(std::uint32_t)), parallel::max_threads());
}

// The L1 change below which an iteration stops the run: the tolerance, or
// n * tolerance in NetworkX's mode (networkx.pagerank's rule); 0: never.
inline double stop_limit(const PageRankOptions& o, std::int64_t n) {
  return o.networkx ? o.tolerance * static_cast<double>(n) : o.tolerance;
}

struct PageRankResult {
  NumaArray<double> scores;
  PageRankVariant variant = PageRankVariant::kAuto;  // the one that ran
  int iterations = 0;
  double last_change = 0;  // L1 change of the last iteration
  int cache_segments = 1;  // source ranges of a cache-blocked sweep (1: not blocked)
  int tile_row_bits = 0;    // rows per tile of the tiled Jacobi sweep, as 2^bits (0: not tiled)
  double cache_copy_s = 0;  // seconds of the call spent building the blocked copy (flat kernels)
  CallInfo ran;
};

// Brings the scores of a run on a renumbered graph back to the caller's ids
// (EngineCall::ids()).
template <typename V>
void unpermute(PageRankResult& r, const reorder::Permutation<V>& ids) {
  to_caller_order(r.scores, ids);
}

// `score` if the vertex has out-arcs, else 0, without a branch: whether a
// vertex has out-arcs follows no pattern on a skewed graph (38 % of kron20's
// vertices have none, spread over the ids), so a branch here is mispredicted
// on many vertices of every sweep.
[[gnu::always_inline]] inline double score_if_out_arcs(double score, eid_t degree) {
  const std::uint64_t keep = std::uint64_t{0} - static_cast<std::uint64_t>(degree > 0);
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(score) & keep);
}

// The contribution x[v] / outdeg(v) the next sweep reads, from
// kept = score_if_out_arcs(x[v], outdeg(v)): 0 for a vertex without
// out-arcs. Divided in C: a float quotient is all a float contribution
// keeps, and the float division is the shorter one.
template <typename C>
[[gnu::always_inline]] inline C contribution(double kept, eid_t degree) {
  return static_cast<C>(kept) / static_cast<C>(degree + (degree == 0));
}

// The same contribution as score x (1 / outdeg), 0 without out-arcs. The
// reciprocal depends on the degree alone, so it is ready before the score is;
// in a Gauss-Seidel sweep, where vertex v + 1 often reads x[v] (road graphs),
// the division and the mask of score_if_out_arcs no longer sit on the chain
// from one vertex to the next (road-NY 0.88x: docs/kernels/pr.md). May differ
// from the quotient in the last bit of C.
template <typename C>
[[gnu::always_inline]] inline C out_degree_reciprocal(eid_t degree) {
  return C(1) / static_cast<C>(degree + (degree == 0)) * static_cast<C>(degree > 0);
}

template <typename C>
[[gnu::always_inline]] inline C contribution_by_reciprocal(double score, eid_t degree) {
  return static_cast<C>(score) * out_degree_reciprocal<C>(degree);
}

// out_degree_reciprocal of every vertex of g, once per call: Gauss-Seidel's
// short-list sweep (gather_sum.hpp) reads it instead of two offsets and
// leaves the division out of its loop.
template <typename C, typename G>
NumaArray<C> out_degree_reciprocals(const G& g) {
  const std::int64_t n = g.num_vertices();
  auto r = NumaArray<C>::for_overwrite(static_cast<std::size_t>(n), numa::placement_for("contrib"));
  const eid_t* const off = g.out().offsets.data();
  C* const out = r.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) out[v] = out_degree_reciprocal<C>(off[v + 1] - off[v]);
  return r;
}

// The start shared by every flat variant: scores 1/n, each vertex's first
// contribution 1/(n outdeg). Returns the score mass on dangling vertices.
template <typename G, typename C>
double start_pagerank(const G& g, PageRankResult& r, C* contrib) {
  using V = typename G::vertex_type;
  const std::int64_t n = g.num_vertices();
  const double init = 1.0 / static_cast<double>(n);
  double dangling = 0;
#pragma omp parallel for schedule(static) reduction(+ : dangling)
  for (std::int64_t v = 0; v < n; ++v) {
    r.scores[v] = init;
    const eid_t d = g.out_degree(static_cast<V>(v));
    const double kept = score_if_out_arcs(init, d);
    contrib[v] = contribution<C>(kept, d);
    dangling += init - kept;
  }
  return dangling;
}

}  // namespace numagraph::kernels
