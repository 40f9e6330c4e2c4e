#include "dist_ids.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <bit>
#include <charconv>
#include <functional>
#include <string_view>

#include "exchange.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

constexpr std::uint64_t kSparseFactor = 4;  // build_graph's rule: sparse when max id + 1 > 4 x distinct

int comm_rank(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
int comm_size(MPI_Comm c) {
  int p = 1;
  MPI_Comm_size(c, &p);
  return p;
}

std::uint64_t max_all_u(std::uint64_t x, MPI_Comm c) {
  std::uint64_t r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_UINT64_T, MPI_MAX, c), "MPI_Allreduce");
  return r;
}
std::uint64_t min_all_u(std::uint64_t x, MPI_Comm c) {
  std::uint64_t r = 0;
  check(MPI_Allreduce(&x, &r, 1, MPI_UINT64_T, MPI_MIN, c), "MPI_Allreduce");
  return r;
}

// Distinct ids 0..max_id over all ranks: each rank's bitmap, or-reduced and
// scattered in word ranges, then the popcounts summed.
std::int64_t count_distinct(const EdgeList& e, std::uint64_t max_id, MPI_Comm c) {
  const int p = comm_size(c);
  const auto words = static_cast<std::int64_t>(max_id / 64 + 1);
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(words), 0);
  const auto m = static_cast<std::int64_t>(e.size());
  auto set = [&](std::uint64_t v) { __atomic_fetch_or(&bits[v >> 6], std::uint64_t{1} << (v & 63), __ATOMIC_RELAXED); };
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    set(e.src[i]);
    set(e.dst[i]);
  });
  std::vector<int> counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    counts[r] = mpi_count(words * (r + 1) / p - words * r / p, "the distinct-id count");
  std::vector<std::uint64_t> mine(static_cast<std::size_t>(counts[comm_rank(c)]));
  check(MPI_Reduce_scatter(bits.data(), mine.data(), counts.data(), MPI_UINT64_T, MPI_BOR, c),
        "MPI_Reduce_scatter(ids)");
  std::int64_t distinct = 0;
  for (std::uint64_t w : mine) distinct += std::popcount(w);
  return sum_all(distinct, c);
}

// The bitmap of all ids 0..max_id over all ranks (an or-allreduce), with
// the set bits before each word.
void all_id_bits(const EdgeList& e, std::uint64_t max_id, MPI_Comm c, IdMap& map) {
  const auto words = static_cast<std::size_t>(max_id / 64 + 1);
  std::vector<std::uint64_t> bits(words, 0);
  const auto m = static_cast<std::int64_t>(e.size());
  auto set = [&](std::uint64_t v) { __atomic_fetch_or(&bits[v >> 6], std::uint64_t{1} << (v & 63), __ATOMIC_RELAXED); };
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    set(e.src[i]);
    set(e.dst[i]);
  });
  map.bits.assign(words, 0);
  for (std::size_t at = 0; at < words;) {  // in pieces: MPI counts are ints
    const std::size_t n = std::min<std::size_t>(words - at, std::size_t{1} << 28);
    check(MPI_Allreduce(bits.data() + at, map.bits.data() + at, static_cast<int>(n), MPI_UINT64_T, MPI_BOR, c),
          "MPI_Allreduce(ids)");
    at += n;
  }
  map.bits_before.assign(words + 1, 0);
  for (std::size_t w = 0; w < words; ++w)
    map.bits_before[w + 1] = map.bits_before[w] + static_cast<std::uint64_t>(std::popcount(map.bits[w]));
}

std::uint64_t bit_rank(const IdMap& map, std::uint64_t v) {
  const std::uint64_t below = map.bits[v >> 6] & ((std::uint64_t{1} << (v & 63)) - 1);
  return map.bits_before[v >> 6] + static_cast<std::uint64_t>(std::popcount(below));
}

