#include "components_gathered.hpp"

#include <algorithm>
#include <utility>

#include "exchange.hpp"
#include "local_roots.hpp"
#include "numagraph/parallel/parallel.hpp"

namespace numagraph::dist {

namespace {

// A ghost's component key, for its owner; `index` is the ghost's place in
// the run the two ranks share (the receiver's mirrors of the sender).
struct CopyKey {
  std::uint64_t key;
  std::uint32_t index;
  std::uint32_t unused;
};

// J's node in the contracted graph (components_gathered.hpp), above every
// key: the smallest key in its set is J's label.
constexpr std::uint64_t kJ = ~std::uint64_t{0};

// An edge of the contracted graph, a < b.
struct KeyPair {
  std::uint64_t a, b;
  friend bool operator<(const KeyPair& x, const KeyPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }
  friend bool operator==(const KeyPair& x, const KeyPair& y) { return x.a == y.a && x.b == y.b; }
};

// Every rank's edges, on every rank.
std::vector<KeyPair> gather_all(const std::vector<KeyPair>& mine, MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  const int count = mpi_count(static_cast<std::int64_t>(mine.size()), "the contracted components");
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm), "MPI_Allgather");
  std::int64_t total = 0;
  for (int r = 0; r < p; ++r) {
    displs[r] = mpi_count(total, "the contracted components");
    total += counts[r];
  }
  std::vector<KeyPair> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(mine.data(), count, item_type<KeyPair>(), all.data(), counts.data(), displs.data(),
                       item_type<KeyPair>(), comm),
        "MPI_Allgatherv");
  return all;
}

// Union-find over the keys the edges name. Returns the sorted distinct keys
// and, per key, the smallest key of its component.
std::pair<std::vector<std::uint64_t>, std::vector<std::uint64_t>> smallest_keys(const std::vector<KeyPair>& edges) {
  std::vector<std::uint64_t> keys;
  keys.reserve(edges.size() * 2);
  for (const KeyPair& e : edges) {
    keys.push_back(e.a);
    keys.push_back(e.b);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<std::uint32_t> parent(keys.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<std::uint32_t>(i);
  auto find = [&](std::uint32_t i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];  // path halving
      i = parent[i];
    }
    return i;
  };
  auto index_of = [&](std::uint64_t k) {
    return static_cast<std::uint32_t>(std::lower_bound(keys.begin(), keys.end(), k) - keys.begin());
  };
  for (const KeyPair& e : edges) {
    const std::uint32_t a = find(index_of(e.a)), b = find(index_of(e.b));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // keys are sorted: the smaller index is the smaller key
  }
  std::vector<std::uint64_t> smallest(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) smallest[i] = keys[find(static_cast<std::uint32_t>(i))];
  return {std::move(keys), std::move(smallest)};
}

}  // namespace

std::int64_t default_gather_limit(const DistCsr& g) { return std::max<std::int64_t>(std::int64_t{1} << 16, g.n / g.ranks); }

