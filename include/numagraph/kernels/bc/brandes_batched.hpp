// Sampled betweenness centrality in batches: up to 16 sources' Brandes
// searches share every edge sweep (multi-source BFS, Then et al., VLDB 2014,
// applied to Brandes' path counting and dependency sums as in the batched
// BC of Sariyuce et al., GPGPU 2013). Results equal betweenness_brandes over
// the same sources (raw sums; scale_like_networkx() scales them).
//
// Each vertex holds L = 4, 8 or 16 lanes, one per source of the batch, side by
// side: path counts sigma[v][0..L) (32 bits a lane while they fit, see
// BrandesBatchedWorkspace) and the backward coefficients c[v][0..L), so one
// edge moves one or two cache lines for all sources at once. The per-lane
// sums (LaneSums) are masked vector loads: only the selected lanes are read
// (the others may be written meanwhile), where a branch per lane on a bit of
// the mask cost more in mispredictions than the memory. The gathers prefetch,
// a fixed number of arcs ahead, the lines of the rows they will read. Bit
// masks per vertex say which lanes have seen it and in which lanes it is on
// the current level.
// Level d of the batch is the union of the sources' level-d frontiers. A
// lane may start on a later level (aligned_starts.hpp): its source joins the
// batch's level s, and its depths are the batch's levels minus s.
// Forward, per level (direction-optimizing as brandes_direction_optimizing.hpp):
//  * push (sparse): frontier vertex u offers its lanes to out-neighbour v for
//    every lane where v is unseen; the new lanes are or-ed into v's next mask
//    (the first to set one queues v) and sigma is added per lane (atomic).
//    A frontier of hubs (at least kOwnerSearchEdges out-edges per frontier
//    entry and id range) is pushed by owner instead, as in
//    brandes_direction_optimizing.hpp: each thread takes ranges of ids and
//    walks the part of every frontier list in its range, with plain stores;
//  * pull (dense): each vertex not seen by every lane sums, over in-neighbours
//    u, sigma[u] in the lanes where u is on the frontier and v unseen; only
//    its owner writes v, no atomics.
// Backward, levels deepest first: for a vertex w on level l in lanes M,
//   acc[k] = sum of c[v][k] over out-neighbours v on level l + 1 in lane k
// (per vertex, a mask of the lanes in which it lies on level l + 1 picks
// them; a neighbour in none of w's lanes is skipped without reading its row)
// and, for the lanes in M, delta = sigma[w] * acc, c[w] = 1/sigma[w] + acc.
// A 16-lane row of c spans two cache lines; where few of the lanes an arc
// could read are on levels l and l + 1 (kLineSkipShare), the gather
// tests each line's lanes and loads only the lines that hold one.
// A big level is swept in id order from its lane masks (a pushed level's list
// is in random order, and the prefetch looks ahead in id order). When level
// l + 1's entries have few in-edges next to level l's out-edges (the tail of
// a low-diameter graph), they push c to their predecessors per lane (atomic
// adds) and level l reads no edges, as in brandes_direction_optimizing.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "numagraph/graph/csr_graph.hpp"
#include "numagraph/kernels/bc/aligned_starts.hpp"
#include "numagraph/kernels/bc/owner_ranges.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/sweep/gather_sum.hpp"