// Sample sort of the distinct ids: fills map.local_ids/local_dense (this
// rank's ids) and map.run_ids/run_base (the value range this rank owns).
void relabel_by_sample_sort(EdgeList& e, IdMap& map, MPI_Comm c) {
  const int p = comm_size(c);
  const auto m = static_cast<std::int64_t>(e.size());
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(2 * m));
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    ids[2 * i] = e.src[i];
    ids[2 * i + 1] = e.dst[i];
  });
  __gnu_parallel::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  // Splitters from an even sample of every rank's distinct ids.
  const std::size_t per = std::min<std::size_t>(ids.size(), static_cast<std::size_t>(32 * p));
  std::vector<std::uint64_t> sample(per);
  for (std::size_t k = 0; k < per; ++k) sample[k] = ids[k * ids.size() / per];
  int mine = static_cast<int>(per);
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  check(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, c), "MPI_Allgather");
  int total = 0;
  for (int r = 0; r < p; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(sample.data(), mine, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, c),
        "MPI_Allgatherv(samples)");
  std::sort(all.begin(), all.end());
  std::vector<std::uint64_t> split;  // rank r owns [split[r-1], split[r])
  for (int r = 1; r < p; ++r) split.push_back(all.empty() ? 0 : all[static_cast<std::size_t>(total) * r / p]);
  std::vector<std::vector<std::uint64_t>> send(static_cast<std::size_t>(p));
  std::size_t at = 0;
  for (int r = 0; r < p; ++r) {
    const std::size_t end =
        r + 1 < p ? std::lower_bound(ids.begin() + at, ids.end(), split[r]) - ids.begin() : ids.size();
    send[r].assign(ids.begin() + at, ids.begin() + end);
    at = end;
  }
  Received<std::uint64_t> got = exchange(send, c, "the id relabelling");
  std::vector<std::uint64_t> run = got.items;
  __gnu_parallel::sort(run.begin(), run.end());
  run.erase(std::unique(run.begin(), run.end()), run.end());
  std::int64_t count = static_cast<std::int64_t>(run.size()), base = 0;
  check(MPI_Exscan(&count, &base, 1, MPI_INT64_T, MPI_SUM, c), "MPI_Exscan");
  if (comm_rank(c) == 0) base = 0;
  // Answer every asker, in the order it asked.
  std::vector<std::vector<std::uint64_t>> reply(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (std::int64_t k = got.from[r]; k < got.from[r + 1]; ++k)
      reply[r].push_back(static_cast<std::uint64_t>(
          base + (std::lower_bound(run.begin(), run.end(), got.items[k]) - run.begin())));
  got = {};
  Received<std::uint64_t> dense = exchange(reply, c, "the id relabelling");
  map.local_ids = std::move(ids);
  map.local_dense = std::move(dense.items);
  map.run_ids = std::move(run);
  map.run_base = base;
  map.n = sum_all(count, c);
  const auto& keys = map.local_ids;
  const auto& vals = map.local_dense;
  auto dense_of = [&](std::uint64_t v) { return vals[std::lower_bound(keys.begin(), keys.end(), v) - keys.begin()]; };
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    e.src[i] = dense_of(e.src[i]);
    e.dst[i] = dense_of(e.dst[i]);
  });
}

}  // namespace