GatheredComponents components_by_gathering(const DistCsr& g, NumaArray<std::uint32_t>& comp, const Giants& giants,
                                           std::int64_t max_edges, StepTimes& times) {
  const std::int64_t n = g.local_n, total = g.local_total();
  std::uint32_t* const c = comp.data();
  GatheredComponents out;
  LocalRoots local;
  // The roots with a copy on another rank: only their keys can change.
  std::vector<std::uint8_t> tied;
  std::vector<std::uint32_t> tied_roots;
  auto tie = [&](std::uint32_t r) {
    if (!tied[r]) tied_roots.push_back(r);
    tied[r] = 1;
  };
  // The roots of my local components in J, and J's smallest key among them.
  std::vector<std::uint8_t> in_j;
  std::vector<std::uint32_t> j_roots;
  std::uint64_t my_j_key = kJ;
  auto join = [&](std::uint32_t r) {
    if (in_j[r]) return;
    in_j[r] = 1;
    j_roots.push_back(r);
    my_j_key = std::min(my_j_key, local.key[r]);
  };
  auto key_of = [&](std::uint32_t r) { return in_j[r] ? kJ : local.key[r]; };
  std::vector<std::vector<CopyKey>> send(static_cast<std::size_t>(g.ranks));
  {
    Timed t(times.compute);
    local = local_roots(g, c);
    tied.assign(static_cast<std::size_t>(total), 0);
    in_j.assign(static_cast<std::size_t>(total), 0);
    // Two passes: a root joins J at any of its ghosts, and what it sends
    // for every ghost must know that.
    std::vector<std::int64_t> linked_ghosts;  // outside their owners' giants
    const std::uint8_t* const in_giant = giants.joined ? giants.ghost_in_giant->data() : nullptr;
    if (giants.joined && giants.giant != Giants::kNoGiant) join(c[giants.giant]);
    for (std::int64_t h = 0; h < total - n; ++h) {
      const std::uint32_t r = c[n + h];
      if (r == n + h && !local.several[r]) continue;  // linked to nothing here: its owner's side has its arcs
      if (in_giant != nullptr && in_giant[h]) join(r);  // its owner's copy is in J too
      else linked_ghosts.push_back(h);
    }
    for (int p = 0; p < g.ranks; ++p) {
      const auto b = std::lower_bound(linked_ghosts.begin(), linked_ghosts.end(), g.ghost_from[p]);
      const auto e = std::lower_bound(b, linked_ghosts.end(), g.ghost_from[p + 1]);
      for (auto it = b; it != e; ++it) {
        const std::uint32_t r = c[n + *it];
        if (!in_j[r]) tie(r);
        send[p].push_back({key_of(r), static_cast<std::uint32_t>(*it - g.ghost_from[p]), 0});
      }
      out.copies_sent += e - b;
    }
  }
  wait_for_all(times, g.comm);
  Received<CopyKey> got;
  {
    Timed t(times.exchange);
    got = exchange(send, g.comm, "the component keys");
  }
  std::vector<KeyPair> edges;
  {
    Timed t(times.compute);
    for (int p = 0; p < g.ranks; ++p)
      for (std::int64_t j = got.from[p]; j < got.from[p + 1]; ++j) {
        const CopyKey& m = got.items[j];
        const std::uint32_t r = c[g.mirror_local[g.mirror_from[p] + m.index]];
        if (!in_j[r]) tie(r);
        const std::uint64_t mine = key_of(r);
        if (mine != m.key) edges.push_back({std::min(mine, m.key), std::max(mine, m.key)});
      }
    if (!j_roots.empty()) edges.push_back({my_j_key, kJ});
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  }
  wait_for_all(times, g.comm);
  std::vector<KeyPair> all;
  {
    Timed t(times.exchange);
    out.contracted_edges = sum_all(static_cast<std::int64_t>(edges.size()), g.comm);
    out.refused = out.contracted_edges > max_edges;
    if (out.refused) return out;
    all = gather_all(edges, g.comm);
  }
  Timed t(times.compute);
  const auto [keys, smallest] = smallest_keys(all);
  auto settled = [&](std::uint64_t k) {
    const auto it = std::lower_bound(keys.begin(), keys.end(), k);
    return it != keys.end() && *it == k ? smallest[static_cast<std::size_t>(it - keys.begin())] : k;
  };
  std::uint64_t* const k = local.key.data();
  parallel::for_static<std::size_t>(0, tied_roots.size(), [&](std::size_t i) {
    const std::uint32_t x = tied_roots[i];
    k[x] = settled(k[x]);
  });
  const std::uint64_t j_label = j_roots.empty() ? kJ : settled(kJ);
  for (const std::uint32_t r : j_roots) k[r] = j_label;
  out.labels.resize(static_cast<std::size_t>(n));
  parallel::for_static<std::int64_t>(0, n, [&](std::int64_t v) { out.labels[v] = k[c[v]]; });
  return out;
}

}  // namespace numagraph::dist