namespace numagraph::kernels {

struct BrandesBatchedOptions {
  int batch = 16;    // sources per batch, 1..16 (lanes: 4, 8 or 16)
  // Pull when frontier out-edges * alpha > in-edges of vertices some lane
  // has not seen + n / 16. 10, as the single search: urand22's third level
  // then pulls (0.43-0.48 s against 0.56 s pushed, 2 threads).
  double alpha = 10;
  // The backward pass pushes from level l + 1 when its entries' in-edges
  // times this are fewer than level l's entries' out-edges. 0: never. 8,
  // twice the single search's: a pushed arc adds every lane it carries with
  // an atomic, where a pulled one is a masked load; kron20's fourth level
  // (4.2 times as many out-edges as its successors' in-edges) took 150-207
  // ms pulled against 184-399 ms pushed (docs/kernels/bc.md).
  double back_push_ratio = 8;
  // Push hub frontiers by owner (kernels/bc/owner_ranges.hpp) where the
  // atomic push would run: the first level of 16 kron20 sources took 19-25
  // ms against 33-54 ms (docs/kernels/bc.md).
  bool owner_push = true;
  // The backward gathers of a 16-lane row test each of its two lines for
  // lanes before loading it: -1 when the rows miss a quarter of the
  // last-level cache and the expected share of a row's lanes an arc reads
  // is at most kLineSkipShare, 0 never, 1 every level.
  int skip_empty_lines = -1;
  // Lanes whose search spreads in fewer hops start on later levels, so that
  // the lanes' big levels coincide (aligned_starts.hpp): kron20's 16 sources
  // took 0.81-0.88x the time on four root sets, 0.97-0.98x on two
  // (docs/kernels/bc.md, "Aligned starts").
  bool align_starts = true;
  // The level (0..kMaxStartLevel) lane i of every batch starts on, for tests
  // and tuning, in place of align_starts' choice when not empty; lanes past
  // its end start on level 0.
  std::vector<int> start_levels{};
};

// The latest level BrandesBatchedOptions::start_levels may name.
inline constexpr int kMaxStartLevel = 64;

// (lanes on level l / n lanes) * (lanes on level l + 1 / n lanes), the share
// of a row's lanes an arc from level l reads if lanes fell independently, at
// or below which the backward gathers skip empty lines: a line of 8 lanes is
// then empty with a chance of at least (11/12)^8 = 0.5 (docs/kernels/bc.md,
// "Batched gathers that skip empty lines").
inline constexpr double kLineSkipShare = 1.0 / 12;

// Scratch kept between calls, sized for the largest lane count used; between
// batches every entry is back at 0. Path counts are kept in 32 bits per lane
// (one line per 16-lane row) until a batch's counts pass 2^32 - 1; that
// batch runs again, and the workspace keeps 64-bit (double) counts from then
// on.
template <typename V>
struct BrandesBatchedWorkspace {
  NumaArray<std::uint32_t> sigma32;  // n * lanes, while narrow_counts
  NumaArray<double> sigma, c;        // n * lanes (sigma: once the counts are wide)
  bool narrow_counts = true;
  NumaArray<std::uint16_t> seen, front[2];
  NumaArray<V> order;               // (vertex, lanes) of each level, levels in turn
  NumaArray<std::uint16_t> order_lanes;
  std::vector<std::int64_t> level_start;
  std::vector<eid_t> level_out_edges, level_in_edges;  // of each level's entries
  std::vector<std::int64_t> level_lanes;               // (vertex, lane) pairs of each level
  int lanes = 0;
  int pull_levels = 0, push_levels = 0;  // of the last batch (owner pushes: owner_push_levels only)
  int back_push_levels = 0;              // backward levels that pushed, of the last batch
  int owner_push_levels = 0;             // forward levels pushed by owner, of the last batch
  int line_skip_levels = 0;              // backward levels whose gathers skipped empty lines, of the last batch
  int late_lanes = 0;                    // lanes that started after level 0, of the last batch
  bool clean = false;

  void prepare(std::int64_t n, int want_lanes) {
    const auto size = static_cast<std::size_t>(n);
    if (clean && seen.size() == size && lanes == want_lanes) return;
    lanes = want_lanes;
    const std::size_t wide = size * static_cast<std::size_t>(lanes);
    seen = NumaArray<std::uint16_t>(size);
    allocate_counts();
    c = NumaArray<double>(wide, numa::placement_for("delta"));
    for (auto& f : front) f = NumaArray<std::uint16_t>(size);
    order = NumaArray<V>(std::max<std::size_t>(wide, 1));
    order_lanes = NumaArray<std::uint16_t>(std::max<std::size_t>(wide, 1));
    clean = true;
  }

  // A batch's counts passed 32 bits: 64-bit counts from now on (the narrow
  // rows are all 0 again, and are freed).
  void widen_counts() {
    narrow_counts = false;
    allocate_counts();
  }

