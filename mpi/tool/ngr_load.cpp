#include "ngr_load.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "agree.hpp"
#include "dist_build.hpp"
#include "exchange.hpp"
#include "local_lists.hpp"
#include "numagraph/graph/ngr_file.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

using io::NgrFile;

// Flags that say how to read text have nothing to act on in a .ngr: they are
// refused, not ignored.
void refuse_text_flags(const LoadRequest& rq) {
  if (rq.read.header != Header::kAuto)
    throw UsageError("--header and --no-header are for text tables; " + rq.path + " is a .ngr: drop the flag");
  if (!rq.read.weight_column.empty() && rq.read.weight_column != "none")
    throw UsageError("--weight-column " + rq.read.weight_column + ": " + rq.path +
                     " is a .ngr, whose weights have one place; only --weight-column none (read it unweighted) "
                     "applies to it");
  if (rq.relabel == Relabel::kOn)
    throw UsageError("--relabel on: the ids of " + rq.path + " (a .ngr) are dense already: drop the flag");
}

// The checksum, each rank summing its share of the file's 1 MiB blocks.
void check_checksum(const NgrFile& f, int me, int p, MPI_Comm c) {
  const std::int64_t blocks = io::ngr_checksum_blocks(f);
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    displs[r] = mpi_count(blocks * r / p, "the checksum");
    counts[r] = mpi_count(blocks * (r + 1) / p - blocks * r / p, "the checksum");
  }
  const std::vector<std::uint64_t> mine = io::ngr_block_sums(f, blocks * me / p, blocks * (me + 1) / p);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(blocks));
  check(MPI_Allgatherv(mine.data(), counts[me], MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T,
                       c),
        "MPI_Allgatherv(checksum)");
  agree(c, [&] {
    if (!io::ngr_checksum_matches(f, all))
      throw InputError(f.path, 0,
                       "checksum mismatch: the file is corrupt or truncated (regenerate or re-copy it; "
                       "--no-checksum skips the check)");
  });
}

// Blocks balanced by the kernel's arcs: each rank weighs an even run of the
// vertices from the offsets alone. A directed file without in-lists gives no
// in-degrees, so there only out-arcs count.
VertexBlocks cut(const NgrFile& f, bool undirected, ArcWork w, int me, int p, MPI_Comm c) {
  const std::int64_t lo = f.n * me / p, hi = f.n * (me + 1) / p;
  std::vector<std::int64_t> weight(static_cast<std::size_t>(hi - lo));
  // Clamped: a damaged offset must not overflow the sums before the block's
  // own checks refuse the file.
  auto degree = [&](int d, std::int64_t v) -> std::int64_t {
    if (!f.offsets[d]) return 0;
    const eid_t a = f.offsets[d][v], b = f.offsets[d][v + 1];
    return b > a ? std::min<std::int64_t>(b - a, f.arcs) : 0;
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t v = lo; v < hi; ++v) {
    const std::int64_t out = degree(NgrFile::kOut, v), in = degree(NgrFile::kIn, v);
    weight[static_cast<std::size_t>(v - lo)] = undirected ? vertex_work(out + in, 0, false, w) : vertex_work(out, in, true, w);
  }
  return balanced_blocks(f.n, lo, weight, c);
}

// Appends the arcs of vertices [first, first + count) of one direction.
template <typename A>
void append_lists(const NgrFile& f, NgrFile::Direction d, std::int64_t first, std::int64_t count, bool weighted,
                  std::vector<A>& into) {
  const eid_t* off = f.offsets[d];
  const eid_t a = off[first];
  const std::size_t base = into.size();
  into.resize(base + static_cast<std::size_t>(off[first + count] - a));
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t i = 0; i < count; ++i)
    for (eid_t k = off[first + i]; k < off[first + i + 1]; ++k)
      into[base + static_cast<std::size_t>(k - a)] =
          make_arc<A>(f.neighbor(d, k), static_cast<std::uint32_t>(i), weighted ? f.weights[d][k] : weight_t{1});
}

