#include "local_lists.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <bit>
#include <memory>
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

// Ghost id -> ghost number when the ids are few next to the arcs: a bitmap
// of the ghosts over all n ids and the set bits before each word, about
// n / 5 bytes. A bit costs no probe, and the ghosts come out sorted.
class GhostBitmap {
 public:
  // Worth it when the bitmap takes at most about a byte per arc.
  static bool fits(std::int64_t n, std::int64_t arcs) { return n / 5 <= arcs; }

  explicit GhostBitmap(std::int64_t n) : bits_((static_cast<std::size_t>(n) + 63) / 64, 0) {}

  void set(std::uint64_t v, bool shared) {
    const std::uint64_t bit = std::uint64_t{1} << (v & 63);
    std::uint64_t& word = bits_[v >> 6];
    if (word & bit) return;
    if (shared)
      __atomic_fetch_or(&word, bit, __ATOMIC_RELAXED);
    else
      word |= bit;
  }

  // The ghosts, ascending; numbers them for of().
  std::vector<std::uint64_t> finish() {
    before_.resize(bits_.size());
    std::uint32_t count = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = count;
      count += static_cast<std::uint32_t>(std::popcount(bits_[w]));
    }
    std::vector<std::uint64_t> ghosts(count);
#pragma omp parallel for schedule(static)
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      std::size_t at = before_[w];
      for (std::uint64_t b = bits_[w]; b; b &= b - 1) ghosts[at++] = w * 64 + static_cast<std::uint64_t>(std::countr_zero(b));
    }
    return ghosts;
  }

  // v must be a ghost.
  std::uint32_t of(std::uint64_t v) const {
    const std::uint64_t below = bits_[v >> 6] & ((std::uint64_t{1} << (v & 63)) - 1);
    return before_[v >> 6] + static_cast<std::uint32_t>(std::popcount(below));
  }

 private:
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> before_;
};

// Ghost numbers by whichever of the two fits: the bitmap when ids are few
// next to the arcs, else the hash table.
class GhostIndex {
 public:
  std::vector<std::uint64_t> ghosts;  // sorted, distinct

  template <typename ForEachCol>
  GhostIndex(const DistCsr& g, std::int64_t arcs, ForEachCol&& for_each_col) {
    if (GhostBitmap::fits(g.n, arcs)) {
      bitmap_ = std::make_unique<GhostBitmap>(g.n);
      const bool shared = parallel::max_threads() > 1;
      for_each_col([&](std::uint64_t col) {
        if (!g.owns(col)) bitmap_->set(col, shared);
      });
      ghosts = bitmap_->finish();
      return;
    }
    const int threads = parallel::max_threads();
    std::vector<IdSet> found(static_cast<std::size_t>(threads));
    for_each_col([&](std::uint64_t col) {
      if (!g.owns(col)) found[static_cast<std::size_t>(parallel::thread_id())].insert(col);
    });
    for (const IdSet& f : found) f.append_to(ghosts);
    found = {};
    __gnu_parallel::sort(ghosts.begin(), ghosts.end());
    ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  }

  // Numbers the ghosts (the sorted list the constructor found).
  void number(const std::vector<std::uint64_t>& sorted) {
    if (!bitmap_) table_ = std::make_unique<GhostNumbers>(sorted);
  }

  std::uint32_t of(std::uint64_t v) const { return bitmap_ ? bitmap_->of(v) : table_->of(v); }

 private:
  std::unique_ptr<GhostBitmap> bitmap_;
  std::unique_ptr<GhostNumbers> table_;
};

// Calls f(col) for the far end of every arc of `out` and `in`, in parallel
// (inside an OpenMP region, so f may use the thread id).
template <typename A>
auto arc_ends(const std::vector<A>& out, const std::vector<A>& in) {
  return [&out, &in](auto&& f) {
#pragma omp parallel
    {
      const int t = parallel::thread_id(), nt = parallel::num_threads_in_region();
      for (const std::vector<A>* arcs : {&out, &in}) {
        const auto m = static_cast<std::int64_t>(arcs->size());
        for (std::int64_t i = m * t / nt, hi = m * (t + 1) / nt; i < hi; ++i) f((*arcs)[i].col);
      }
    }
  };
}

