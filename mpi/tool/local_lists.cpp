#include "local_lists.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "consumed_pages.hpp"
#include "exchange.hpp"
#include "neighbor_lists.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

constexpr std::uint64_t kNoId = ~std::uint64_t{0};  // dense ids stay below 2^63

// Fibonacci hashing: the top bits of the product index a power-of-two table.
inline std::size_t slot_of(std::uint64_t v, int shift) {
  return static_cast<std::size_t>((v * 0x9E3779B97F4A7C15ULL) >> shift);
}

// One thread's set of distinct ids: open addressing, linear probing, doubled
// when half full. Ghosts are few next to the arcs that name them, so each
// arc costs one probe of a table that mostly stays in cache.
class IdSet {
 public:
  IdSet() { resize(1024); }

  void insert(std::uint64_t v) {
    std::size_t i = slot_of(v, shift_);
    while (slots_[i] != kNoId) {
      if (slots_[i] == v) return;
      i = (i + 1) & mask_;
    }
    slots_[i] = v;
    if (2 * ++count_ > slots_.size()) resize(2 * slots_.size());
  }

  void append_to(std::vector<std::uint64_t>& out) const {
    for (const std::uint64_t s : slots_)
      if (s != kNoId) out.push_back(s);
  }

 private:
  void resize(std::size_t capacity) {
    std::vector<std::uint64_t> old = std::move(slots_);
    slots_.assign(capacity, kNoId);
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    count_ = 0;
    for (const std::uint64_t s : old)
      if (s != kNoId) insert(s);
  }

  std::vector<std::uint64_t> slots_;
  std::size_t mask_ = 0, count_ = 0;
  int shift_ = 64;
};

// Ghost id -> ghost number, read-only once built (threads share it).
class GhostNumbers {
 public:
  explicit GhostNumbers(const std::vector<std::uint64_t>& ghosts) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(1024, 2 * ghosts.size()));
    keys_.assign(capacity, kNoId);
    numbers_.resize(capacity);
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    for (std::size_t h = 0; h < ghosts.size(); ++h) {
      std::size_t i = slot_of(ghosts[h], shift_);
      while (keys_[i] != kNoId) i = (i + 1) & mask_;
      keys_[i] = ghosts[h];
      numbers_[i] = static_cast<std::uint32_t>(h);
    }
  }

  // v must be a ghost.
  std::uint32_t of(std::uint64_t v) const {
    std::size_t i = slot_of(v, shift_);
    while (keys_[i] != v) i = (i + 1) & mask_;
    return numbers_[i];
  }

 private:
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> numbers_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

// The far ends of my arcs that I do not own, sorted and distinct.
template <typename A>
std::vector<std::uint64_t> distinct_ghosts(const DistCsr& g, const std::vector<A>& out, const std::vector<A>& in) {
  const int threads = parallel::max_threads();
  std::vector<std::vector<std::uint64_t>> found(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    const int t = parallel::thread_id(), nt = parallel::num_threads_in_region();
    IdSet mine;
    for (const std::vector<A>* arcs : {&out, &in}) {
      const auto m = static_cast<std::int64_t>(arcs->size());
      for (std::int64_t i = m * t / nt, hi = m * (t + 1) / nt; i < hi; ++i) {
        const std::uint64_t col = (*arcs)[i].col;
        if (!g.owns(col)) mine.insert(col);
      }
    }
    mine.append_to(found[static_cast<std::size_t>(t)]);
  }
  std::vector<std::uint64_t> ghosts = std::move(found[0]);
  for (std::size_t t = 1; t < found.size(); ++t) ghosts.insert(ghosts.end(), found[t].begin(), found[t].end());
  __gnu_parallel::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  return ghosts;
}