// My block's user ids (or names) and the maps that find a vertex by them.
// Local: throws on a label with no name. Names to check for repeats are left
// in `hashed`, by the rank their hash picks.
void read_block_ids(const NgrFile& f, DistGraph& g, std::vector<std::vector<std::string_view>>& hashed) {
  const DistCsr& csr = g.csr;
  g.ids.n = f.n;
  g.ids.named = f.named;
  g.ids.relabelled = f.labelled || f.reordered;
  if (f.named) {
    const io::NgrNames names(f);
    g.labels.names.resize(static_cast<std::size_t>(csr.local_n));
    g.ids.name_dense.reserve(static_cast<std::size_t>(csr.local_n));
    hashed.assign(static_cast<std::size_t>(csr.ranks), {});
    for (std::int64_t i = 0; i < csr.local_n; ++i) {
      const std::uint64_t user = f.user_id(csr.first + i);
      if (f.labelled && user >= static_cast<std::uint64_t>(f.n))
        throw InputError(f.path, 0, "corrupt labels: label " + std::to_string(user) + " of vertex " +
                                        std::to_string(csr.first + i) + " has no name (regenerate the file)");
      std::string& name = g.labels.names[static_cast<std::size_t>(i)] = std::string(names.name(user));
      g.ids.name_dense.emplace(name, static_cast<std::uint64_t>(csr.first + i));
    }
    for (const std::string& name : g.labels.names)  // views of the strings, which no longer move
      hashed[std::hash<std::string_view>{}(name) % static_cast<std::size_t>(csr.ranks)].push_back(name);
    return;
  }
  if (!g.ids.relabelled) return;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> by_id(static_cast<std::size_t>(csr.local_n));
  g.labels.ids.resize(static_cast<std::size_t>(csr.local_n));
  for (std::int64_t i = 0; i < csr.local_n; ++i) {
    const std::uint64_t user = f.user_id(csr.first + i);
    g.labels.ids[static_cast<std::size_t>(i)] = user;
    by_id[static_cast<std::size_t>(i)] = {user, static_cast<std::uint64_t>(csr.first + i)};
  }
  std::sort(by_id.begin(), by_id.end());
  for (const auto& [user, dense] : by_id) {
    g.ids.local_ids.push_back(user);
    g.ids.local_dense.push_back(dense);
  }
}

// Names must not repeat (vertices are looked up by name): each rank sends its
// names to the rank their hash picks, which looks for a second copy.
void check_names_once(const NgrFile& f, const std::vector<std::vector<std::string_view>>& hashed, MPI_Comm c) {
  const Strings got = exchange_strings(hashed, c);
  agree(c, [&] {
    std::unordered_set<std::string_view> seen;
    seen.reserve(got.items.size());
    for (std::string_view name : got.items)
      if (!seen.insert(name).second)
        throw InputError(f.path, 0, "corrupt names section: the name '" + std::string(name.substr(0, 40)) +
                                        "' appears twice (regenerate the file)");
  });
}

// A renumbered file: its permutation must hold every id below n once (it
// indexes arrays). Each entry goes to the rank of its value's even run,
// which keeps the entry's dense id: the inverse, for caller ids.
void settle_callers(const NgrFile& f, DistGraph& g, MPI_Comm c) {
  const DistCsr& csr = g.csr;
  const int p = csr.ranks;
  std::vector<std::vector<std::uint64_t>> send(static_cast<std::size_t>(p));
  agree(c, [&] {
    for (std::int64_t i = 0; i < csr.local_n; ++i) {
      const std::uint64_t v = f.permuted(csr.first + i);
      if (v >= static_cast<std::uint64_t>(f.n))
        throw InputError(f.path, 0, "corrupt permutation section: entry " + std::to_string(csr.first + i) + " is " +
                                        std::to_string(v) + ", not below the vertex count (regenerate the file)");
      auto& to = send[static_cast<std::size_t>(even_owner(v, f.n, p))];
      to.push_back(v);
      to.push_back(static_cast<std::uint64_t>(csr.first + i));
    }
  });
  const Received<std::uint64_t> got = exchange(send, c, "the permutation check");
  CallerIds& ids = g.callers;
  ids.renumbered = true;
  ids.lo = f.n * csr.rank / p;
  ids.dense_of.assign(static_cast<std::size_t>(f.n * (csr.rank + 1) / p - ids.lo),
                      std::numeric_limits<std::uint64_t>::max());
  agree(c, [&] {
    for (std::size_t k = 0; k + 1 < got.items.size(); k += 2) {
      std::uint64_t& slot = ids.dense_of[static_cast<std::size_t>(static_cast<std::int64_t>(got.items[k]) - ids.lo)];
      if (slot != std::numeric_limits<std::uint64_t>::max())
        throw InputError(f.path, 0, "corrupt permutation section: id " + std::to_string(got.items[k]) +
                                        " appears twice (regenerate the file)");
      slot = got.items[k + 1];
    }
  });
}

}  // namespace