// Order ids: ghosts below my block [0, below), mine [below, below + n),
// ghosts above it [below + n, n + ghosts). They sort as the global ids do.
inline std::uint32_t order_id(const DistCsr& g, const GhostIndex& numbers, std::uint64_t col) {
  const auto first = static_cast<std::uint64_t>(g.first);
  const auto below = static_cast<std::uint32_t>(g.ghost_from[g.rank]);
  const auto own = static_cast<std::uint64_t>(g.local_n);
  if (col - first < own) return below + static_cast<std::uint32_t>(col - first);
  const std::uint32_t h = numbers.of(col);
  return h < below ? h : static_cast<std::uint32_t>(own) + h;
}

// Lists of order ids: the shared builder's sort and clean, then order ids to
// local indices in place (mine are 0 .. n-1, ghost h is n + h).
CSRArrays<std::uint32_t> clean_to_local(const DistCsr& g, CSRArrays<std::uint32_t>&& lists, bool drop_loops,
                                        bool dedupe, build::ListCounts& counts) {
  CSRArrays<std::uint32_t> a = std::move(lists);
  const std::int64_t n = g.local_n;
  const auto below = static_cast<std::uint32_t>(g.ghost_from[g.rank]);
  const auto own = static_cast<std::uint32_t>(n);
  counts = build::sort_and_clean_lists(a, n, drop_loops, dedupe, below);
  const auto kept = static_cast<std::int64_t>(n == 0 ? 0 : a.offsets[n]);
  std::uint32_t* const ids = a.neighbors.data();
  parallel::for_static<std::int64_t>(0, kept, [&](std::int64_t j) {
    const std::uint32_t o = ids[j];
    ids[j] = o < below ? own + o : o < below + own ? o - below : o;
  });
  return a;
}

// The neighbour lists of my vertices from their arcs (consumed): a counting
// sort by row into order ids, the shared builder's sort and clean, then
// order ids to local indices in place.
template <typename A>
CSRArrays<std::uint32_t> lists_of(const DistCsr& g, const GhostIndex& numbers, std::vector<A>&& consumed,
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

  std::uint32_t* const nb = a.neighbors.data();
  weight_t* const wt = weighted ? a.weights.data() : nullptr;
  // In pieces, each piece's arcs given back once scattered: the arcs and
  // the lists they fill are not both held whole.
  constexpr std::int64_t kPieceArcs = std::int64_t{1} << 22;
  ConsumedPages scattered(arcs.data(), arcs.size() * sizeof(A));
  for (std::int64_t lo = 0; lo < m; lo += kPieceArcs) {
    parallel::for_static<std::int64_t>(lo, std::min(m, lo + kPieceArcs), [&](std::int64_t i) {
      const std::uint32_t row = arcs[i].row;
      const eid_t k = shared ? parallel::fetch_add(at[row], eid_t{1}) : at[row]++;
      nb[k] = order_id(g, numbers, arcs[i].col);
      if (weighted) wt[k] = arcs[i].weight();
    });
    scattered.upto(static_cast<std::size_t>(std::min(m, lo + kPieceArcs)) * sizeof(A));
  }
  at = {};
  arcs = {};
  numa::release_recycled();  // `at`: the load's peak is here, not a kernel's scratch
  return clean_to_local(g, std::move(a), drop_loops, dedupe, counts);
}

