// Betweenness centrality by Brandes' algorithm (Brandes, J. Math. Sociol.
// 2001) with a direction-optimizing forward pass (Beamer, Asanovic,
// Patterson, SC 2012, as Ligra and GBBS run BC: Shun & Blelloch, PPoPP 2013)
// and a backward pass by levels, neither of which needs atomics on doubles
// once the frontier is large.
//
// Forward, per source, level by level:
//  * push (sparse frontier): each frontier vertex u claims unvisited
//    out-neighbours with a compare-and-swap on depth and adds sigma[u] to
//    the path count of every neighbour one level down (atomic add);
//  * pull (dense frontier): the frontier is a bitmap; every unvisited vertex
//    sums sigma over its in-neighbours whose bit is set. Only its owner
//    writes a vertex, so no atomics. A pull cannot stop at the first parent
//    (every parent's count is needed), so it costs the in-edges of all
//    unvisited vertices. The search's first pull reads every depth and
//    keeps a bitmap of the unvisited vertices with in-edges; later pulls
//    visit only its set bits, so they skip visited and unreachable vertices
//    64 at a time (kron20 one source: 0.85x the time, docs/kernels/bc.md).
//    In AVX2 builds with 32-bit ids a pull sums four in-neighbours at a time
//    with masked vector gathers (avx2_masked_gather_sum).
//  * owner push (a frontier of hubs, run by a team): the ids are cut into
//    4 ranges per thread; a thread takes a range and walks every frontier
//    vertex's out-neighbours in it (a binary search in the sorted list finds
//    where they start), claiming and counting them with plain stores, as the
//    range's only writer. Where a few hundred hubs hold the frontier's
//    edges, a pull reads the in-edges of every unvisited vertex to find the
//    few that lead to a hub (kron20 from vertex 143033: 28 M in-edges for
//    3.2 M frontier arcs), and a push pays two atomics per arc.
//  Rule: pull when  frontier out-edges * alpha > in-edges of unvisited
//  vertices + n / 16  (the two sides are the work of a push and of a pull,
//  which also reads every vertex's depth, 16 to a cache line; alpha weighs
//  a push edge, with its atomics, against a pull edge). A team level pushes
//  by owner instead when its frontier has at least kOwnerSearchEdges
//  out-edges per (frontier vertex, range) pair, so the binary searches are
//  a small part of the work, and  frontier out-edges * owner_push_ratio <
//  in-edges of unvisited vertices + n / 16  (owner_push_ratio weighs an
//  owner-pushed arc, two stores at random, against a pulled one); on a
//  directed graph without in-edges, where the other choice is a push,
//  whenever the first condition holds.
// Backward, levels deepest first: each vertex w stores
//   c[w] = (1 + delta[w]) / sigma[w] = 1/sigma[w] + sum over successors c[v]
// so delta[w] = sigma[w] * (sum of c over successors). The successors of a
// level-l vertex are its out-neighbours on level l + 1: a bitmap of level
// l + 1 (128 KiB per million vertices, cache-resident) picks them, so only
// their c values are read; no successor bits are kept in the forward pass
// and it needs no depth test. Big levels are swept in id order (a pushed
// level comes in a random order), so neighbouring vertices' reads share lines.
// When the in-edges of level l + 1 are far fewer than the out-edges of level
// l (the last levels of a Kronecker or uniform graph, a social graph's
// periphery), level l + 1 pushes its c to its predecessors instead (atomic
// adds, over its in-edges only), and level l reads no edges.
// Both gathers (the pull's sigma, the backward pass's c) test a bitmap per
// neighbour. When the summed array fits in a quarter of the last-level cache
// and in 16 MiB they do not branch on the bit: a vertex outside the set reads
// a zero kept at index n instead, which costs an L1 hit where a mispredicted
// branch costs more (half the bits set, on a skewed graph's big levels).
// Arrays that miss the caches keep the branch, which issues no load for those
// vertices. A pull over many in-edges per frontier vertex, whose sigma misses
// a quarter of the last-level cache, first packs the frontier's sigma by rank
// (kernels/bc/packed_frontier.hpp) and sums from the packed copy without a
// branch: on a uniform graph's big pull the copy is a quarter of the array.
// Scores are raw Brandes sums over the given sources, as betweenness_brandes
// (kernels/bc/brandes.hpp) returns them; scale_like_networkx() scales them.
#pragma once