IdMap settle_integer_ids(EdgeList& e, Relabel mode, MPI_Comm c, BuildReport& report) {
  const auto m = static_cast<std::int64_t>(e.size());
  std::uint64_t hi = 0, lo = ~std::uint64_t{0};
  for (std::int64_t i = 0; i < m; ++i) {
    hi = std::max({hi, e.src[i], e.dst[i]});
    lo = std::min({lo, e.src[i], e.dst[i]});
  }
  const std::uint64_t max_id = max_all_u(hi, c), min_id = min_all_u(lo, c);
  const std::int64_t edges = sum_all(m, c);
  report.max_input_id = max_id;
  if (max_id >= (std::uint64_t{1} << 63))
    throw InputError(e.source_name, 0, "vertex id " + std::to_string(max_id) + " is too large: ids must be below 2^63");
  bool relabel = mode == Relabel::kOn;
  IdMap map_bits;  // the bitmap of all ids, when the ranks build one
  if (mode == Relabel::kAuto && !e.num_vertices && edges > 0) {
    // Distinct ids are at most 2 x edges: beyond 8 x edges the ids are sparse without counting.
    const bool surely_sparse = max_id / 8 >= static_cast<std::uint64_t>(edges);
    // Every rank holds the bitmap of all ids when it is small next to its
    // own edges (16 bytes each) or below 64 MiB; else the ranks count with a
    // reduce-scatter and relabel by sample sort.
    const bool whole_bitmap =
        !surely_sparse &&
        min_all(static_cast<std::int64_t>(max_id / 8 <= std::max<std::uint64_t>(std::uint64_t{1} << 26,
                                                                                 static_cast<std::uint64_t>(m) * 16)),
                c) == 1;
    if (whole_bitmap) all_id_bits(e, max_id, c, map_bits);
    const std::int64_t distinct = surely_sparse ? 0
                                  : whole_bitmap ? static_cast<std::int64_t>(map_bits.bits_before.back())
                                                 : count_distinct(e, max_id, c);
    if (surely_sparse || max_id + 1 > kSparseFactor * static_cast<std::uint64_t>(distinct)) {
      relabel = true;
      report.relabel_was_automatic = true;
      report.notice = "ids are sparse (max id " + std::to_string(max_id) +
                      "); relabelled to dense ids 0..k-1, results are reported in the original "
                      "ids (use --relabel off to keep them)";
    } else if (const InputDecision* d = find_decision(report.decisions, "ids");
               d && d->value == "integers" && min_id > 0) {
      relabel = true;
      report.relabel_was_automatic = true;
      report.notice = "ids start at " + std::to_string(min_id) +
                      ", not 0: the vertices are the ids in the file, relabelled to dense ids 0..k-1, and "
                      "results are reported in the file's ids (--relabel off adds the missing ids as "
                      "isolated vertices)";
    }
  }
  if (find_decision(report.decisions, "ids") || relabel)
    set_decision(report.decisions, "relabel", relabel ? "on" : "off",
                 report.relabel_was_automatic ? report.notice : std::string());
  if (e.num_vertices && edges > 0 && max_id >= *e.num_vertices)
    throw InputError(e.source_name, 0,
                     "vertex id " + std::to_string(max_id) + " is out of range: the input declares " +
                         std::to_string(*e.num_vertices) + " vertices (ids 0.." +
                         std::to_string(*e.num_vertices == 0 ? 0 : *e.num_vertices - 1) + ")");
  IdMap map;
  if (relabel && !map_bits.bits.empty()) {
    map = std::move(map_bits);
    map.relabelled = true;
    map.n = static_cast<std::int64_t>(map.bits_before.back());
    parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
      e.src[i] = bit_rank(map, e.src[i]);
      e.dst[i] = bit_rank(map, e.dst[i]);
    });
    report.relabelled = true;
  } else if (relabel) {
    map.relabelled = true;
    relabel_by_sample_sort(e, map, c);
    report.relabelled = true;
  } else {
    map.n = static_cast<std::int64_t>(e.num_vertices ? *e.num_vertices : (edges == 0 ? 0 : max_id + 1));
  }
  if (static_cast<std::uint64_t>(map.n) > (std::uint64_t{1} << 62))
    throw InputError(e.source_name, 0,
                     "vertex id " + std::to_string(max_id) + " is too large to index densely; load with --relabel on");
  return map;
}

namespace {

int name_owner(std::string_view s, int p) { return static_cast<int>(std::hash<std::string_view>{}(s) % static_cast<std::size_t>(p)); }

constexpr int kPositionBits = 40;  // a first-appearance key: rank << 40 | position in the rank's names

}  // namespace

