// numagraph's native binary format .ngr (layout in docs/formats.md): a
// 128-byte header, then 64-byte aligned sections that are the CSR arrays
// exactly as they sit in memory, so loading is an mmap plus a checksum pass:
// the arrays are views into the mapping (zero copy).
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>

#include "binary_file.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

constexpr char kMagic[8] = {'N', 'U', 'M', 'A', 'G', 'R', 'P', 'H'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 128;
constexpr std::size_t kAlign = 64;

// kPermutation: the graph was renumbered (numagraph reorder); its section
// holds, for each vertex, its id in the graph the user's ids refer to.
// kNames: the vertices have names (read from CSV/TSV); name k is the name of
// the vertex whose user id is k.
enum Flags : std::uint32_t { kDirected = 1, kInEdges = 2, kLabels = 4, kPermutation = 8, kNames = 16 };
enum Section { kOutOffsets, kOutNeighbors, kOutWeights, kInOffsets, kInNeighbors, kInWeights, kLabelIds, kSections };

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t flags;
  std::uint64_t num_vertices;
  std::uint64_t num_arcs;
  std::uint32_t id_bits;
  std::uint32_t weight_kind;
  std::uint64_t self_loops;
  std::uint64_t checksum;
  std::uint64_t section[kSections];  // byte offset of each section, 0 = absent
  std::uint64_t permutation;         // byte offset of the permutation section, 0 = absent
  std::uint64_t names;               // byte offset of the names section, 0 = absent
};
static_assert(sizeof(Header) == kHeaderBytes, "the .ngr header is 128 bytes");

// Checksum of bytes [begin, end): 64-bit words mixed per 1 MiB block, blocks
// combined in order, so the value does not depend on the thread count.
std::uint64_t checksum(const std::uint8_t* begin, std::size_t bytes) {
  constexpr std::size_t kBlock = 1 << 20;
  const std::int64_t blocks = static_cast<std::int64_t>((bytes + kBlock - 1) / kBlock);
  std::vector<std::uint64_t> sums(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t lo = static_cast<std::size_t>(b) * kBlock, hi = std::min(bytes, lo + kBlock);
    std::uint64_t h = 0x243f6a8885a308d3ULL ^ static_cast<std::uint64_t>(b);
    std::size_t i = lo;
    for (; i + 8 <= hi; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, begin + i, 8);
      h = (h ^ w) * 0x100000001b3ULL;
      h ^= h >> 29;
    }
    for (; i < hi; ++i) h = (h ^ begin[i]) * 0x100000001b3ULL;
    sums[static_cast<std::size_t>(b)] = h;
  }
  std::uint64_t h = 0x13198a2e03707344ULL ^ bytes;
  for (std::uint64_t s : sums) {
    h = (h ^ s) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 31;
  }
  return h;
}

// Checksum of the whole file: the header (with its checksum field zeroed)
// and the body, so a damaged count in the header is caught too.
std::uint64_t file_checksum(Header h, const std::uint8_t* body, std::size_t body_bytes) {
  h.checksum = 0;
  const std::uint64_t head = checksum(reinterpret_cast<const std::uint8_t*>(&h), sizeof h);
  return (head * 0x9e3779b97f4a7c15ULL) ^ checksum(body, body_bytes);
}

template <typename T>
NumaArray<T> view_at(const std::string& path, const std::shared_ptr<const Mapping>& m, std::uint64_t at,
                     const char* name, std::size_t count) {
  if (at == 0)
    throw InputError(path, 0, std::string("corrupt header: the ") + name +
                                  " section it declares is absent (regenerate or re-convert the file)");
  const std::size_t bytes = count * sizeof(T);  // count < 2^58: checked by the caller
  if (at % kAlign || at < kHeaderBytes || at > m->size || m->size - at < bytes)
    throw InputError(path, 0, std::string("file is truncated or corrupt: the ") + name +
                                  " section lies outside the file (regenerate or re-copy it)");
  return NumaArray<T>::view(reinterpret_cast<const T*>(m->data + at), count, m);
}