  // Zeroed count rows of the current width (seen.size() vertices, `lanes`
  // lanes); the other width's rows are freed first, so the two never coexist.
  void allocate_counts() {
    const std::size_t wide = seen.size() * static_cast<std::size_t>(lanes);
    sigma32 = NumaArray<std::uint32_t>();
    sigma = NumaArray<double>();
    if (narrow_counts) sigma32 = NumaArray<std::uint32_t>(wide, numa::placement_for("sigma"));
    else sigma = NumaArray<double>(wide, numa::placement_for("sigma"));
  }
};

namespace bc_batched_detail {

// The gathers prefetch the row of the neighbour this many arcs ahead: 64
// took kron20 0.76 -> 0.58 s and Slashdot 29.4 -> 26.6 ms for 16 sources,
// better than 16, 32, 128 or 256 (docs/kernels/bc.md).
inline constexpr eid_t kBatchedPrefetchArcs = 64;

// Prefetches the lines of vertex v's row of L values of type T that hold a
// lane of `lanes`, without a branch: a line with none prefetches `idle` (a
// line in cache) instead. Most of the arcs a gather scans lead to no lane it
// reads (kron20: 72 % in the second pull), and their lines cost bandwidth.
template <int L, typename T, typename V>
[[gnu::always_inline]] inline void prefetch_lanes(const T* rows, V v, std::uint16_t lanes, const void* idle) {
  constexpr int kPerLine = static_cast<int>(64 / sizeof(T));
  const char* row = reinterpret_cast<const char*>(rows + static_cast<std::size_t>(v) * L);
  for (int line = 0; line * kPerLine < L; ++line) {
    const unsigned in_line = (lanes >> (line * kPerLine)) & ((1u << std::min(kPerLine, L)) - 1);
    __builtin_prefetch(in_line ? row + 64 * line : static_cast<const char*>(idle));
  }
}

#ifdef __AVX2__
// Four lanes of a LaneSums: masked loads of the lanes a nibble selects.
template <typename T>
struct FourLanes;

template <>
struct FourLanes<double> {
  __m256d sum = _mm256_setzero_pd();
  [[gnu::always_inline]] void add(const double* row, const std::int64_t* lane_mask) {
    sum = _mm256_add_pd(sum, _mm256_maskload_pd(row, _mm256_load_si256(reinterpret_cast<const __m256i*>(lane_mask))));
  }
  void store(double* out) const { _mm256_storeu_pd(out, sum); }
};

// 32-bit counts, summed in 64 bits.
template <>
struct FourLanes<std::uint32_t> {
  __m256i sum = _mm256_setzero_si256();
  [[gnu::always_inline]] void add(const std::uint32_t* row, const std::int32_t* lane_mask) {
    const __m128i m = _mm_load_si128(reinterpret_cast<const __m128i*>(lane_mask));
    sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm_maskload_epi32(reinterpret_cast<const int*>(row), m)));
  }
  void store(std::uint64_t* out) const { _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), sum); }
};

// Lane masks of a nibble, for 4 lanes of 64 and of 32 bits.
struct NibbleMasks {
  alignas(32) std::int64_t wide[16][4];
  alignas(16) std::int32_t narrow[16][4];
  constexpr NibbleMasks() : wide{}, narrow{} {
    for (int n = 0; n < 16; ++n)
      for (int i = 0; i < 4; ++i) wide[n][i] = narrow[n][i] = ((n >> i) & 1) ? -1 : 0;
  }
};
inline constexpr NibbleMasks kNibbleMasks{};
#endif

// Per-lane sums over rows of L values of type T (double, or 32-bit path
// counts summed in 64 bits): acc[k] += row[k] for the lanes k of a mask.
// Only the selected lanes are read: the others may be written by other
// threads meanwhile. The sums stay in registers; an `omp simd` loop over an
// array kept them on the stack, a store and a load per arc.
template <int L, typename T>
struct LaneSums {
  using Sum = std::conditional_t<std::is_same_v<T, double>, double, std::uint64_t>;
#ifdef __AVX2__
  FourLanes<T> four[L / 4];
  [[gnu::always_inline]] void add(const T* row, std::uint16_t lanes) {
    for (int j = 0; j < L / 4; ++j) {
      const int nibble = (lanes >> (4 * j)) & 15;
      if constexpr (std::is_same_v<T, double>) four[j].add(row + 4 * j, kNibbleMasks.wide[nibble]);
      else four[j].add(row + 4 * j, kNibbleMasks.narrow[nibble]);
    }
  }
  // add, loading only the cache lines of the row that hold a selected lane
  // (a branch per line: for rows whose lines mostly hold none).
  [[gnu::always_inline]] void add_lines(const T* row, std::uint16_t lanes) {
    constexpr int kPerLine = static_cast<int>(64 / sizeof(T));
    constexpr unsigned kLineMask = (1u << std::min(kPerLine, L)) - 1;
    for (int line = 0; line * kPerLine < L; ++line) {
      if (((lanes >> (line * kPerLine)) & kLineMask) == 0) continue;
      for (int j = line * kPerLine / 4; j < std::min(L, (line + 1) * kPerLine) / 4; ++j) {
        const int nibble = (lanes >> (4 * j)) & 15;
        if constexpr (std::is_same_v<T, double>) four[j].add(row + 4 * j, kNibbleMasks.wide[nibble]);
        else four[j].add(row + 4 * j, kNibbleMasks.narrow[nibble]);
      }
    }
  }
  void store(Sum* out) const {
    for (int j = 0; j < L / 4; ++j) four[j].store(out + 4 * j);
  }
#else
  alignas(64) Sum acc[L] = {};
  [[gnu::always_inline]] void add(const T* row, std::uint16_t lanes) {
#pragma omp simd
    for (int i = 0; i < L; ++i) acc[i] += ((lanes >> i) & 1) ? static_cast<Sum>(row[i]) : Sum{0};
  }
  [[gnu::always_inline]] void add_lines(const T* row, std::uint16_t lanes) { add(row, lanes); }
  void store(Sum* out) const {
    for (int i = 0; i < L; ++i) out[i] = acc[i];
  }
#endif
};

