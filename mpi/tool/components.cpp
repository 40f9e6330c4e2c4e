#include "components.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "components_gathered.hpp"
#include "exchange.hpp"
#include "local_roots.hpp"
#include "numagraph/kernels/cc/link.hpp"
#include "numagraph/numa/machine_resources.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

namespace {

// What travels between ranks in a round, 16 bytes each:
//   kToOwner, kToGhost: a shared vertex's new label, from a ghost to its
//     owner or from the owner to a rank mirroring it. `index` is the copy's
//     place in the run the two ranks share (the sender's ghosts of the
//     receiver are the receiver's mirrors for the sender, in the same order).
//   kAsk: what is the label of the receiver's vertex `index` (owner-local)?
//   kAnswer: the sender's vertex `index` (owner-local) has label `label`.
//   kHook: the receiver's vertex `index` (owner-local) is in a component
//     whose label is now `label`: lower that vertex's label to it.
enum NoteKind : std::uint32_t { kToOwner, kToGhost, kAsk, kAnswer, kHook };
struct LabelNote {
  std::uint64_t label;
  std::uint32_t index;
  NoteKind kind;
};

// Links my vertices and ghosts along the arcs I hold, Afforest's way
// (Sutton, Ben-Nun, Barak 2018; numagraph/kernels/cc/afforest.hpp), in
// three steps around two exchanges:
//  1. sample(): every vertex's first two arcs (out-arcs, or an out-arc and
//     an in-arc), then a guess of my giant component G from a sample of
//     roots; the vertices in G then are S. The ranks swap the S bits of
//     the vertices they share.
//  2. link_giants(): the arcs between S and a ghost in its owner's S are
//     what neither side would link in step 3; any one of them joins the two
//     giants, so I link one per owner rank. The ranks then swap which
//     giants they joined.
//  3. finish(): every arc of my vertices outside S. A vertex in S skips its
//     arcs to my own vertices, as in the shared kernel, and its arcs to
//     ghosts too, because every crossing arc is also in the lists of its
//     other end's owner: a ghost outside its owner's S links it there.
//     When step 2 joined every rank's giant into one component, a vertex
//     outside S whose sampled arcs reached a ghost in its owner's S (set T)
//     is in that component too and skips its arcs as well: an arc between
//     two vertices of S or T joins nothing new, and any other arc is linked
//     by its end outside them. On Kronecker scale 20 at 2 ranks, T is 97 %
//     of the vertices outside S that have arcs: they had reached the giant
//     only through another rank's vertices, and reading their lists cost
//     more than all the other work of this step.
// Membership is S and T, fixed after the samples on every rank, never the
// live labels, so that both owners of a crossing arc judge it by the same
// facts.
class LocalLinks {
  static constexpr int kSampleRounds = 2;  // as the shared kernel's default

 public:
  explicit LocalLinks(const DistCsr& g) : g_(g) {}