template <typename T>
NumaArray<T> view_section(const std::string& path, const std::shared_ptr<const Mapping>& m, const Header& h,
                          Section s, std::size_t count) {
  static const char* const kNames[kSections] = {"out offsets", "out neighbours", "out weights", "in offsets",
                                                "in neighbours", "in weights", "labels"};
  return view_at<T>(path, m, h.section[s], kNames[s], count);
}

// Structural checks of one CSR direction, one parallel pass over each array
// (memory speed): offsets run from 0 to m without decreasing, every
// neighbour id is below n, every list is sorted, every weight is finite.
// The checksum only detects accidents; these checks are what keeps a
// damaged or hand-made file from sending a kernel out of bounds.
template <typename V>
void validate_csr(const std::string& path, const CSRArrays<V>& a, std::size_t n, std::size_t arcs,
                  const char* which) {
  const eid_t* off = a.offsets.data();
  if (off[0] != 0 || static_cast<std::uint64_t>(off[n]) != arcs)
    throw InputError(path, 0, std::string("corrupt ") + which +
                                  " offsets: they must run from 0 to the arc count (regenerate the file)");
  int decreasing = 0;
#pragma omp parallel for simd schedule(static) reduction(| : decreasing)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n); ++v) decreasing |= off[v + 1] < off[v];
  if (decreasing) {
    std::size_t v = 0;
    while (off[v + 1] >= off[v]) ++v;
    throw InputError(path, 0, std::string("corrupt ") + which + " offsets: they decrease after vertex " +
                                  std::to_string(v) + " (regenerate the file)");
  }
  const V* nb = a.neighbors.data();
  const auto nv = static_cast<std::uint64_t>(n);
  const auto nn = static_cast<std::int64_t>(n), m = static_cast<std::int64_t>(arcs);
  // One pass finds the largest id and counts the descents (an id below the
  // one before it). Kernels search and merge the lists (triangles,
  // betweenness's owner push), so every list must be sorted, as every
  // numagraph writer leaves it: the only descents allowed are where a list
  // starts. Counts are kept per 64 Ki-arc block in 32 bits (they vectorise).
  constexpr std::int64_t kBlock = std::int64_t{1} << 16;
  V max_id = m > 0 ? nb[0] : 0;  // in V, so 32-bit ids vectorise (vpmaxud)
  std::uint64_t descents = 0;
#pragma omp parallel for schedule(static) reduction(max : max_id) reduction(+ : descents)
  for (std::int64_t b = 0; b < (m + kBlock - 1) / kBlock; ++b) {
    const std::int64_t lo = std::max<std::int64_t>(1, b * kBlock), hi = std::min(m, (b + 1) * kBlock);
    V block_max = 0;
    std::uint32_t block_descents = 0;
#pragma omp simd reduction(max : block_max) reduction(+ : block_descents)
    for (std::int64_t k = lo; k < hi; ++k) {
      block_max = nb[k] > block_max ? nb[k] : block_max;
      block_descents += nb[k] < nb[k - 1];
    }
    max_id = block_max > max_id ? block_max : max_id;
    descents += block_descents;
  }
  if (m > 0 && static_cast<std::uint64_t>(max_id) >= nv)
    throw InputError(path, 0, std::string("corrupt ") + which + " neighbours: vertex id " + std::to_string(max_id) +
                                  " is not below the vertex count " + std::to_string(n) + " (regenerate the file)");
  std::uint64_t at_list_starts = 0;
#pragma omp parallel for schedule(static) reduction(+ : at_list_starts)
  for (std::int64_t v = 0; v < nn; ++v) {
    const eid_t b = off[v];
    at_list_starts += b > 0 && b < off[v + 1] && nb[b] < nb[b - 1];
  }
  if (descents != at_list_starts) {
    std::int64_t v = 0;
    while (std::is_sorted(nb + off[v], nb + off[v + 1])) ++v;
    throw InputError(path, 0, std::string("corrupt ") + which + " neighbours: the list of vertex " +
                                  std::to_string(v) + " is not sorted by id (regenerate the file)");
  }
  if (a.weights.empty()) return;
  const weight_t* w = a.weights.data();
  const auto* bits = reinterpret_cast<const std::uint32_t*>(w);  // float bits: exponent all ones = NaN/inf
  int non_finite = 0;
#pragma omp parallel for simd schedule(static) reduction(| : non_finite)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(arcs); ++k) non_finite |= (bits[k] & 0x7f800000u) == 0x7f800000u;
  if (non_finite)
    throw InputError(path, 0, std::string("corrupt ") + which +
                                  " weights: NaN or infinite values (regenerate the file)");
}