IdMap settle_names(EdgeList& e, const std::vector<std::string>& names, MPI_Comm c) {
  const int p = comm_size(c), me = comm_rank(c);
  if (names.size() >= (std::size_t{1} << kPositionBits))
    throw ResourceError("one rank read more than 2^40 distinct names: run with more ranks");
  // 1. Every name to its owner, with its position here.
  std::vector<std::vector<std::string_view>> send(static_cast<std::size_t>(p));
  std::vector<std::vector<std::uint64_t>> where(static_cast<std::size_t>(p));
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int r = name_owner(names[i], p);
    send[r].push_back(names[i]);
    where[r].push_back(static_cast<std::uint64_t>(me) << kPositionBits | i);
  }
  const Strings got = exchange_strings(send, c);
  const Received<std::uint64_t> keys = exchange(where, c, "the names");
  // 2. The owner keeps each name's first key (ranks arrive in order, positions ascending).
  std::unordered_map<std::string_view, std::uint64_t> first;
  first.reserve(got.items.size());
  for (std::size_t k = 0; k < got.items.size(); ++k) first.emplace(got.items[k], keys.items[k]);
  std::vector<std::vector<std::uint64_t>> answer(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (std::int64_t k = got.from[r]; k < got.from[r + 1]; ++k) answer[r].push_back(first.at(got.items[k]));
  const Received<std::uint64_t> firsts = exchange(answer, c, "the names");
  // firsts.items follows my send order: owner by owner, positions ascending within each.
  std::vector<std::uint64_t> first_key(names.size());
  {
    std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
    for (int r = 0; r < p; ++r) next[r] = static_cast<std::size_t>(firsts.from[r]);
    for (std::size_t i = 0; i < names.size(); ++i) first_key[i] = firsts.items[next[name_owner(names[i], p)]++];
  }
  // 3. Number my first appearances after those of the ranks before me.
  std::int64_t mine = 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    mine += first_key[i] == (static_cast<std::uint64_t>(me) << kPositionBits | i);
  std::int64_t base = 0;
  check(MPI_Exscan(&mine, &base, 1, MPI_INT64_T, MPI_SUM, c), "MPI_Exscan");
  if (me == 0) base = 0;
  IdMap map;
  map.named = true;
  map.n = sum_all(mine, c);
  std::vector<std::uint64_t> dense(names.size(), ~std::uint64_t{0});
  std::vector<std::vector<std::uint64_t>> ask(static_cast<std::size_t>(p));
  std::vector<std::vector<std::size_t>> asked_for(static_cast<std::size_t>(p));
  std::int64_t next_id = base;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::uint64_t key = first_key[i];
    if (key == (static_cast<std::uint64_t>(me) << kPositionBits | i)) {
      dense[i] = static_cast<std::uint64_t>(next_id++);
      map.first_names.push_back(names[i]);
      map.first_dense.push_back(dense[i]);
    } else {
      const int r = static_cast<int>(key >> kPositionBits);
      ask[r].push_back(key & ((std::uint64_t{1} << kPositionBits) - 1));
      asked_for[r].push_back(i);
    }
  }
  // 4. The other appearances ask the rank of the first one.
  const Received<std::uint64_t> questions = exchange(ask, c, "the names");
  std::vector<std::vector<std::uint64_t>> replies(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (std::int64_t k = questions.from[r]; k < questions.from[r + 1]; ++k)
      replies[r].push_back(dense[questions.items[k]]);
  const Received<std::uint64_t> answers = exchange(replies, c, "the names");
  for (int r = 0; r < p; ++r)
    for (std::size_t k = 0; k < asked_for[r].size(); ++k) dense[asked_for[r][k]] = answers.items[answers.from[r] + k];
  for (std::size_t i = 0; i < names.size(); ++i) map.name_dense.emplace(names[i], dense[i]);
  const auto m = static_cast<std::int64_t>(e.size());
  parallel::for_static<std::int64_t>(0, m, [&](std::int64_t i) {
    e.src[i] = dense[e.src[i]];
    e.dst[i] = dense[e.dst[i]];
  });
  return map;
}