#ifdef __AVX2__
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bc/owner_ranges.hpp"
#include "numagraph/kernels/bc/packed_frontier.hpp"
#include "numagraph/kernels/bc/successor_sum.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/sweep/gather_sum.hpp"

namespace numagraph::kernels {

struct BrandesDoOptions {
  // Pull when frontier out-edges * alpha > in-edges of unvisited vertices
  // + n / 16. 0: never pull (a hub level may still push by owner, below).
  // Measured in docs/kernels/bc.md.
  double alpha = 10;
  // A level whose vertices have fewer out-edges than this runs on the
  // calling thread alone (a team would meet at a barrier for little work).
  std::int64_t serial_edges = 512;
  // The backward pass pushes from level l + 1 when its in-edges times this
  // are fewer than the out-edges of level l. 0: never; 1e-12: every level.
  double back_push_ratio = 4;
  // Gathers without a branch per neighbour: -1 when the values fit in a
  // quarter of the last-level cache and in kCachedValuesMaxBytes, 0 never,
  // 1 always.
  int branch_free = -1;
  // Pulls from a packed copy of the frontier's sigma: -1 when sigma misses a
  // quarter of the last-level cache and the unvisited vertices' in-edges
  // are at least kPackInEdgesPerMember per frontier vertex, 0 never, 1
  // every pull.
  int pack_frontier = -1;
  // A team level whose frontier has at least kOwnerSearchEdges out-edges per
  // (frontier vertex, id range) pair pushes by owner when its out-edges
  // times this are fewer than the pull's in-edges + n / 16. 0: never; 1e-12:
  // every such level. Measured in docs/kernels/bc.md ("Owner push").
  double owner_push_ratio = 5;
};

// The most bytes of sigma or c the gathers take for cache-resident, whatever
// the last-level cache's size: a VM's share of a big shared L3 is not its
// size (docs/kernels/bc.md, "Branch-free gathers").
inline constexpr std::uint64_t kCachedValuesMaxBytes = std::uint64_t{16} << 20;

// An owner push prefetches the depth and sigma of the neighbour this many
// arcs ahead in the list.
inline constexpr std::int64_t kOwnerPrefetchArcs = 16;

// The in-edges a pull must read per frontier vertex for packing the
// frontier's sigma (one pass over the bitmap and the members) to pay.
inline constexpr std::int64_t kPackInEdgesPerMember = 16;

// Per-vertex scratch kept between calls; between sources every entry is back
// at its initial value (depth -1, sigma and c 0, bitmaps clear). sigma and c
// hold n + 1 entries, the last a zero the branch-free gathers read.
template <typename V>
struct BrandesDoWorkspace {
  NumaArray<double> sigma, c;
  NumaArray<std::int32_t> depth;
  NumaArray<V> order;                    // vertices by level
  NumaArray<std::uint64_t> bits[2];      // level bitmaps, by level parity
  NumaArray<std::uint64_t> candidates;   // vertices a pull may still find (each search's first pull sets it)
  NumaArray<RankedWord> ranked;          // a packed pull's frontier, with ranks
  std::vector<std::int64_t> level_start;
  std::vector<eid_t> level_edges;        // out-edges of each level's vertices
  std::vector<eid_t> level_in_edges;     // in-edges of each level's vertices (graphs with in-edges)
  int pull_levels = 0, push_levels = 0;  // of the last source (owner pushes: owner_push_levels only)
  int packed_pulls = 0;                  // pulls from a packed frontier, of the last source
  int back_push_levels = 0;              // backward levels that pushed, of the last source
  int owner_push_levels = 0;             // forward levels pushed by owner, of the last source
  bool clean = false;

  void prepare(std::int64_t n) {
    const auto size = static_cast<std::size_t>(n);
    if (clean && sigma.size() == size + 1) return;
    sigma = NumaArray<double>(size + 1, numa::placement_for("sigma"));
    c = NumaArray<double>(size + 1, numa::placement_for("delta"));
    sigma[size] = 0;
    c[size] = 0;
    depth = NumaArray<std::int32_t>(size, numa::placement_for("depth"));
    parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { depth[v] = -1; });
    order = NumaArray<V>(std::max<std::size_t>(size, 1));
    for (auto& b : bits) b = NumaArray<std::uint64_t>(size / 64 + 1);
    candidates = NumaArray<std::uint64_t>(size / 64 + 1);
    ranked = NumaArray<RankedWord>(size / 64 + 1);
    clean = true;
  }
};