// The names section: uint64 count (= n), uint64 text bytes T, uint64 ends[n]
// (name k is text[ends[k-1], ends[k]), ends[-1] = 0), then the T bytes of
// text. Copied out of the mapping (names are short next to the arrays);
// refused when it lies outside the file, its ends do not run up to T, or a
// name repeats (kernels look vertices up by name).
VertexNames read_names(const std::string& path, const Mapping& m, std::uint64_t at, std::size_t n) {
  const auto outside = [&] {
    return InputError(path, 0, "file is truncated or corrupt: the names section lies outside the file "
                               "(regenerate or re-copy it)");
  };
  if (at == 0)
    throw InputError(path, 0, "corrupt header: the names section it declares is absent (regenerate the file)");
  if (at % kAlign || at < kHeaderBytes || at > m.size || m.size - at < 16) throw outside();
  std::uint64_t count = 0, text_bytes = 0;
  std::memcpy(&count, m.data + at, 8);
  std::memcpy(&text_bytes, m.data + at + 8, 8);
  if (count != n)
    throw InputError(path, 0, "corrupt names section: " + std::to_string(count) + " names for " + std::to_string(n) +
                                  " vertices (regenerate the file)");
  const std::uint64_t room = m.size - at - 16;
  if (count > room / 8 || text_bytes > room - count * 8) throw outside();
  const std::uint8_t* ends_at = m.data + at + 16;
  const char* text = reinterpret_cast<const char*>(ends_at + count * 8);
  auto names = std::make_shared<std::vector<std::string>>();
  names->reserve(count);
  std::unordered_set<std::string_view> seen;
  seen.reserve(count);
  std::uint64_t begin = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    std::uint64_t end = 0;
    std::memcpy(&end, ends_at + k * 8, 8);
    if (end < begin || end > text_bytes)
      throw InputError(path, 0, "corrupt names section: name " + std::to_string(k) +
                                    " does not lie in its text (regenerate the file)");
    const std::string_view name(text + begin, end - begin);
    if (!seen.insert(name).second)
      throw InputError(path, 0, "corrupt names section: the name '" + std::string(name.substr(0, 40)) +
                                    "' appears twice (regenerate the file)");
    names->emplace_back(name);
    begin = end;
  }
  if (begin != text_bytes)
    throw InputError(path, 0, "corrupt names section: its names end before its text does (regenerate the file)");
  return names;
}