// One batch with path counts of type Count (std::uint32_t or double). Returns
// false, with the workspace clean and no score changed, when a 32-bit count
// would pass 2^32 - 1: the batch must run again with double counts.
template <int L, typename Count, typename V>
bool run_batch(const CSRGraph<V>& g, const V* src, int active, double* scores, BrandesBatchedWorkspace<V>& ws,
               const BrandesBatchedOptions& options) {
  using Mask = std::uint16_t;
  constexpr bool kNarrow = std::is_same_v<Count, std::uint32_t>;
  const std::int64_t n = g.num_vertices();
  Count* sigma;
  if constexpr (kNarrow) sigma = ws.sigma32.data();
  else sigma = ws.sigma.data();
  double* cw_base = ws.c.data();
  Mask* seen = ws.seen.data();
  Mask* const front[2] = {ws.front[0].data(), ws.front[1].data()};
  V* order = ws.order.data();
  Mask* order_lanes = ws.order_lanes.data();
  const eid_t* off = g.out().offsets.data();
  const V* nbr = g.out().neighbors.data();
  const eid_t* in_off = g.in_arrays().offsets.data();
  const V* in_nbr = g.in_arrays().neighbors.data();
  const double alpha = g.has_in_edges() ? options.alpha : 0;
  const Mask all = static_cast<Mask>((1u << active) - 1);
  auto& level_start = ws.level_start;
  // Levels holding more than n / kScanFraction entries are swept in id order.
  constexpr std::int64_t kScanFraction = 32;
  const eid_t in_total = g.has_in_edges() ? in_off[n] : 0, out_total = off[n];
  // Skipped lines save only misses: rows that the caches hold keep the plain gather.
  const bool rows_miss = prefetch_pays(n, L * sizeof(double));

  // Level 0: the distinct sources, each with the lanes it starts.
  std::int64_t hi = 0;
  eid_t frontier_edges = 0, unvisited_in = in_total;
  // The level each lane starts on (aligned_starts.hpp); lanes that start
  // later join the batch's levels as the expansion reaches them.
  int start[16] = {};
  if (!options.start_levels.empty()) {
    for (int i = 0; i < active && i < static_cast<int>(options.start_levels.size()); ++i) start[i] = options.start_levels[i];
  } else if (options.align_starts) {
    aligned_start_levels(g, src, active, start);
  }
  const int last_start = *std::max_element(start, start + active);
  std::int64_t starting_lanes = 0;
  for (int i = 0; i < active; ++i) {
    if (start[i] > 0) continue;
    ++starting_lanes;
    const V s = src[i];
    if (seen[s] == 0) {
      order[hi++] = s;
      frontier_edges += off[s + 1] - off[s];
    }
    seen[s] |= static_cast<Mask>(1u << i);
    front[0][s] = seen[s];
    sigma[static_cast<std::size_t>(s) * L + i] = 1;
  }
  eid_t sources_in = 0;
  for (std::int64_t i = 0; i < hi; ++i) {
    order_lanes[i] = seen[order[i]];
    const eid_t in_degree = g.has_in_edges() ? in_off[order[i] + 1] - in_off[order[i]] : 0;
    sources_in += in_degree;
    if (seen[order[i]] == all) unvisited_in -= in_degree;
  }
  level_start.assign({0, hi});
  auto& level_out_edges = ws.level_out_edges;
  auto& level_in_edges = ws.level_in_edges;
  level_out_edges.assign({frontier_edges});
  level_in_edges.assign({sources_in});
  ws.level_lanes.assign({starting_lanes});
  auto& level_lanes = ws.level_lanes;
  // Per level: entries found, their out-edges, the in-edges of vertices
  // every lane has now seen, and the in-edges of the entries.
  struct alignas(64) Found {
    std::atomic<std::int64_t> count{0};
    std::atomic<eid_t> out_edges{0}, in_edges{0}, entry_in_edges{0};
    std::atomic<std::int64_t> lanes{0};
  };
  Found found[3];
  int pulls = 0, pushes = 0, back_pushes = 0, owner_pushes = 0, line_skips = 0;
  std::atomic<bool> overflow{false};  // a 32-bit count passed 2^32 - 1
#pragma omp parallel
  {
    const bool leader = parallel::thread_id() == 0;
    std::optional<profile::InnerPhase> phase;  // a batch's, marked by the calling thread
    if (leader) phase.emplace("forward");
    std::vector<V> local;
    std::int64_t lo = 0, end = hi;
    eid_t my_frontier_edges = frontier_edges, my_unvisited = unvisited_in;
    for (std::int32_t d = 0; lo < end || d < last_start; ++d) {
      Found& next = found[(d + 1) % 3];
      if (leader) {
        Found& after = found[(d + 2) % 3];
        after.count.store(0, std::memory_order_relaxed);
        after.out_edges.store(0, std::memory_order_relaxed);
        after.in_edges.store(0, std::memory_order_relaxed);
        after.entry_in_edges.store(0, std::memory_order_relaxed);
        after.lanes.store(0, std::memory_order_relaxed);
      }
      const Mask* cur = front[d & 1];
      Mask* nxt = front[(d + 1) & 1];
      eid_t out_sum = 0;
      if (static_cast<double>(my_frontier_edges) * alpha > static_cast<double>(my_unvisited + n / 16)) {
#pragma omp for schedule(dynamic, 1024) nowait
        for (std::int64_t v = 0; v < n; ++v) {
          const Mask unseen = static_cast<Mask>(all & ~seen[v]);
          if (unseen == 0) continue;
          LaneSums<L, Count> sums;
          Mask got = 0;
          for (eid_t e = in_off[v]; e < in_off[v + 1]; ++e) {
            if (e + kBatchedPrefetchArcs < in_total) {
              const V ahead = in_nbr[e + kBatchedPrefetchArcs];
              prefetch_lanes<L>(sigma, ahead, static_cast<Mask>(cur[ahead] & unseen), in_nbr + e);
            }
            const V u = in_nbr[e];
            const Mask m = static_cast<Mask>(cur[u] & unseen);
            if (m == 0) continue;
            got |= m;
            sums.add(sigma + static_cast<std::size_t>(u) * L, m);
          }
          if (got) {
            alignas(64) typename LaneSums<L, Count>::Sum acc[L];
            sums.store(acc);
            // Only the lanes that discover v: in the others v may be in this
            // level's frontier, whose counts other threads are reading. In
            // the lanes that discover it v's count is still 0.
            Count* sv = sigma + static_cast<std::size_t>(v) * L;
            for (Mask m = got; m; m &= static_cast<Mask>(m - 1)) {
              const int i = __builtin_ctz(m);
              if constexpr (kNarrow) {
                if (acc[i] > UINT32_MAX) overflow.store(true, std::memory_order_relaxed);
              }
              sv[i] = static_cast<Count>(acc[i]);
            }
            nxt[v] = got;
            local.push_back(static_cast<V>(v));
            out_sum += off[v + 1] - off[v];
          }
        }
        if (leader) ++pulls;
      } else if (const std::int64_t ranges = kOwnerRangesPerThread * parallel::num_threads_in_region();
                 options.owner_push && bc_detail::hub_frontier(my_frontier_edges, end - lo, ranges)) {
        // A frontier of hubs: range r's ids are written by one thread only.
#pragma omp for schedule(dynamic, 1) nowait
        for (std::int64_t r = 0; r < ranges; ++r) {
          for (std::int64_t i = lo; i < end; ++i) {
            const V u = order[i];
            const Mask mu = cur[u];
            const Count* su = sigma + static_cast<std::size_t>(u) * L;
            auto [e, stop] = bc_detail::list_in_range(nbr + off[u], nbr + off[u + 1], r, ranges, n);
            for (; e < stop; ++e) {
              const V v = *e;
              Mask fresh = static_cast<Mask>(mu & ~seen[v]);
              if (fresh == 0) continue;
              if (nxt[v] == 0) {
                local.push_back(v);
                out_sum += off[v + 1] - off[v];
              }
              nxt[v] = static_cast<Mask>(nxt[v] | fresh);
              Count* sv = sigma + static_cast<std::size_t>(v) * L;
              for (; fresh; fresh &= static_cast<Mask>(fresh - 1)) {
                const int k = __builtin_ctz(fresh);
                if constexpr (kNarrow) {
                  if (sv[k] > UINT32_MAX - su[k]) overflow.store(true, std::memory_order_relaxed);
                }
                sv[k] += su[k];
              }
            }
          }
        }
        if (leader) ++owner_pushes;
      } else {
#pragma omp for schedule(dynamic, 64) nowait
        for (std::int64_t i = lo; i < end; ++i) {
          const V u = order[i];
          const Mask mu = cur[u];
          const Count* su = sigma + static_cast<std::size_t>(u) * L;
          for (eid_t e = off[u]; e < off[u + 1]; ++e) {
            const V v = nbr[e];
            Mask fresh = static_cast<Mask>(mu & ~seen[v]);
            if (fresh == 0) continue;
            if (__atomic_fetch_or(&nxt[v], fresh, __ATOMIC_RELAXED) == 0) {
              local.push_back(v);
              out_sum += off[v + 1] - off[v];
            }
            Count* sv = sigma + static_cast<std::size_t>(v) * L;
            for (; fresh; fresh &= static_cast<Mask>(fresh - 1)) {
              const int i = __builtin_ctz(fresh);
              const Count before = parallel::fetch_add(sv[i], su[i]);
              if constexpr (kNarrow) {
                if (before > UINT32_MAX - su[i]) overflow.store(true, std::memory_order_relaxed);
              }
            }
          }
        }
        if (leader) ++pushes;
      }
      const std::int64_t at = end + next.count.fetch_add(static_cast<std::int64_t>(local.size()));
      next.out_edges.fetch_add(out_sum, std::memory_order_relaxed);
      std::copy(local.begin(), local.end(), order + at);
      local.clear();
#pragma omp barrier
      if (d < last_start) {
        // Lanes that start on level d + 1 join it: their sources enter it
        // (unless some other lane found them on it) with a count of 1.
        if (leader) {
          for (int i = 0; i < active; ++i) {
            if (start[i] != d + 1) continue;
            const V s = src[i];
            if (nxt[s] == 0) {
              order[end + next.count.fetch_add(1)] = s;
              next.out_edges.fetch_add(off[s + 1] - off[s], std::memory_order_relaxed);
            }
            nxt[s] = static_cast<Mask>(nxt[s] | (1u << i));
            sigma[static_cast<std::size_t>(s) * L + i] = 1;
          }
        }
#pragma omp barrier
      }
      const std::int64_t new_end = end + next.count.load(std::memory_order_relaxed);
      // The new level's lanes become seen; this level's masks are cleared
      // (they are the next level's output array).
      eid_t in_sum = 0, entry_in = 0;
      std::int64_t lanes_found = 0;
#pragma omp for schedule(static) nowait
      for (std::int64_t i = end; i < new_end; ++i) {
        const V v = order[i];
        const Mask m = nxt[v];
        order_lanes[i] = m;
        lanes_found += __builtin_popcount(m);
        const Mask before = seen[v];
        seen[v] = static_cast<Mask>(before | m);
        if (g.has_in_edges()) {
          const eid_t in_degree = in_off[v + 1] - in_off[v];
          entry_in += in_degree;
          if ((before | m) == all) in_sum += in_degree;
        }
      }
#pragma omp for schedule(static) nowait
      for (std::int64_t i = lo; i < end; ++i) front[d & 1][order[i]] = 0;
      next.in_edges.fetch_add(in_sum, std::memory_order_relaxed);
      next.entry_in_edges.fetch_add(entry_in, std::memory_order_relaxed);
      next.lanes.fetch_add(lanes_found, std::memory_order_relaxed);
#pragma omp barrier
      lo = end;
      end = new_end;
      my_frontier_edges = next.out_edges.load(std::memory_order_relaxed);
      my_unvisited -= next.in_edges.load(std::memory_order_relaxed);
      if (leader) {
        level_start.push_back(end);
        level_out_edges.push_back(my_frontier_edges);
        level_in_edges.push_back(next.entry_in_edges.load(std::memory_order_relaxed));
        level_lanes.push_back(next.lanes.load(std::memory_order_relaxed));
      }
    }
#pragma omp barrier
    // After an overflow the batch skips its backward pass and only cleans up
    // (the forward pass leaves every front mask at 0).
    const bool counted = !overflow.load(std::memory_order_relaxed);
    if (leader && counted) phase.emplace("backward");
    // Backward. front[p] now holds, per vertex, the lanes in which it lies on
    // the level of parity p being read: level l reads level l + 1's lanes
    // and sets its own in the other array, clearing level l + 2's (a vertex
    // lies on different levels in disjoint lanes, so per-lane atomic or/and
    // need no ordering).
    auto flip = [&](Mask* a, std::size_t level, bool set) {
      if (level + 1 >= level_start.size()) return;
#pragma omp for schedule(static) nowait
      for (std::int64_t i = level_start[level]; i < level_start[level + 1]; ++i) {
        if (set) __atomic_fetch_or(&a[order[i]], order_lanes[i], __ATOMIC_RELAXED);
        else __atomic_fetch_and(&a[order[i]], static_cast<Mask>(~order_lanes[i]), __ATOMIC_RELAXED);
      }
    };
    for (std::size_t l = counted ? level_start.size() - 1 : 0; l-- > 0;) {
      const Mask* below = front[(l + 1) & 1];
      const Mask* here = front[l & 1];
      flip(front[l & 1], l + 2, false);
      flip(front[l & 1], l, true);
      // The expected share of a row's lanes that an arc from level l reads.
      const double lane_share = l + 1 < level_lanes.size()
                                    ? static_cast<double>(level_lanes[l]) / (static_cast<double>(n) * active) *
                                          (static_cast<double>(level_lanes[l + 1]) / (static_cast<double>(n) * active))
                                    : 0.0;
      const bool skip_lines =
          L * sizeof(double) > 64 && (options.skip_empty_lines < 0 ? rows_miss && lane_share <= kLineSkipShare
                                                                    : options.skip_empty_lines > 0);
      if (leader && skip_lines) ++line_skips;
      // w lies on level l in lanes m: sum c over its successors per lane.
      // With pushed = true its successors have already summed into c[w].
      auto settle = [&](const V w, const Mask m, bool pushed) {
        alignas(64) double acc[L] = {};
        double* cw = cw_base + static_cast<std::size_t>(w) * L;
        if (pushed) {
          for (Mask left = m; left; left &= static_cast<Mask>(left - 1)) {
            const int k = __builtin_ctz(left);
            acc[k] = cw[k];
          }
        } else {
          LaneSums<L, double> sums;
          for (eid_t e = off[w]; e < off[w + 1]; ++e) {
            if (e + kBatchedPrefetchArcs < out_total) {
              const V ahead = nbr[e + kBatchedPrefetchArcs];
              prefetch_lanes<L>(cw_base, ahead, static_cast<Mask>(below[ahead] & m), nbr + e);
            }
            const V v = nbr[e];
            const Mask mv = static_cast<Mask>(below[v] & m);  // lanes where v is a successor of w
            if (mv == 0) continue;
            // Only those lanes are read: v's others may be changing (v's lanes on this level).
            if (skip_lines) sums.add_lines(cw_base + static_cast<std::size_t>(v) * L, mv);
            else sums.add(cw_base + static_cast<std::size_t>(v) * L, mv);
          }
          sums.store(acc);
        }
        const Count* sw = sigma + static_cast<std::size_t>(w) * L;
        double score = 0;
        for (Mask left = m; left; left &= static_cast<Mask>(left - 1)) {
          const int k = __builtin_ctz(left);
          const auto sigma_k = static_cast<double>(sw[k]);
          cw[k] = 1 / sigma_k + acc[k];
          if (src[k] != w) score += sigma_k * acc[k];
        }
        scores[w] += score;
      };
      const bool push_back = g.has_in_edges() && l + 2 < level_start.size() && options.back_push_ratio > 0 &&
                             static_cast<double>(level_in_edges[l + 1]) * options.back_push_ratio <
                                 static_cast<double>(level_out_edges[l]);
      if (push_back) {
        // Level l + 1 has few in-edges next to level l's out-edges (the tail
        // of a low-diameter graph): its entries push c to their predecessors
        // on level l, per lane (atomic adds into c, 0 until then), and level
        // l reads no edges.
        if (leader) ++back_pushes;
#pragma omp barrier
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t i = level_start[l + 1]; i < level_start[l + 2]; ++i) {
          const V v = order[i];
          const Mask mv = order_lanes[i];
          const double* cv = cw_base + static_cast<std::size_t>(v) * L;
          for (eid_t e = in_off[v]; e < in_off[v + 1]; ++e) {
            const V u = in_nbr[e];
            double* cu = cw_base + static_cast<std::size_t>(u) * L;
            for (Mask lanes = static_cast<Mask>(here[u] & mv); lanes; lanes &= static_cast<Mask>(lanes - 1)) {
              const int k = __builtin_ctz(lanes);
              parallel::fetch_add(cu[k], cv[k]);
            }
          }
        }
      }
      if ((level_start[l + 1] - level_start[l]) * kScanFraction > n) {
        // A big level in id order (a pushed level comes in a random order),
        // its lanes read from the mask just set.
#pragma omp barrier
#pragma omp for schedule(dynamic, 1024)
        for (std::int64_t v = 0; v < n; ++v)
          if (here[v] != 0) settle(static_cast<V>(v), here[v], push_back);
      } else {
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t i = level_start[l]; i < level_start[l + 1]; ++i)
          settle(order[i], order_lanes[i], push_back);
      }
    }
    if (counted) {
      flip(front[0], 0, false);
      flip(front[1], 1, false);
    }