namespace bc_detail {

// Sum of x[v] over the ids v in [first, last) whose bit is set in `member`,
// in two running sums (two neighbours' loads in flight, not one chain).
template <typename V>
[[gnu::always_inline]] inline double masked_gather_sum(const double* x, const std::uint64_t* member, const V* first,
                                                        const V* last) {
  auto in = [member](V v) { return (member[v >> 6] >> (v & 63)) & 1; };
  double s0 = 0, s1 = 0;
  for (; last - first >= 2; first += 2) {
    if (in(first[0])) s0 += x[first[0]];
    if (in(first[1])) s1 += x[first[1]];
  }
  if (first < last && in(*first)) s0 += x[*first];
  return s0 + s1;
}

#ifdef __AVX2__
// masked_gather_sum four ids at a time for 32-bit ids below 2^31 (the
// gathers' indices are signed): the ids' bitmap words are gathered, their
// bits made a lane mask, and the masked gather loads x only in the lanes
// whose bit is set. No branch per id and, unlike selected_gather_sum, no
// load that waits for one. Four running sums, whose order differs from the
// scalar loops' (path counts are integers: the same sums).
inline double avx2_masked_gather_sum(const double* x, const std::uint64_t* member, const std::uint32_t* first,
                                     const std::uint32_t* last) {
  __m256d acc = _mm256_setzero_pd();
  const __m256i one = _mm256_set1_epi64x(1);
  const __m128i low6 = _mm_set1_epi32(63);
  for (; last - first >= 4; first += 4) {
    const __m128i ids = _mm_loadu_si128(reinterpret_cast<const __m128i*>(first));
    const __m256i words = _mm256_i32gather_epi64(reinterpret_cast<const long long*>(member), _mm_srli_epi32(ids, 6), 8);
    const __m256i shift = _mm256_cvtepu32_epi64(_mm_and_si128(ids, low6));
    const __m256i bit = _mm256_and_si256(_mm256_srlv_epi64(words, shift), one);
    const __m256d mask = _mm256_castsi256_pd(_mm256_cmpeq_epi64(bit, one));
    acc = _mm256_add_pd(acc, _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, ids, mask, 8));
  }
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, acc);
  return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + masked_gather_sum(x, member, first, last);
}
#endif

// The same sum without a branch per id: an id outside `member` reads
// x[zero_at], which holds 0.
template <typename V>
[[gnu::always_inline]] inline double selected_gather_sum(const double* x, std::uint64_t zero_at,
                                                          const std::uint64_t* member, const V* first, const V* last) {
  return indexed_gather_sum(x, first, last, [member, zero_at](V v) {
    const std::uint64_t keep = 0 - ((member[v >> 6] >> (v & 63)) & 1);
    return (static_cast<std::uint64_t>(v) & keep) | (zero_at & ~keep);
  });
}

}  // namespace bc_detail