template <typename V>
AnyGraph load_typed(const std::string& path, const std::shared_ptr<const Mapping>& m, const Header& h) {
  const std::size_t n = h.num_vertices, arcs = h.num_arcs;
  const bool directed = h.flags & kDirected;
  const bool weighted = h.weight_kind != 0;
  const bool in_edges = h.flags & kInEdges, labelled = h.flags & kLabels;
  // Sections the flags do not declare must be absent: a mismatch means the
  // header was damaged, and guessing which half is right could crash a kernel.
  const bool declared[kSections] = {true, arcs > 0 || h.section[kOutNeighbors] != 0, weighted && (arcs > 0 || h.section[kOutWeights] != 0),
                                    in_edges, in_edges && (arcs > 0 || h.section[kInNeighbors] != 0),
                                    in_edges && weighted && (arcs > 0 || h.section[kInWeights] != 0), labelled};
  for (int s = 0; s < kSections; ++s)
    if (!declared[s] && h.section[s] != 0)
      throw InputError(path, 0, "corrupt header: section " + std::to_string(s) +
                                    " is present but the flags and weight kind do not declare it (regenerate the file)");
  CSRArrays<V> out, in;
  out.offsets = view_section<eid_t>(path, m, h, kOutOffsets, n + 1);
  if (declared[kOutNeighbors]) out.neighbors = view_section<V>(path, m, h, kOutNeighbors, arcs);
  if (declared[kOutWeights]) out.weights = view_section<weight_t>(path, m, h, kOutWeights, arcs);
  if (in_edges) {
    in.offsets = view_section<eid_t>(path, m, h, kInOffsets, n + 1);
    if (declared[kInNeighbors]) in.neighbors = view_section<V>(path, m, h, kInNeighbors, arcs);
    if (declared[kInWeights]) in.weights = view_section<weight_t>(path, m, h, kInWeights, arcs);
  }
  NumaArray<std::uint64_t> labels;
  if (labelled) labels = view_section<std::uint64_t>(path, m, h, kLabelIds, n);
  validate_csr(path, out, n, arcs, "out");
  if (in_edges) validate_csr(path, in, n, arcs, "in");
  CSRGraph<V> g(static_cast<std::int64_t>(n), directed, static_cast<WeightKind>(h.weight_kind), std::move(out),
                std::move(in), std::move(labels), static_cast<std::int64_t>(h.self_loops));
  if (h.flags & kPermutation) {
    // Refused unless it is a permutation of 0..n-1: kernels index arrays with it.
    auto old_of_new = view_at<V>(path, m, h.permutation, "permutation", n);
    g.set_permutation(reorder::Permutation<V>::from_old_of_new(std::move(old_of_new), path + " (permutation section)"));
  }
  if (h.flags & kNames) {
    VertexNames names = read_names(path, *m, h.names, n);
    // Labels index the names: each must name one of them.
    for (std::size_t v = 0; labelled && v < n; ++v)
      if (g.labels()[v] >= n)
        throw InputError(path, 0, "corrupt labels: label " + std::to_string(g.labels()[v]) + " of vertex " +
                                      std::to_string(v) + " has no name (regenerate the file)");
    g.set_names(std::move(names));
  }
  return g;
}

}  // namespace

AnyGraph read_ngr(const std::string& path, bool verify_checksum) {
  auto m = map_or_inflate(path);
  if (m->size < kHeaderBytes) throw InputError(path, 0, "file is truncated: shorter than the 128-byte .ngr header");
  Header h;
  std::memcpy(&h, m->data, sizeof h);
  if (std::memcmp(h.magic, kMagic, 8) != 0)
    throw InputError(path, 0, "bad magic: not a numagraph .ngr file (use --format to read another format)");
  if (h.version != kVersion)
    throw InputError(path, 0, "unsupported .ngr version " + std::to_string(h.version) + " (this numagraph reads version " +
                                  std::to_string(kVersion) + "; convert the file with the numagraph that wrote it)");
  if (h.id_bits != 32 && h.id_bits != 64) throw InputError(path, 0, "bad header: id width must be 32 or 64");
  if (h.weight_kind > 2) throw InputError(path, 0, "bad header: unknown weight kind");
  if (h.flags & ~std::uint32_t{kDirected | kInEdges | kLabels | kPermutation | kNames})
    throw InputError(path, 0, "bad header: unknown flag bits " + std::to_string(h.flags) +
                                  " (a newer numagraph wrote it, or the file is corrupt)");
  if (!(h.flags & kPermutation) && h.permutation != 0)
    throw InputError(path, 0, "corrupt header: a permutation section the flags do not declare (regenerate the file)");
  if (!(h.flags & kNames) && h.names != 0)
    throw InputError(path, 0, "corrupt header: a names section the flags do not declare (regenerate the file)");
  if ((h.flags & kInEdges) && !(h.flags & kDirected))
    throw InputError(path, 0, "bad header: an undirected graph with a separate in-edge CSR (regenerate the file)");
  // Counts beyond what the file could hold would overflow the size checks;
  // 32-bit ids cannot name 2^32 vertices or more.
  if (h.num_vertices >= (std::uint64_t{1} << 58) || h.num_arcs >= (std::uint64_t{1} << 58) ||
      (h.id_bits == 32 && h.num_vertices > (std::uint64_t{1} << 32)))
    throw InputError(path, 0, "bad header: " + std::to_string(h.num_vertices) + " vertices and " +
                                  std::to_string(h.num_arcs) + " arcs cannot be stored with " +
                                  std::to_string(h.id_bits) + "-bit ids in this file (the file is corrupt)");
  if (h.self_loops > h.num_arcs)
    throw InputError(path, 0, "bad header: more self-loops than arcs (the file is corrupt)");
  if (verify_checksum && file_checksum(h, m->data + kHeaderBytes, m->size - kHeaderBytes) != h.checksum)
    throw InputError(path, 0, "checksum mismatch: the file is corrupt or truncated (regenerate or re-copy it)");
  return h.id_bits == 32 ? load_typed<std::uint32_t>(path, m, h) : load_typed<std::uint64_t>(path, m, h);
}