#pragma omp barrier
    if (end * 2 > n) {
      // Most vertices were reached: clearing every row in order streams,
      // where clearing each entry's lanes reads and writes lines at random.
#pragma omp for schedule(static) nowait
      for (std::int64_t v = 0; v < n; ++v) {
        seen[v] = 0;
        Count* sv = sigma + static_cast<std::size_t>(v) * L;
        double* cv = cw_base + static_cast<std::size_t>(v) * L;
        for (int k = 0; k < L; ++k) sv[k] = 0;
        for (int k = 0; k < L; ++k) cv[k] = 0;
      }
    } else
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < end; ++i) {
      // A vertex has one entry per level it is on, each with the lanes that
      // reached it there (disjoint): an entry clears only its lanes, and the
      // lane mask, which every entry of the vertex clears, atomically.
      const V v = order[i];
      std::atomic_ref<Mask>(seen[v]).store(0, std::memory_order_relaxed);
      for (Mask left = order_lanes[i]; left; left &= static_cast<Mask>(left - 1)) {
        const int k = __builtin_ctz(left);
        sigma[static_cast<std::size_t>(v) * L + k] = 0;
        cw_base[static_cast<std::size_t>(v) * L + k] = 0;
      }
    }
  }
  ws.pull_levels = pulls;
  ws.push_levels = pushes;
  ws.back_push_levels = back_pushes;
  ws.owner_push_levels = owner_pushes;
  ws.line_skip_levels = line_skips;
  ws.late_lanes = static_cast<int>(active - starting_lanes);
  return !overflow.load(std::memory_order_relaxed);
}

