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

GatheredComponents components_by_gathering(const DistCsr& g, const NumaArray<std::uint32_t>& comp,
                                           std::int64_t max_edges, StepTimes& times) {
  const std::int64_t n = g.local_n, total = g.local_total();
  const std::uint32_t* const c = comp.data();
  GatheredComponents out;
  LocalRoots local;
  std::vector<std::uint8_t> tied;  // per root: a copy crosses ranks
  std::vector<std::vector<CopyKey>> send(static_cast<std::size_t>(g.ranks));
  {
    Timed t(times.compute);
    local = local_roots(g, c);
    tied.assign(static_cast<std::size_t>(total), 0);
    for (int p = 0; p < g.ranks; ++p)
      for (std::int64_t h = g.ghost_from[p]; h < g.ghost_from[p + 1]; ++h) {
        const std::uint32_t r = c[n + h];
        if (r == n + h && !local.several[r]) continue;  // linked to nothing here: its owner's side has its arcs
        tied[r] = 1;
        send[p].push_back({local.key[r], static_cast<std::uint32_t>(h - g.ghost_from[p]), 0});
        ++out.copies_sent;
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
        tied[r] = 1;
        const std::uint64_t mine = local.key[r];
        if (mine != m.key) edges.push_back({std::min(mine, m.key), std::max(mine, m.key)});
      }
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
  std::uint64_t* const k = local.key.data();
  const std::uint8_t* const tie = tied.data();
  parallel::for_static<std::int64_t>(0, total, [&](std::int64_t x) {
    if (!tie[x]) return;  // only a root with a copy on another rank can be in an edge
    const auto it = std::lower_bound(keys.begin(), keys.end(), k[x]);
    if (it != keys.end() && *it == k[x]) k[x] = smallest[static_cast<std::size_t>(it - keys.begin())];
  });
  out.labels.resize(static_cast<std::size_t>(n));
  parallel::for_static<std::int64_t>(0, n, [&](std::int64_t v) { out.labels[v] = k[c[v]]; });
  return out;
}

}  // namespace numagraph::dist