// The lists of my vertices from lists already sorted by global id (a .ngr's
// block): the far ends become order ids in place of a counting sort; the
// lists stay sorted, so the clean is one linear pass.
CSRArrays<std::uint32_t> lists_of_sorted(const DistCsr& g, const GhostIndex& numbers, const SortedLists& src,
                                         bool weighted, bool drop_loops, bool dedupe, build::ListCounts& counts) {
  const std::int64_t n = g.local_n;
  const eid_t base = src.offsets[0];
  const auto m = static_cast<std::int64_t>(src.offsets[n] - base);
  CSRArrays<std::uint32_t> a;
  a.offsets = NumaArray<eid_t>::for_overwrite(static_cast<std::size_t>(n) + 1);
  parallel::for_static<std::int64_t>(0, n + 1, [&](std::int64_t v) { a.offsets[v] = src.offsets[v] - base; });
  a.neighbors = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(m));
  if (weighted) a.weights = NumaArray<weight_t>::for_overwrite(static_cast<std::size_t>(m));
  std::uint32_t* const nb = a.neighbors.data();
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t k) {
    nb[k] = order_id(g, numbers, src.id(base + k));
    if (weighted) a.weights[k] = src.weights[base + k];
  });
  return clean_to_local(g, std::move(a), drop_loops, dedupe, counts);
}

}  // namespace

namespace {

// Ghosts, their runs per owner and the mirror lists agreed with the owners.
// Collective.
void settle_ghosts(DistCsr& g, GhostIndex& numbers) {
  const std::int64_t held = max_all(g.local_n + static_cast<std::int64_t>(numbers.ghosts.size()), g.comm);
  if (held >= (std::int64_t{1} << 32) - 1)  // the same answer on every rank
    throw ResourceError("a rank would hold " + std::to_string(held) +
                        " vertices and ghosts, more than 32-bit local indices address: run with more ranks");
  g.ghost_global = std::move(numbers.ghosts);
  numbers.ghosts = {};
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
  numbers.number(g.ghost_global);
}

LocalListCounts finish_counts(DistCsr& g, const build::ListCounts& oc) {
  g.global_arcs = sum_all(g.local_n == 0 ? 0 : static_cast<std::int64_t>(g.out.offsets[g.local_n]), g.comm);
  LocalListCounts c;
  c.self_loops_removed = oc.loops_removed;
  c.duplicates_removed = oc.duplicates_removed;
  c.self_loops_kept = oc.loops_kept;
  return c;
}

}  // namespace

template <typename A>
LocalListCounts finish_local_csr(DistCsr& g, std::vector<A>&& out, std::vector<A>&& in, bool drop_self_loops,
                                 bool dedupe) {
  if (!g.directed) in = {};
  GhostIndex numbers(g, static_cast<std::int64_t>(out.size() + in.size()), arc_ends(out, in));
  settle_ghosts(g, numbers);
  build::ListCounts oc, ic;
  g.out = lists_of(g, numbers, std::move(out), drop_self_loops, dedupe, oc);
  if (g.directed) g.in = lists_of(g, numbers, std::move(in), drop_self_loops, dedupe, ic);
  return finish_counts(g, oc);
}

LocalListCounts finish_local_csr(DistCsr& g, const SortedLists& out, const SortedLists& in, bool drop_self_loops,
                                 bool dedupe) {
  const auto arcs_of = [&](const SortedLists& l) {
    return l.offsets && g.local_n > 0 ? static_cast<std::int64_t>(l.offsets[g.local_n] - l.offsets[0]) : 0;
  };
  const SortedLists none;
  const SortedLists& in_lists = g.directed ? in : none;
  GhostIndex numbers(g, arcs_of(out) + arcs_of(in_lists), [&](auto&& f) {
    for (const SortedLists* l : {&out, &in_lists}) {
      if (!l->offsets) continue;
      const eid_t lo = l->offsets[0], hi = l->offsets[g.local_n];
#pragma omp parallel for schedule(static)
      for (eid_t k = lo; k < hi; ++k) f(l->id(k));
    }
  });
  settle_ghosts(g, numbers);
  build::ListCounts oc, ic;
  g.out = lists_of_sorted(g, numbers, out, g.weighted, drop_self_loops, dedupe, oc);
  if (g.directed) g.in = lists_of_sorted(g, numbers, in, g.weighted, drop_self_loops, dedupe, ic);
  return finish_counts(g, oc);
}

template LocalListCounts finish_local_csr(DistCsr&, std::vector<Arc>&&, std::vector<Arc>&&, bool, bool);
template LocalListCounts finish_local_csr(DistCsr&, std::vector<BareArc>&&, std::vector<BareArc>&&, bool, bool);

}  // namespace numagraph::dist