// One batch, with 32-bit counts while the workspace has them; a batch whose
// counts pass 32 bits runs again with double counts (scores untouched by the
// first try), and so do the batches after it.
template <int L, typename V>
void run_batch_counted(const CSRGraph<V>& g, const V* src, int active, double* scores, BrandesBatchedWorkspace<V>& ws,
                       const BrandesBatchedOptions& options) {
  if (ws.narrow_counts) {
    if (run_batch<L, std::uint32_t>(g, src, active, scores, ws, options)) return;
    ws.widen_counts();
  }
  run_batch<L, double>(g, src, active, scores, ws, options);
}

}  // namespace bc_batched_detail

// Lanes per vertex for `batch` sources: 4, 8 or 16.
inline int batched_lanes(int batch) { return batch <= 4 ? 4 : batch <= 8 ? 8 : 16; }

// Bytes of a workspace with `lanes` lanes: sigma and c rows (sigma at its
// widest, 8 bytes a lane; 4 until a batch's counts pass 32 bits), the
// (vertex, lanes) list of every level (a vertex is on at most `lanes`
// levels) and three masks per vertex.
template <typename V>
std::uint64_t batched_workspace_bytes(std::int64_t n, int lanes) {
  return static_cast<std::uint64_t>(n) *
         (static_cast<std::uint64_t>(lanes) * (2 * sizeof(double) + sizeof(V) + sizeof(std::uint16_t)) +
          3 * sizeof(std::uint16_t));
}