void write_ngr(const AnyGraph& any, const std::string& path) {
  BinaryWriter w(path);
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kVersion;
  std::vector<std::pair<const void*, std::size_t>> sections(kSections, {nullptr, 0});
  std::pair<const void*, std::size_t> permutation{nullptr, 0};
  VertexNames names;
  numagraph::visit(
      [&](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        h.num_vertices = static_cast<std::uint64_t>(g.num_vertices());
        h.num_arcs = static_cast<std::uint64_t>(g.num_arcs());
        h.id_bits = sizeof(V) * 8;
        h.weight_kind = static_cast<std::uint32_t>(g.weight_kind());
        h.self_loops = static_cast<std::uint64_t>(g.num_self_loops());
        h.flags = (g.directed() ? std::uint32_t{kDirected} : 0u) |
                  (g.directed() && g.has_in_edges() ? std::uint32_t{kInEdges} : 0u) |
                  (g.relabelled() ? std::uint32_t{kLabels} : 0u) |
                  (g.reordered() ? std::uint32_t{kPermutation} : 0u) | (g.named() ? std::uint32_t{kNames} : 0u);
        auto put = [&](Section s, const auto& arr) { sections[s] = {arr.data(), arr.bytes()}; };
        if (g.num_vertices() == 0) {
          static const eid_t zero = 0;
          sections[kOutOffsets] = {&zero, sizeof zero};
        } else {
          put(kOutOffsets, g.out().offsets);
        }
        put(kOutNeighbors, g.out().neighbors);
        if (g.weighted()) put(kOutWeights, g.out().weights);
        if (h.flags & kInEdges) {
          put(kInOffsets, g.in_arrays().offsets);
          put(kInNeighbors, g.in_arrays().neighbors);
          if (g.weighted()) put(kInWeights, g.in_arrays().weights);
        }
        if (g.relabelled()) put(kLabelIds, g.labels());
        if (g.reordered()) permutation = {g.permutation().old_of_new.data(), g.permutation().old_of_new.bytes()};
        names = g.names();
      },
      any);
  w.write(&h, sizeof h);
  for (int s = 0; s < kSections; ++s) {
    if (!sections[s].first) continue;
    w.pad_to(kAlign);
    h.section[s] = w.offset();
    w.write(sections[s].first, sections[s].second);
  }
  if (permutation.first) {
    w.pad_to(kAlign);
    h.permutation = w.offset();
    w.write(permutation.first, permutation.second);
  }
  if (names) {
    w.pad_to(kAlign);
    h.names = w.offset();
    std::vector<std::uint64_t> head{names->size(), 0};
    std::vector<std::uint64_t> ends;
    ends.reserve(names->size());
    for (const std::string& name : *names) ends.push_back(head[1] += name.size());
    w.write(head.data(), head.size() * 8);
    w.write(ends.data(), ends.size() * 8);
    for (const std::string& name : *names) w.write(name.data(), name.size());
  }
  w.pad_to(kAlign);
  w.close();
  // Checksum the written body (mapped back from the page cache) and patch it in.
  auto m = map_file(path);
  h.checksum = file_checksum(h, m->data + kHeaderBytes, m->size - kHeaderBytes);
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (!f || std::fwrite(&h, sizeof h, 1, f) != 1 || std::fclose(f) != 0)
    throw IoError("error finishing " + path + " (disk full?)");
}

}  // namespace numagraph::io