  // Step 1; returns, for every rank, the S bits of the vertices it mirrors,
  // in its ghost order.
  std::vector<std::vector<std::uint8_t>> sample() {
    const std::int64_t n = g_.local_n, total = g_.local_total();
    comp_ = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(total));
    std::uint32_t* const c = comp_.data();
    parallel::for_static<std::int64_t>(0, total, [&](std::int64_t x) { c[x] = static_cast<std::uint32_t>(x); });
    in_sample_.assign(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<std::uint8_t>> tell(static_cast<std::size_t>(g_.ranks));
    if (n == 0) return tell;
    const std::int64_t chunk = kernels::cc_detail::link_chunk(n);
    // As the shared kernel: labels beyond 1/16 of the L3 miss, so the link 16
    // vertices on prefetches its far end's label.
    const bool prefetch =
        static_cast<std::uint64_t>(total) * sizeof(std::uint32_t) > numa::last_level_cache_bytes() / 16;
    // Out-arcs and in-arcs in turn on a directed graph (cc_detail::sampled_arc):
    // on kron20 at 2 ranks this cut the arcs finish() links from 400 K to 77 K.
    reach_ = NumaArray<std::uint32_t>::for_overwrite(static_cast<std::size_t>(n));
    for (int r = 0; r < kSampleRounds; ++r) {
      const kernels::cc_detail::SampledArc arc = kernels::cc_detail::sampled_arc(r, g_.directed);
      const CSRArrays<std::uint32_t>& lists = arc.in_list ? g_.in : g_.out;
      link_sampled_noting_reach(lists.offsets.data(), lists.neighbors.data(), arc.index, r == 0, prefetch, chunk);
      // My vertices only: the next links start from them, and S is theirs.
      // A ghost's path stays correct, and local_roots() compresses it. The
      // last round's compression is the pass below.
      if (r + 1 < kSampleRounds) kernels::cc_detail::compress(c, n);
    }
    const std::uint32_t giant = giant_ = kernels::cc_detail::most_frequent_sampled_label<std::uint32_t>(
        static_cast<std::uint64_t>(n), 27491095, [c](std::size_t v) { return kernels::cc_detail::root_of(c, c[v]); });
    std::uint8_t* const in_s = in_sample_.data();
    std::uint32_t* const reach = reach_.data();
    // Compression and S in one pass, without branches: S is a coin toss per
    // vertex on Kronecker graphs.
#pragma omp parallel for schedule(dynamic, chunk)
    for (std::int64_t v = 0; v < n; ++v) {
      const std::uint32_t root = kernels::cc_detail::root_of(c, __atomic_load_n(&c[v], __ATOMIC_RELAXED));
      __atomic_store_n(&c[v], root, __ATOMIC_RELAXED);
      const bool in = root == giant;
      in_s[v] = in;
      reach[v] = in ? kNothingToLink : reach[v];  // finish() then tests one word
    }
    for (int p = 0; p < g_.ranks; ++p) {
      tell[p].resize(static_cast<std::size_t>(g_.mirror_from[p + 1] - g_.mirror_from[p]));
      for (std::int64_t i = g_.mirror_from[p]; i < g_.mirror_from[p + 1]; ++i)
        tell[p][i - g_.mirror_from[p]] = in_s[g_.mirror_local[i]];
    }
    return tell;
  }

  // Step 2, given the S bits of my ghosts (ghost order): links my giant to
  // each owner's. Returns my row of the giants' ties:
  // [p] is 1 when my giant is now joined to rank p's, [my rank] when I
  // have a giant.
  std::vector<std::uint8_t> link_giants(const std::vector<std::uint8_t>& ghost_in_sample) {
    const std::int64_t n = g_.local_n;
    std::vector<std::uint8_t> row(static_cast<std::size_t>(g_.ranks), 0);
    if (n == 0) return row;
    row[static_cast<std::size_t>(g_.rank)] = 1;
    std::uint32_t* const c = comp_.data();
    const std::uint8_t* const in_s = in_sample_.data();
    const std::uint8_t* const ghost_s = ghost_in_sample.data();
    const auto own = static_cast<std::uint32_t>(n);
    // Per owner rank: whether my giant is joined to its giant yet.
    std::uint8_t* const joined = row.data();
    int owners_left = 0;
    std::vector<std::uint8_t> wanted(static_cast<std::size_t>(g_.ranks), 0);
    for (int p = 0; p < g_.ranks; ++p)
      for (std::int64_t h = g_.ghost_from[p]; h < g_.ghost_from[p + 1] && !wanted[p]; ++h) wanted[p] = ghost_s[h];
    for (int p = 0; p < g_.ranks; ++p) owners_left += wanted[p];
    const std::int64_t* const ghost_from = g_.ghost_from.data();
    const int ranks = g_.ranks;
    // A list is sorted by global id, so its ghosts are a head (ids below my
    // block) and a tail (above it).
    auto scan = [&](std::uint32_t u, const std::uint32_t* nb, eid_t b, eid_t e) {
      auto consider = [&](std::uint32_t x) {
        const std::uint32_t h = x - own;
        if (!ghost_s[h]) return;
        const int p = static_cast<int>(std::upper_bound(ghost_from, ghost_from + ranks + 1, static_cast<std::int64_t>(h)) -
                                       ghost_from) - 1;
        if (joined[p]) return;
        kernels::cc_detail::link(u, x, c);
        joined[p] = 1;
        --owners_left;
      };
      for (; b < e && nb[b] >= own; ++b) consider(nb[b]);
      for (; e > b && nb[e - 1] >= own; --e) consider(nb[e - 1]);
    };
    const eid_t* const out_off = g_.out.offsets.data();
    const std::uint32_t* const out_nb = g_.out.neighbors.data();
    const eid_t* const in_off = g_.directed ? g_.in.offsets.data() : nullptr;
    const std::uint32_t* const in_nb = g_.directed ? g_.in.neighbors.data() : nullptr;
    // Usually over after a few vertices: one thread, stopping there. (A
    // giant that touches no other rank's giant has every list head and tail
    // of S scanned.) Whole lists: a sampled arc may be the one that joined.
    for (std::int64_t v = 0; v < n && owners_left > 0; ++v) {
      if (!in_s[v]) continue;
      const auto u = static_cast<std::uint32_t>(v);
      scan(u, out_nb, out_off[v], out_off[v + 1]);
      if (in_nb != nullptr) scan(u, in_nb, in_off[v], in_off[v + 1]);
    }
    return row;
  }