// Raw Brandes sums over `sources` into `scores`, `options.batch` sources per
// shared sweep (the last batch may be smaller: a batch of one source costs a
// fifth of a full one on kron20, two batches of 9 and 8 nearly twice, docs/kernels/bc.md).
template <typename V>
void betweenness_brandes_batched(const CSRGraph<V>& g, const std::vector<V>& sources, NumaArray<double>& scores,
                                 BrandesBatchedWorkspace<V>& ws, const BrandesBatchedOptions& options = {}) {
  for (const int level : options.start_levels)
    if (level < 0 || level > kMaxStartLevel)
      throw UsageError("batched betweenness: start level " + std::to_string(level) + " is outside 0.." +
                       std::to_string(kMaxStartLevel) + " (give each lane's start level in that range)");
  const std::int64_t n = g.num_vertices();
  if (scores.size() != static_cast<std::size_t>(n))
    scores = NumaArray<double>(static_cast<std::size_t>(n), numa::placement_for("scores"));
  else parallel::for_static(std::int64_t{0}, n, [&](std::int64_t v) { scores[v] = 0; });
  if (n == 0 || sources.empty()) return;
  const int batch = std::clamp(options.batch, 1, 16);
  const int lanes = batched_lanes(batch);
  ws.prepare(n, lanes);
  for (std::size_t first = 0; first < sources.size(); first += static_cast<std::size_t>(batch)) {
    throw_if_cancelled();
    const int active = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(batch), sources.size() - first));
    ws.clean = false;
    const V* src = sources.data() + first;
    if (lanes == 4) bc_batched_detail::run_batch_counted<4>(g, src, active, scores.data(), ws, options);
    else if (lanes == 8) bc_batched_detail::run_batch_counted<8>(g, src, active, scores.data(), ws, options);
    else bc_batched_detail::run_batch_counted<16>(g, src, active, scores.data(), ws, options);
    ws.clean = true;
  }
}

template <typename V>
NumaArray<double> betweenness_brandes_batched(const CSRGraph<V>& g, const std::vector<V>& sources,
                                              const BrandesBatchedOptions& options = {}) {
  NumaArray<double> scores;
  BrandesBatchedWorkspace<V> ws;
  betweenness_brandes_batched(g, sources, scores, ws, options);
  return scores;
}

}  // namespace numagraph::kernels