template <typename V>
void betweenness_brandes_do(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                            BrandesDoWorkspace<V>& ws, const BrandesDoOptions& options = {}) {
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  if (n == 0) return;
  ws.prepare(n);
  double* sigma = ws.sigma.data();
  double* c0 = ws.c.data();
  std::int32_t* depth = ws.depth.data();
  V* order = ws.order.data();
  std::uint64_t* const bits[2] = {ws.bits[0].data(), ws.bits[1].data()};
  std::uint64_t* const candidates = ws.candidates.data();
  const std::size_t words = ws.bits[0].size();
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  const eid_t* in_off = g.in_arrays().offsets.data();
  const V* in_nbr = g.in_arrays().neighbors.data();
  const double alpha = g.has_in_edges() ? options.alpha : 0;
  const eid_t total_in = g.has_in_edges() ? in_off[n] : 0;
  auto& level_start = ws.level_start;
  // Levels holding more than n / kScanFraction vertices are swept in id order.
  constexpr std::int64_t kScanFraction = 32;
  auto& level_edges = ws.level_edges;
  auto& level_in_edges = ws.level_in_edges;
  // Packing is for values that miss the last-level cache; the branch keeps
  // to values past kCachedValuesMaxBytes too (docs/kernels/bc.md).
  const bool values_miss_llc = prefetch_pays(n, sizeof(double));
  const bool values_miss =
      values_miss_llc || static_cast<std::uint64_t>(n) * sizeof(double) > kCachedValuesMaxBytes;
  const bool branch_free = options.branch_free < 0 ? !values_miss : options.branch_free > 0;
  // Whether a pull from a frontier of `members` vertices, with `in_edges`
  // in-edges to read, packs the frontier's sigma first.
  auto packs = [&](std::int64_t members, eid_t in_edges) {
    if (options.pack_frontier >= 0) return options.pack_frontier > 0;
    return values_miss_llc && in_edges >= static_cast<eid_t>(members) * kPackInEdgesPerMember;
  };
  std::vector<std::int64_t> block_counts(static_cast<std::size_t>(parallel::max_threads()) + 1);
  auto gather = [&](const double* x, const std::uint64_t* member, const V* first, const V* last) {
    return branch_free ? bc_detail::selected_gather_sum(x, static_cast<std::uint64_t>(n), member, first, last)
                       : bc_detail::masked_gather_sum(x, member, first, last);
  };
  // The pull's sum of sigma: vector gathers where the build and the ids allow.
#ifdef __AVX2__
  constexpr bool kVectorIds = std::is_same_v<V, std::uint32_t>;
  const bool vector_pull = kVectorIds && n < (std::int64_t{1} << 31);
#endif
  auto pull_gather = [&](const std::uint64_t* member, const V* first, const V* last) {
#ifdef __AVX2__
    if constexpr (kVectorIds)
      if (vector_pull) return bc_detail::avx2_masked_gather_sum(sigma, member, first, last);
#endif
    return gather(sigma, member, first, last);
  };
  const auto serial_edges = static_cast<eid_t>(std::max<std::int64_t>(0, options.serial_edges));
  auto small_level = [&](eid_t edges) { return edges < serial_edges; };
  // Backward levels of more than n / kBitmapFraction vertices use a bitmap
  // of the next level; smaller ones test depths.
  constexpr std::int64_t kBitmapFraction = 256;

  for (const V s : sources) {
    throw_if_cancelled();
    std::optional<profile::InnerPhase> phase(std::in_place, "forward");
    ws.clean = false;
    level_start.assign({0, 1});
    level_edges.assign({off[s + 1] - off[s]});
    level_in_edges.assign({g.has_in_edges() ? in_off[s + 1] - in_off[s] : 0});
    order[0] = s;
    depth[s] = 0;
    sigma[s] = 1;
    // Per-level tallies in three rotating slots (level d resets slot d+2,
    // last read at level d-1): the vertices found one level down, with their
    // out-edges and in-edges, summed as they are claimed, so the next level
    // decides push or pull with no pass of its own; one barrier per level.
    struct alignas(64) Found {
      std::atomic<std::int64_t> count{0};
      std::atomic<eid_t> out_edges{0}, in_edges{0};
    };
    Found found[3];
    int pulls = 0, pushes = 0, packed_pulls = 0, owner_pushes = 0;
    // Forward state, carried between the parallel stretches (levels of big
    // frontiers, run by the team) and the levels of small frontiers (run by
    // the calling thread alone: a team would meet at a barrier per level,
    // which on a road graph's hundreds of small levels costs more than their
    // work). Every thread of a team computes the same decisions.
    std::int64_t shared_lo = 0, shared_hi = 1;
    std::int32_t shared_d = 0;
    eid_t shared_frontier_edges = off[s + 1] - off[s];
    eid_t shared_unvisited = total_in - (g.has_in_edges() ? in_off[s + 1] - in_off[s] : 0);
    int shared_last_pull = -2;  // level of the last pull: its bitmap is cleared lazily
    auto forward = [&](auto team_tag) {
      constexpr bool team = decltype(team_tag)::value;
      const bool leader = parallel::thread_id() == 0;
      std::vector<V> local;
      std::int64_t lo = shared_lo, hi = shared_hi;
      std::int32_t d = shared_d;
      eid_t frontier_edges = shared_frontier_edges, unvisited_in = shared_unvisited;
      int last_pull = shared_last_pull;
      // Degrees of the vertices this thread claims for the next level.
      eid_t found_out = 0, found_in = 0;
      auto claimed = [&](V v) {
        local.push_back(v);
        found_out += off[v + 1] - off[v];
        if (g.has_in_edges()) found_in += in_off[v + 1] - in_off[v];
      };
      for (; lo < hi && small_level(frontier_edges) != team; ++d) {
        Found& next = found[(d + 1) % 3];
        if (leader) {
          Found& after = found[(d + 2) % 3];
          after.count.store(0, std::memory_order_relaxed);
          after.out_edges.store(0, std::memory_order_relaxed);
          after.in_edges.store(0, std::memory_order_relaxed);
        }
        const double pull_work = static_cast<double>(unvisited_in + n / 16);
        const std::int64_t ranges = team ? kOwnerRangesPerThread * parallel::num_threads_in_region() : 0;
        const bool owner_push =
            team && options.owner_push_ratio > 0 && bc_detail::hub_frontier(frontier_edges, hi - lo, ranges) &&
            (!g.has_in_edges() || static_cast<double>(frontier_edges) * options.owner_push_ratio < pull_work);
        const bool pull = !owner_push && alpha > 0 && static_cast<double>(frontier_edges) * alpha > pull_work;
        // Nobody reads the bitmap of level d-1 any more: clear it if that
        // level pulled (a pull of this level sets the other parity's).
        if (last_pull == d - 1) {
          std::uint64_t* old = bits[(d - 1) & 1];
#pragma omp for schedule(static) nowait
          for (std::size_t w = 0; w < words; ++w) old[w] = 0;
        }
        if (pull) {
          std::uint64_t* cur = bits[d & 1];
          // Set this frontier's bits; then everyone pulls.
#pragma omp for schedule(static)
          for (std::int64_t i = lo; i < hi; ++i) {
            const V u = order[i];
            __atomic_fetch_or(&cur[u >> 6], std::uint64_t{1} << (u & 63), __ATOMIC_RELAXED);
          }
          // Every vertex a pull may still find, once: the search's first pull
          // marks the unvisited vertices with in-edges in `candidates`, and
          // each pull clears the ones it finds and those a push level found
          // since, so later pulls skip visited and isolated vertices 64 at a time.
          const bool first_pull = last_pull < 0;
          auto pull_candidates = [&](auto&& sum_of) {
#pragma omp for schedule(dynamic, 16) nowait
            for (std::size_t w = 0; w < words; ++w) {
              std::uint64_t left = 0;
              if (first_pull) {
                const std::int64_t end = std::min<std::int64_t>(n, static_cast<std::int64_t>(w + 1) * 64);
                for (std::int64_t v = static_cast<std::int64_t>(w) * 64; v < end; ++v)
                  left |= static_cast<std::uint64_t>(depth[v] < 0 && in_off[v + 1] > in_off[v]) << (v & 63);
              } else {
                left = candidates[w];
              }
              for (std::uint64_t todo = left; todo != 0; todo &= todo - 1) {
                const int b = __builtin_ctzll(todo);
                const std::int64_t v = static_cast<std::int64_t>(w) * 64 + b;
                if (depth[v] < 0) {
                  const double sum = sum_of(v);
                  if (sum <= 0) continue;
                  depth[v] = d + 1;
                  sigma[v] = sum;
                  claimed(static_cast<V>(v));
                }
                left &= ~(std::uint64_t{1} << b);
              }
              candidates[w] = left;
            }
          };
          if (packs(hi - lo, unvisited_in)) {
            // c is all zeros in the forward pass: the packed sigma borrows
            // it, and is zeroed again once every thread has pulled.
            const RankedWord* ranked = ws.ranked.data();
            const std::int64_t members =
                bc_detail::pack_frontier(cur, words, sigma, ws.ranked.data(), c0, block_counts.data());
            if (leader) ++packed_pulls;
            pull_candidates([&](std::int64_t v) {
              return bc_detail::packed_gather_sum(c0, static_cast<std::uint64_t>(n), ranked, in_nbr + in_off[v],
                                                  in_nbr + in_off[v + 1]);
            });
#pragma omp barrier
#pragma omp for schedule(static) nowait
            for (std::int64_t i = 0; i < members; ++i) c0[i] = 0;
          } else {
            pull_candidates([&](std::int64_t v) { return pull_gather(cur, in_nbr + in_off[v], in_nbr + in_off[v + 1]); });
          }
          last_pull = d;
          if (leader) ++pulls;
        } else if (owner_push) {
#pragma omp for schedule(dynamic, 1) nowait
          for (std::int64_t r = 0; r < ranges; ++r) {
            // Range r's ids: only this thread writes their depths and counts.
            for (std::int64_t i = lo; i < hi; ++i) {
              const V u = order[i];
              const double su = sigma[u];
              auto [e, end] = bc_detail::list_in_range(nbr + off[u], nbr + off[u + 1], r, ranges, n);
              for (; e < end; ++e) {
                if (end - e > kOwnerPrefetchArcs) {
                  __builtin_prefetch(&depth[e[kOwnerPrefetchArcs]]);
                  __builtin_prefetch(&sigma[e[kOwnerPrefetchArcs]]);
                }
                const V v = *e;
                std::int32_t dv = depth[v];
                if (dv < 0) {
                  depth[v] = d + 1;
                  claimed(v);
                  dv = d + 1;
                }
                if (dv == d + 1) sigma[v] += su;
              }
            }
          }
          if (leader) ++owner_pushes;
        } else {
#pragma omp for schedule(dynamic, 64) nowait
          for (std::int64_t i = lo; i < hi; ++i) {
            const V u = order[i];
            const double su = sigma[u];
            for (eid_t e = off[u]; e < off[u + 1]; ++e) {
              const V v = nbr[e];
              std::int32_t dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
              if (dv < 0) {
                if constexpr (team) {
                  if (parallel::compare_and_swap(depth[v], std::int32_t{-1}, d + 1)) claimed(v);
                } else {
                  depth[v] = d + 1;
                  claimed(v);
                }
                dv = d + 1;  // claimed by this thread or another one of this level
              }
              if constexpr (team) {
                if (dv == d + 1) parallel::fetch_add(sigma[v], su);
              } else {
                if (dv == d + 1) sigma[v] += su;
              }
            }
          }
          if (leader) ++pushes;
        }
        const std::int64_t at = hi + next.count.fetch_add(static_cast<std::int64_t>(local.size()));
        std::copy(local.begin(), local.end(), order + at);
        local.clear();
        next.out_edges.fetch_add(found_out, std::memory_order_relaxed);
        next.in_edges.fetch_add(found_in, std::memory_order_relaxed);
        found_out = found_in = 0;
#pragma omp barrier
        lo = hi;
        hi += next.count.load(std::memory_order_relaxed);
        frontier_edges = next.out_edges.load(std::memory_order_relaxed);
        const eid_t next_in = next.in_edges.load(std::memory_order_relaxed);
        unvisited_in -= next_in;
        if (leader) level_start.push_back(hi), level_edges.push_back(frontier_edges), level_in_edges.push_back(next_in);
      }
      if (leader) {
        shared_lo = lo, shared_hi = hi, shared_d = d;
        shared_frontier_edges = frontier_edges, shared_unvisited = unvisited_in, shared_last_pull = last_pull;
      }
    };
    while (shared_lo < shared_hi) {
      for (auto& f : found) f.count = 0, f.out_edges = 0, f.in_edges = 0;
      if (small_level(shared_frontier_edges)) {
        forward(std::false_type{});
      } else {
#pragma omp parallel
        forward(std::true_type{});
      }
    }
    const std::int64_t hi = shared_hi;
    if (shared_last_pull >= 0) {
      std::uint64_t* old = bits[shared_last_pull & 1];
      parallel::for_static(std::size_t{0}, words, [&](std::size_t w) { old[w] = 0; });
    }
    phase.emplace("backward");
    // Backward, deepest level first (its sums are 0: no successors). Small
    // levels run on the calling thread, as in the forward pass.
    auto flip_bits = [&](std::uint64_t* b, std::size_t level, bool set) {
      if (level + 1 >= level_start.size()) return;
#pragma omp for schedule(static) nowait
      for (std::int64_t i = level_start[level]; i < level_start[level + 1]; ++i) {
        const V v = order[i];
        const std::uint64_t bit = std::uint64_t{1} << (v & 63);
        if (set) __atomic_fetch_or(&b[v >> 6], bit, __ATOMIC_RELAXED);
        else __atomic_fetch_and(&b[v >> 6], ~bit, __ATOMIC_RELAXED);
      }
    };
    std::size_t levels_left = level_start.size() - 1;
    int back_pushes = 0;
    auto backward = [&](bool team) {
      std::size_t left = levels_left;
      for (; left > 0 && small_level(level_edges[left - 1]) != team; --left) {
        const std::size_t l = left - 1;
        const std::int64_t first = level_start[l], last = level_start[l + 1];
        // A big level finds its successors in a bitmap of level l + 1 (set
        // here, cleared after); a small one tests their depth, which is
        // cheaper than building the bitmap.
        const bool use_bits = (last - first) * kBitmapFraction > n;
        const std::uint64_t* below = bits[0];
        const std::int64_t next_size = level_start[l + 2 < level_start.size() ? l + 2 : l + 1] - last;
        const bool push_back = g.has_in_edges() && next_size > 0 && options.back_push_ratio > 0 &&
                               static_cast<double>(level_in_edges[l + 1]) * options.back_push_ratio <
                                   static_cast<double>(level_edges[l]);
        // Applies fn to every vertex of level l; a big level in id order (a
        // pushed level comes in a random order): the neighbours' reads of
        // consecutive vertices then share cache lines.
        auto for_level = [&](auto&& fn) {
          if ((last - first) * kScanFraction > n) {
#pragma omp for schedule(dynamic, 1024)
            for (std::int64_t v = 0; v < n; ++v)
              if (depth[v] == static_cast<std::int32_t>(l)) fn(static_cast<V>(v));
          } else {
#pragma omp for schedule(dynamic, 64)
            for (std::int64_t i = first; i < last; ++i) fn(order[i]);
          }
        };
        if (push_back) {
          // Level l + 1 has few in-edges next to level l's out-edges (the
          // tail of a low-diameter graph): push its c to its predecessors
          // (atomic adds into their c, still 0) instead of scanning every
          // edge of level l for the few successors.
          if (parallel::thread_id() == 0) ++back_pushes;
#pragma omp for schedule(dynamic, 64)
          for (std::int64_t i = last; i < last + next_size; ++i) {
            const V v = order[i];
            const double cv = c0[v];
            for (eid_t e = in_off[v]; e < in_off[v + 1]; ++e)
              if (depth[in_nbr[e]] == static_cast<std::int32_t>(l)) parallel::fetch_add(c0[in_nbr[e]], cv);
          }
          for_level([&](const V w) {
            const double sum = c0[w], sw = sigma[w];
            c0[w] = 1 / sw + sum;
            if (w != s) scores[w] += sw * sum;
          });
        } else if (use_bits) {
          flip_bits(bits[0], l + 1, true);
#pragma omp barrier
          for_level([&](const V w) {
            const double sum = gather(c0, below, nbr + off[w], nbr + off[w + 1]);
            const double sw = sigma[w];
            c0[w] = 1 / sw + sum;
            if (w != s) scores[w] += sw * sum;
          });
          flip_bits(bits[0], l + 1, false);
#pragma omp barrier
        } else {
          const auto below_depth = static_cast<std::int32_t>(l + 1);
          for_level([&](const V w) {
            const double sum = bc_detail::successor_sum(off, nbr, depth, c0, w, below_depth);
            const double sw = sigma[w];
            c0[w] = 1 / sw + sum;
            if (w != s) scores[w] += sw * sum;
          });
        }
      }
      if (parallel::thread_id() == 0) levels_left = left;
    };
    while (levels_left > 0) {
      if (small_level(level_edges[levels_left - 1])) {
        backward(false);
      } else {
#pragma omp parallel
        backward(true);
      }
    }
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < hi; ++i) {
        const V v = order[i];
        depth[v] = -1;
        sigma[v] = 0;
        c0[v] = 0;
      }
    }
    ws.pull_levels = pulls;
    ws.packed_pulls = packed_pulls;
    ws.push_levels = pushes;
    ws.back_push_levels = back_pushes;
    ws.owner_push_levels = owner_pushes;
    ws.clean = true;
  }
}

template <typename V>
NumaArray<double> betweenness_brandes_do(const CSRGraph<V>& g, const std::vector<V>& sources,
                                         const BrandesDoOptions& options = {}) {
  NumaArray<double> scores;
  BrandesDoWorkspace<V> ws;
  betweenness_brandes_do(g, sources, scores, ws, options);
  return scores;
}

}  // namespace numagraph::kernels