  // Step 3, given the S bits of my ghosts again and whether every rank's
  // giant is in one component (then T skips its arcs). Returns the forest
  // of the local components, for local_roots().
  NumaArray<std::uint32_t> finish(const std::vector<std::uint8_t>& ghost_in_sample, bool giants_joined) {
    const std::int64_t n = g_.local_n;
    std::uint32_t* const c = comp_.data();
    if (n == 0) return std::move(comp_);
    const eid_t* const out_off = g_.out.offsets.data();
    const std::uint32_t* const out_nb = g_.out.neighbors.data();
    const eid_t* const in_off = g_.directed ? g_.in.offsets.data() : nullptr;
    const std::uint32_t* const in_nb = g_.directed ? g_.in.neighbors.data() : nullptr;
    const int sampled_out = kernels::cc_detail::sampled_out_arcs(kSampleRounds, g_.directed);
    const int sampled_in = kernels::cc_detail::sampled_in_arcs(kSampleRounds, g_.directed);
    const std::uint8_t* const ghost_s = ghost_in_sample.data();
    const std::uint32_t* const reach = reach_.data();
    const std::int64_t chunk = kernels::cc_detail::link_chunk(n);
#pragma omp parallel for schedule(dynamic, chunk)
    for (std::int64_t v = 0; v < n; ++v) {
      if (reach[v] == kNothingToLink) continue;  // in S, or without arcs
      // T is the vertices whose sampled arcs reached a ghost in its owner's
      // S straight (on Kronecker scale 20 at 2 ranks, 97 % of those outside
      // S with arcs); one that reached it over a vertex of mine outside S
      // links its arcs, which is correct as well.
      if (giants_joined && reach[v] != kNoGhost && ghost_s[reach[v]]) continue;
      const auto u = static_cast<std::uint32_t>(v);
      // Past the arcs sample() linked; an arc counts both ways.
      for (eid_t j = std::min(out_off[v] + sampled_out, out_off[v + 1]); j < out_off[v + 1]; ++j)
        kernels::cc_detail::link(u, out_nb[j], c);
      if (in_nb != nullptr)
        for (eid_t j = std::min(in_off[v] + sampled_in, in_off[v + 1]); j < in_off[v + 1]; ++j)
          kernels::cc_detail::link(u, in_nb[j], c);
    }
    // Uncompressed: local_roots() compresses in its pass over every index.
    return std::move(comp_);
  }

  // A local index in S (Giants::kNoGiant when I have no vertices).
  std::uint32_t giant() const { return giant_; }