BlockLabels block_labels(const IdMap& map, const VertexBlocks& blocks, MPI_Comm c) {
  const int p = comm_size(c), me = comm_rank(c);
  BlockLabels out;
  const std::int64_t first = blocks.begin[me], count = blocks.begin[me + 1] - first;
  if (map.named) {
    std::vector<std::vector<std::string_view>> send(static_cast<std::size_t>(p));
    std::vector<std::vector<std::uint64_t>> ids(static_cast<std::size_t>(p));
    for (std::size_t k = 0; k < map.first_names.size(); ++k) {
      const int r = blocks.owner(map.first_dense[k]);
      send[r].push_back(map.first_names[k]);
      ids[r].push_back(map.first_dense[k]);
    }
    const Strings got = exchange_strings(send, c);
    const Received<std::uint64_t> at = exchange(ids, c, "the names");
    out.names.resize(static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < got.items.size(); ++k)
      out.names[static_cast<std::size_t>(static_cast<std::int64_t>(at.items[k]) - first)] = std::string(got.items[k]);
    return out;
  }
  if (!map.relabelled) return out;
  if (!map.bits.empty()) {  // the ids whose rank among the set bits is in my block
    out.ids.reserve(static_cast<std::size_t>(count));
    auto w = static_cast<std::size_t>(std::upper_bound(map.bits_before.begin(), map.bits_before.end(),
                                                       static_cast<std::uint64_t>(first)) -
                                      map.bits_before.begin()) - 1;
    for (; w < map.bits.size() && static_cast<std::int64_t>(out.ids.size()) < count; ++w)
      for (std::uint64_t x = map.bits[w]; x; x &= x - 1) {
        const std::uint64_t id = w * 64 + static_cast<std::uint64_t>(std::countr_zero(x));
        const std::uint64_t d = bit_rank(map, id);
        if (d >= static_cast<std::uint64_t>(first) && static_cast<std::int64_t>(out.ids.size()) < count) out.ids.push_back(id);
      }
    return out;
  }
  std::vector<std::vector<std::uint64_t>> send(static_cast<std::size_t>(p));
  for (std::size_t k = 0; k < map.run_ids.size(); ++k)
    send[blocks.owner(static_cast<std::uint64_t>(map.run_base) + k)].push_back(map.run_ids[k]);
  Received<std::uint64_t> got = exchange(send, c, "the vertex labels");
  out.ids = std::move(got.items);  // runs arrive in rank order, which is dense order
  return out;
}

std::int64_t IdMap::known_dense(std::uint64_t v) const {
  if (!relabelled) return v < static_cast<std::uint64_t>(n) ? static_cast<std::int64_t>(v) : -1;
  if (!bits.empty()) {
    if (v / 64 >= bits.size() || !(bits[v >> 6] >> (v & 63) & 1)) return -1;
    return static_cast<std::int64_t>(bit_rank(*this, v));
  }
  const auto it = std::lower_bound(local_ids.begin(), local_ids.end(), v);
  return it != local_ids.end() && *it == v ? static_cast<std::int64_t>(local_dense[it - local_ids.begin()]) : -1;
}

std::int64_t dense_id_of(const IdMap& map, const std::string& text, MPI_Comm c) {
  std::int64_t found = -1;
  if (map.named) {
    if (auto it = map.name_dense.find(text); it != map.name_dense.end()) found = static_cast<std::int64_t>(it->second);
  } else {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && p == text.data() + text.size()) found = map.known_dense(v);
  }
  return max_all(found, c);
}

}  // namespace numagraph::dist