// The neighbour lists of my vertices from their arcs (consumed): a counting
// sort by row into order ids, the shared builder's sort and clean, then
// order ids to local indices in place.
template <typename A>
CSRArrays<std::uint32_t> lists_of(const DistCsr& g, const GhostNumbers& numbers, std::vector<A>&& consumed,
                                  bool drop_loops, bool dedupe, build::ListCounts& counts) {
  std::vector<A> arcs = std::move(consumed);
  const std::int64_t n = g.local_n;
  const auto m = static_cast<std::int64_t>(arcs.size());
  const bool weighted = g.weighted;
  const bool shared = parallel::max_threads() > 1;  // slots claimed atomically only when threads share them
  CSRArrays<std::uint32_t> a;
  a.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1);
  parallel::for_static<std::int64_t>(0, n + 1, [&](std::int64_t v) { a.offsets[v] = 0; });
  eid_t* const off = a.offsets.data();
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    if (shared)
      parallel::fetch_add(off[arcs[i].row], eid_t{1});
    else
      ++off[arcs[i].row];
  });
  parallel::exclusive_prefix_sum(off, off, n);
  a.neighbors = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(m));
  if (weighted) a.weights = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(m));
  auto at = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n));
  parallel::for_static<std::int64_t>(0, n, [&](std::int64_t v) { at[v] = off[v]; });

  // Order ids: ghosts below my block [0, below), mine [below, below + n),
  // ghosts above it [below + n, n + ghosts).
  const auto first = static_cast<std::uint64_t>(g.first);
  const auto below = static_cast<std::uint32_t>(g.ghost_from[g.rank]);
  const auto own = static_cast<std::uint64_t>(n);
  std::uint32_t* const nb = a.neighbors.data();
  weight_t* const wt = weighted ? a.weights.data() : nullptr;
  // In pieces, each piece's arcs given back once scattered: the arcs and
  // the lists they fill are not both held whole.
  constexpr std::int64_t kPieceArcs = std::int64_t{1} << 22;
  ConsumedPages scattered(arcs.data(), arcs.size() * sizeof(A));
  for (std::int64_t lo = 0; lo < m; lo += kPieceArcs) {
    parallel::for_static<std::int64_t>(lo, std::min(m, lo + kPieceArcs), [&](std::int64_t i) {
      const std::uint64_t col = arcs[i].col;
      const std::uint32_t row = arcs[i].row;
      std::uint32_t order;
      if (col - first < own) {
        order = below + static_cast<std::uint32_t>(col - first);
      } else {
        const std::uint32_t h = numbers.of(col);
        order = h < below ? h : static_cast<std::uint32_t>(own) + h;
      }
      const eid_t k = shared ? parallel::fetch_add(at[row], eid_t{1}) : at[row]++;
      nb[k] = order;
      if (weighted) wt[k] = arcs[i].weight();
    });
    scattered.upto(static_cast<std::size_t>(std::min(m, lo + kPieceArcs)) * sizeof(A));
  }
  at = {};
  arcs = {};
  numa::release_recycled();  // `at`: the load's peak is here, not a kernel's scratch
  counts = build::sort_and_clean_lists(a, n, drop_loops, dedupe, below);

  // Order ids to local indices: mine are 0 .. n-1, ghost h is n + h.
  const auto kept = static_cast<std::int64_t>(n == 0 ? 0 : a.offsets[n]);
  std::uint32_t* const ids = a.neighbors.data();
  parallel::for_static<std::int64_t>(0, kept, [&](std::int64_t j) {
    const std::uint32_t o = ids[j];
    ids[j] = o < below ? static_cast<std::uint32_t>(own) + o : o < below + own ? o - below : o;
  });
  return a;
}

}  // namespace

template <typename A>
LocalListCounts finish_local_csr(DistCsr& g, std::vector<A>&& out, std::vector<A>&& in, bool drop_self_loops,
                                 bool dedupe) {
  if (!g.directed) in = {};
  std::vector<std::uint64_t> ghosts = distinct_ghosts(g, out, in);
  const std::int64_t held = max_all(g.local_n + static_cast<std::int64_t>(ghosts.size()), g.comm);
  if (held >= (std::int64_t{1} << 32) - 1)  // the same answer on every rank
    throw ResourceError("a rank would hold " + std::to_string(held) +
                        " vertices and ghosts, more than 32-bit local indices address: run with more ranks");
  g.ghost_global = std::move(ghosts);
  g.ghost_from.assign(static_cast<std::size_t>(g.ranks) + 1, 0);
  for (int r = 0; r < g.ranks; ++r)
    g.ghost_from[r + 1] = std::lower_bound(g.ghost_global.begin(), g.ghost_global.end(),
                                           static_cast<std::uint64_t>(g.blocks.begin[r + 1])) -
                          g.ghost_global.begin();
  // Tell every owner which of its vertices I mirror, in my ghost order.
  std::vector<std::vector<std::uint64_t>> ask(static_cast<std::size_t>(g.ranks));
  for (int r = 0; r < g.ranks; ++r)
    ask[r].assign(g.ghost_global.begin() + g.ghost_from[r], g.ghost_global.begin() + g.ghost_from[r + 1]);
  const Received<std::uint64_t> asked = exchange(ask, g.comm, "the ghost lists");
  ask = {};
  g.mirror_from = asked.from;
  g.mirror_local.resize(asked.items.size());
  for (std::size_t i = 0; i < asked.items.size(); ++i)
    g.mirror_local[i] = static_cast<std::uint32_t>(asked.items[i] - static_cast<std::uint64_t>(g.first));

  const GhostNumbers numbers(g.ghost_global);
  build::ListCounts oc, ic;
  g.out = lists_of(g, numbers, std::move(out), drop_self_loops, dedupe, oc);
  if (g.directed) g.in = lists_of(g, numbers, std::move(in), drop_self_loops, dedupe, ic);
  g.global_arcs = sum_all(g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]), g.comm);
  LocalListCounts c;
  c.self_loops_removed = oc.loops_removed;
  c.duplicates_removed = oc.duplicates_removed;
  c.self_loops_kept = oc.loops_kept;
  return c;
}

template LocalListCounts finish_local_csr(DistCsr&, std::vector<Arc>&&, std::vector<Arc>&&, bool, bool);
template LocalListCounts finish_local_csr(DistCsr&, std::vector<BareArc>&&, std::vector<BareArc>&&, bool, bool);

}  // namespace numagraph::dist