 private:
  // What a vertex's sampled arcs reached (reach_): no arc at all (then it
  // has none: the samples read the head of every list), only my vertices,
  // or else the first ghost, by its ghost index. A vertex in S has nothing
  // to link either.
  static constexpr std::uint32_t kNothingToLink = 0xFFFFFFFF, kNoGhost = 0xFFFFFFFE;

  // One sample round (cc_detail::link_sampled_arcs) that also notes, while
  // the arc is in hand, what it reached: finish() then knows T and the
  // vertices without arcs without reading their lists again.
  void link_sampled_noting_reach(const eid_t* off, const std::uint32_t* nb, int index, bool first, bool prefetch,
                                 std::int64_t chunk) {
    const auto own = static_cast<std::uint32_t>(g_.local_n);
    std::uint32_t* const reach = reach_.data();
    kernels::cc_detail::link_sampled_arcs(off, nb, index, g_.local_n, comp_.data(), prefetch, chunk,
                                          [=](std::int64_t u, const std::uint32_t* arc) {
                                            std::uint32_t seen = first ? kNothingToLink : reach[u];
                                            if (arc && seen >= kNoGhost) seen = *arc >= own ? *arc - own : kNoGhost;
                                            reach[u] = seen;
                                          });
  }

  const DistCsr& g_;
  NumaArray<std::uint32_t> comp_;
  std::vector<std::uint8_t> in_sample_;  // per own vertex: in S
  NumaArray<std::uint32_t> reach_;       // per own vertex: kNothingToLink, kNoGhost or a ghost index
  std::uint32_t giant_ = Giants::kNoGiant;  // a vertex in S, when I have vertices
};

// Whether the ranks' giants are all in one component, from every rank's
// row of link_giants() (rows[r * ranks + p]): union-find over the ranks.
bool giants_all_joined(const std::vector<std::uint8_t>& rows, int ranks) {
  std::vector<int> parent(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) parent[r] = r;
  auto find = [&](int r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  for (int r = 0; r < ranks; ++r)
    for (int p = 0; p < ranks; ++p)
      if (p != r && rows[static_cast<std::size_t>(r) * ranks + p]) parent[find(r)] = find(p);
  int root = -1;
  for (int r = 0; r < ranks; ++r) {
    if (!rows[static_cast<std::size_t>(r) * ranks + r]) continue;  // no giant: no vertices
    if (root < 0) root = find(r);
    else if (find(r) != root) return false;
  }
  return true;
}

// The rounds of label propagation between the ranks' local components.
class LabelRounds {
 public:
  LabelRounds(const DistCsr& g, NumaArray<std::uint32_t> comp) : g_(g), comp_(std::move(comp)) {
    const std::int64_t total = g.local_total();
    LocalRoots local = local_roots(g, comp_.data());
    label_ = std::move(local.key);
    // The rounds' hooks, shortcuts and questions serve components of two or
    // more local members. A lone vertex of mine has no arcs (it would have
    // linked them); a lone ghost learns its label from its owner and has
    // nothing here to pass it on to. Both keep out of roots_, which every
    // round walks (on Kronecker graphs most roots are such).
    for (std::int64_t x = 0; x < total; ++x)
      if (comp_[x] == x && local.several[x]) roots_.push_back(static_cast<std::uint32_t>(x));
    asked_.assign(roots_.size(), kNotAsked);
    before_.resize(roots_.size());
    for (std::size_t k = 0; k < roots_.size(); ++k) before_[k] = label_[roots_[k]];
    ghost_heard_.assign(g.ghost_global.begin(), g.ghost_global.end());
    mirror_heard_.resize(g.mirror_local.size());
    parallel::for_static<std::size_t>(0, mirror_heard_.size(), [&](std::size_t i) {
      mirror_heard_[i] = static_cast<std::uint64_t>(g.first) + g.mirror_local[i];
    });
    send_.resize(static_cast<std::size_t>(g.ranks));
    questions_.resize(static_cast<std::size_t>(g.ranks));
  }

  // Fills the round's messages. Returns how many carry news (labels, hooks,
  // answers): a round without news anywhere ends the job, as then every
  // copy of every shared vertex has the same label. Questions only speed
  // things up, and are not counted.
  std::int64_t prepare() {
    for (auto& to : send_) to.clear();
    add_hooks();
    shortcut_locally();
    for (int p = 0; p < g_.ranks; ++p) {
      add_changed_copies(p);
      for (const std::uint32_t v : questions_[p]) {
        const std::uint64_t l = label_of(v);
        if (l < static_cast<std::uint64_t>(g_.first) + v) send_[p].push_back({l, v, kAnswer});
      }
      questions_[p].clear();
    }
    std::int64_t news = 0;
    for (const auto& to : send_) news += static_cast<std::int64_t>(to.size());
    add_questions();
    return news;
  }

  const std::vector<std::vector<LabelNote>>& messages() const { return send_; }
  std::int64_t message_count() const {
    std::int64_t c = 0;
    for (const auto& to : send_) c += static_cast<std::int64_t>(to.size());
    return c;
  }

  void apply(const Received<LabelNote>& got) {
    const std::int64_t n = g_.local_n;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> answers;  // (vertex, its label)
    for (int p = 0; p < g_.ranks; ++p) {
      for (std::int64_t k = got.from[p]; k < got.from[p + 1]; ++k) {
        const LabelNote& m = got.items[k];
        if (m.kind == kToOwner) {
          const std::int64_t i = g_.mirror_from[p] + m.index;
          mirror_heard_[i] = std::min(mirror_heard_[i], m.label);
          lower(comp_[g_.mirror_local[i]], m.label);
        } else if (m.kind == kToGhost) {
          const std::int64_t h = g_.ghost_from[p] + m.index;
          ghost_heard_[h] = std::min(ghost_heard_[h], m.label);
          lower(comp_[n + h], m.label);
        } else if (m.kind == kAsk) {
          questions_[p].push_back(m.index);
        } else if (m.kind == kHook) {
          lower(comp_[m.index], m.label);
        } else {
          answers.emplace_back(static_cast<std::uint64_t>(g_.blocks.begin[p]) + m.index, m.label);
        }
      }
    }
    if (answers.empty()) return;
    std::sort(answers.begin(), answers.end());
    for (const std::uint32_t r : roots_) {
      const auto it = std::lower_bound(answers.begin(), answers.end(), std::make_pair(label_[r], std::uint64_t{0}));
      if (it != answers.end() && it->first == label_[r]) lower(r, it->second);
    }
  }

  std::uint64_t final_label(std::int64_t v) const { return label_[comp_[v]]; }

 private:
  static constexpr std::uint64_t kNotAsked = std::numeric_limits<std::uint64_t>::max();

  std::uint64_t label_of(std::uint32_t own_vertex) const { return label_[comp_[own_vertex]]; }
  void lower(std::uint32_t root, std::uint64_t l) { label_[root] = std::min(label_[root], l); }

  // A label is a vertex id; when I own that vertex, its component's label,
  // no larger, is the label's better value (pointer jumping, done locally).
  void shortcut_locally() {
    for (const std::uint32_t r : roots_)
      if (g_.owns(label_[r])) lower(r, label_of(static_cast<std::uint32_t>(label_[r] - g_.first)));
  }

  // Hooking: a root whose label dropped from l to l' tells the component of
  // vertex l (same component, so it may take l') about l'. Components still
  // labelled l then learn l' by asking.
  void add_hooks() {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> hooks;  // (old label, new label)
    for (std::size_t k = 0; k < roots_.size(); ++k) {
      const std::uint64_t now = label_[roots_[k]];
      if (now < before_[k]) {
        if (g_.owns(before_[k]))
          lower(comp_[before_[k] - g_.first], now);
        else if (!is_my_ghost_member(before_[k], roots_[k]))  // else its changed copy tells the owner
          hooks.emplace_back(before_[k], now);
        before_[k] = now;
      }
    }
    std::sort(hooks.begin(), hooks.end());
    for (std::size_t i = 0; i < hooks.size(); ++i) {
      if (i > 0 && hooks[i].first == hooks[i - 1].first) continue;  // the smallest new label of each
      const int p = g_.blocks.owner(hooks[i].first);
      send_[p].push_back({hooks[i].second,
                          static_cast<std::uint32_t>(hooks[i].first - static_cast<std::uint64_t>(g_.blocks.begin[p])),
                          kHook});
    }
  }

  // Whether vertex l is a ghost of mine in the local component of `root`.
  bool is_my_ghost_member(std::uint64_t l, std::uint32_t root) const {
    const auto it = std::lower_bound(g_.ghost_global.begin(), g_.ghost_global.end(), l);
    return it != g_.ghost_global.end() && *it == l && comp_[g_.local_n + (it - g_.ghost_global.begin())] == root;
  }

  // The copies shared with rank p whose label dropped below what p last heard.
  void add_changed_copies(int p) {
    auto& to = send_[p];
    for (std::int64_t h = g_.ghost_from[p]; h < g_.ghost_from[p + 1]; ++h) {
      const std::uint64_t l = label_[comp_[g_.local_n + h]];
      if (l < ghost_heard_[h]) {
        ghost_heard_[h] = l;
        to.push_back({l, static_cast<std::uint32_t>(h - g_.ghost_from[p]), kToOwner});
      }
    }
    for (std::int64_t i = g_.mirror_from[p]; i < g_.mirror_from[p + 1]; ++i) {
      const std::uint64_t l = label_[comp_[g_.mirror_local[i]]];
      if (l < mirror_heard_[i]) {
        mirror_heard_[i] = l;
        to.push_back({l, static_cast<std::uint32_t>(i - g_.mirror_from[p]), kToGhost});
      }
    }
  }

  // Pointer jumping across ranks: each new label that is another rank's
  // vertex is asked about once; the answer (next round) may lower the label
  // of every component that carries it by many hops at once.
  void add_questions() {
    std::vector<std::uint64_t> ask;
    for (std::size_t k = 0; k < roots_.size(); ++k) {
      const std::uint64_t l = label_[roots_[k]];
      if (l == asked_[k] || g_.owns(l)) continue;
      asked_[k] = l;
      if (!is_my_ghost_member(l, roots_[k])) ask.push_back(l);  // else its owner tells that copy anyway
    }
    std::sort(ask.begin(), ask.end());
    ask.erase(std::unique(ask.begin(), ask.end()), ask.end());
    for (const std::uint64_t l : ask) {
      const int p = g_.blocks.owner(l);
      send_[p].push_back({0, static_cast<std::uint32_t>(l - static_cast<std::uint64_t>(g_.blocks.begin[p])), kAsk});
    }
  }

  const DistCsr& g_;
  NumaArray<std::uint32_t> comp_;
  NumaArray<std::uint64_t> label_;    // per root: the smallest global id in its component known so far
  std::vector<std::uint32_t> roots_;  // the roots of my local components
  std::vector<std::uint64_t> asked_;  // per root: the label last asked about
  std::vector<std::uint64_t> before_;  // per root: its label when the last round was prepared
  // What the other copy of each shared vertex has heard: its label is at most this.
  std::vector<std::uint64_t> ghost_heard_;   // my ghosts' owners
  std::vector<std::uint64_t> mirror_heard_;  // the ranks mirroring my vertices
  std::vector<std::vector<std::uint32_t>> questions_;  // per rank: my vertices it asked about
  std::vector<std::vector<LabelNote>> send_;
};

}  // namespace

DistCcResult connected_components(const DistCsr& g, std::int64_t gather_limit, StepTimes& times) {
  NumaArray<std::uint32_t> comp;
  Received<std::uint8_t> heard;  // the S bits of my ghosts
  Giants giants;
  {
    LocalLinks links(g);
    std::vector<std::vector<std::uint8_t>> tell;
    {
      Timed t(times.compute);
      tell = links.sample();
    }
    wait_for_all(times, g.comm);
    {
      Timed t(times.exchange);
      heard = exchange(tell, g.comm, "the giant components");
    }
    std::vector<std::uint8_t> row;
    {
      Timed t(times.compute);
      row = links.link_giants(heard.items);
    }
    wait_for_all(times, g.comm);
    std::vector<std::uint8_t> rows(row.size() * row.size());
    {
      Timed t(times.exchange);
      check(MPI_Allgather(row.data(), static_cast<int>(row.size()), MPI_UINT8_T, rows.data(),
                          static_cast<int>(row.size()), MPI_UINT8_T, g.comm),
            "MPI_Allgather");
    }
    Timed t(times.compute);
    giants.joined = giants_all_joined(rows, g.ranks);
    giants.giant = links.giant();
    giants.ghost_in_giant = &heard.items;
    comp = links.finish(heard.items, giants.joined);
  }
  DistCcResult r;
  if (gather_limit > 0) {
    GatheredComponents gathered = components_by_gathering(g, comp, giants, gather_limit, times);
    r.contracted_edges = gathered.contracted_edges;
    r.label_messages = gathered.copies_sent;
    if (!gathered.refused) {
      r.method = "gathered";
      r.rounds = 1;
      r.labels = std::move(gathered.labels);
      return r;
    }
  }
  std::optional<LabelRounds> rounds;
  {
    Timed t(times.compute);
    rounds.emplace(g, std::move(comp));
  }
  for (;;) {
    std::int64_t news = 0;
    {
      Timed t(times.compute);
      news = rounds->prepare();
    }
    wait_for_all(times, g.comm);
    Received<LabelNote> got;
    {
      Timed t(times.exchange);
      if (sum_all(news, g.comm) == 0) break;
      got = exchange(rounds->messages(), g.comm, "the component labels");
    }
    ++r.rounds;
    r.label_messages += rounds->message_count();
    Timed t(times.compute);
    rounds->apply(got);
  }
  Timed t(times.compute);
  r.labels.resize(static_cast<std::size_t>(g.local_n));
  parallel::for_static<std::int64_t>(0, g.local_n, [&](std::int64_t v) { r.labels[v] = rounds->final_label(v); });
  return r;
}

ComponentSummary summarize_components(const DistCsr& g, const std::vector<std::uint64_t>& labels) {
  struct LabelCount {
    std::uint64_t label;
    std::int64_t count;
  };
  const std::int64_t n = g.local_n;
  std::int64_t roots = 0;
  for (std::int64_t v = 0; v < n; ++v) roots += labels[v] == static_cast<std::uint64_t>(g.first + v);
  ComponentSummary s;
  s.num_components = sum_all(roots, g.comm);
  // Sizes are summed by the owner of each label (a vertex of the component).
  std::vector<std::uint64_t> sorted(labels.begin(), labels.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::vector<LabelCount>> send(static_cast<std::size_t>(g.ranks));
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    send[g.blocks.owner(sorted[i])].push_back({sorted[i], static_cast<std::int64_t>(j - i)});
    i = j;
  }
  const Received<LabelCount> got = exchange(send, g.comm, "the component sizes");
  std::vector<std::int64_t> size(static_cast<std::size_t>(n), 0);
  for (const LabelCount& c : got.items) size[c.label - static_cast<std::uint64_t>(g.first)] += c.count;
  std::int64_t largest = 0;
  for (std::int64_t v = 0; v < n; ++v) largest = std::max(largest, size[v]);
  s.largest_component = max_all(largest, g.comm);
  std::int64_t first_largest = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t v = 0; v < n && s.largest_component > 0; ++v)
    if (size[v] == s.largest_component) {
      first_largest = g.first + v;
      break;
    }
  const std::int64_t label_of_largest = min_all(first_largest, g.comm);
  s.largest_label = s.largest_component > 0 ? static_cast<std::uint64_t>(label_of_largest) : 0;
  return s;
}

}  // namespace numagraph::dist