DistGraph load_ngr_distributed(const LoadRequest& rq, MPI_Comm c) {
  int me = 0, p = 1;
  MPI_Comm_rank(c, &me);
  MPI_Comm_size(c, &p);
  DistGraph g;
  g.name = rq.path;
  const double t0 = MPI_Wtime();
  NgrFile f;
  agree(c, [&] {
    refuse_text_flags(rq);
    f = io::open_ngr(rq.path);
    if (rq.directed && !f.directed)
      throw UsageError(rq.path + " declares its edges undirected (a .ngr of an undirected graph), so --directed "
                                 "cannot apply: drop it");
  });
  if (rq.read.verify_checksum) check_checksum(f, me, p, c);
  const bool undirected = !f.directed || rq.symmetrize;
  g.input_edges = f.directed ? f.arcs : (f.arcs + f.self_loops) / 2;
  g.report.input_edges = g.input_edges;
  check_rank_memory(rq.path, g.input_edges, !f.directed, f.directed, p, c);

  double t = MPI_Wtime();
  DistCsr& csr = g.csr;
  csr.comm = c;
  csr.rank = me;
  csr.ranks = p;
  csr.n = f.n;
  csr.directed = !undirected;
  csr.weighted = f.weighted() && rq.read.weight_column != "none";
  csr.blocks = cut(f, undirected, rq.work, me, p, c);
  csr.first = csr.blocks.begin[me];
  csr.local_n = csr.blocks.begin[me + 1] - csr.first;
  agree(c, [&] { require_addressable_blocks(csr.blocks); });
  g.times.partition = MPI_Wtime() - t;

  t = MPI_Wtime();
  agree(c, [&] {
    io::check_ngr_lists(f, NgrFile::kOut, csr.first, csr.first + csr.local_n);
    if (f.in_edges) io::check_ngr_lists(f, NgrFile::kIn, csr.first, csr.first + csr.local_n);
  });
  g.times.read = MPI_Wtime() - t0 - g.times.partition;
  auto build = [&](auto arc_kind) {
    using A = decltype(arc_kind);
    std::vector<A> out, in;
    append_lists(f, NgrFile::kOut, csr.first, csr.local_n, csr.weighted, out);
    if (f.directed && f.in_edges) {
      append_lists(f, NgrFile::kIn, csr.first, csr.local_n, csr.weighted, undirected ? out : in);
    } else if (f.directed) {  // no in-lists stored: every out-arc is sent to its far end's owner
      std::vector<A> turned;
      turn_around(out, csr.first, csr.blocks, c, turned);
      if (undirected)
        out.insert(out.end(), turned.begin(), turned.end());
      else
        in = std::move(turned);
    }
    g.times.shuffle = MPI_Wtime() - t;
    t = MPI_Wtime();
    return finish_local_csr(csr, std::move(out), std::move(in), !rq.keep_self_loops, !rq.keep_duplicates);
  };
  // Lists read in place when they are the graph's lists as stored: an
  // undirected file, or a directed one with its in-lists and no -s.
  auto in_place = [&](NgrFile::Direction d) {
    SortedLists l;
    l.offsets = f.offsets[d] + csr.first;
    l.ids = f.neighbors[d];
    l.id_bits = f.id_bits;
    l.weights = csr.weighted ? f.weights[d] : nullptr;
    return l;
  };
  const bool as_stored = !f.directed || (f.in_edges && !rq.symmetrize);
  LocalListCounts lc;
  if (as_stored) {
    g.times.shuffle = MPI_Wtime() - t;
    t = MPI_Wtime();
    lc = finish_local_csr(csr, in_place(NgrFile::kOut), f.directed ? in_place(NgrFile::kIn) : SortedLists{},
                          !rq.keep_self_loops, !rq.keep_duplicates);
  } else {
    lc = csr.weighted ? build(Arc{}) : build(BareArc{});
  }
  g.report.self_loops_removed = sum_all(lc.self_loops_removed, c);
  g.report.duplicates_removed = sum_all(lc.duplicates_removed, c);
  g.self_loops_kept = sum_all(lc.self_loops_kept, c);
  g.times.lists = MPI_Wtime() - t;
  const eid_t* off = f.offsets[NgrFile::kOut];
  g.times.bytes = static_cast<std::int64_t>((off[csr.first + csr.local_n] - off[csr.first]) * (f.id_bits / 8) +
                                            (csr.local_n + 1) * sizeof(eid_t));

  t = MPI_Wtime();
  std::vector<std::vector<std::string_view>> hashed;
  agree(c, [&] { read_block_ids(f, g, hashed); });
  if (f.named) check_names_once(f, hashed, c);
  if (f.reordered) settle_callers(f, g, c);
  g.times.ids = MPI_Wtime() - t;
  g.times.total = MPI_Wtime() - t0;
  return g;
}

}  // namespace numagraph::dist
