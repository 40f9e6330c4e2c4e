// numagraph's native binary format .ngr (layout in docs/formats.md): a
// 128-byte header, then 64-byte aligned sections that are the CSR arrays
// exactly as they sit in memory, so loading is an mmap plus a checksum pass:
// the arrays are views into the mapping (zero copy).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>

#include "binary_file.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/graph/ngr_file.hpp"
#include "readers.hpp"
#include "text_input.hpp"

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

constexpr std::size_t kChecksumBlock = 1 << 20;

// The sum of 1 MiB block b of bytes [begin, begin + bytes): its 64-bit words mixed in order.
std::uint64_t block_sum(const std::uint8_t* begin, std::size_t bytes, std::int64_t b) {
  const std::size_t lo = static_cast<std::size_t>(b) * kChecksumBlock, hi = std::min(bytes, lo + kChecksumBlock);
  std::uint64_t h = 0x243f6a8885a308d3ULL ^ static_cast<std::uint64_t>(b);
  std::size_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, begin + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < hi; ++i) h = (h ^ begin[i]) * 0x100000001b3ULL;
  return h;
}

std::int64_t block_count(std::size_t bytes) {
  return static_cast<std::int64_t>((bytes + kChecksumBlock - 1) / kChecksumBlock);
}

// The block sums combined in order.
std::uint64_t combine_sums(const std::vector<std::uint64_t>& sums, std::size_t bytes) {
  std::uint64_t h = 0x13198a2e03707344ULL ^ bytes;
  for (std::uint64_t s : sums) {
    h = (h ^ s) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 31;
  }
  return h;
}

// Checksum of bytes [begin, end): 64-bit words mixed per 1 MiB block, blocks
// combined in order, so the value does not depend on the thread count.
std::uint64_t checksum(const std::uint8_t* begin, std::size_t bytes) {
  const std::int64_t blocks = block_count(bytes);
  std::vector<std::uint64_t> sums(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) sums[static_cast<std::size_t>(b)] = block_sum(begin, bytes, b);
  return combine_sums(sums, bytes);
}

// The header's part of the file checksum (its checksum field zeroed), so a
// damaged count in the header is caught too.
std::uint64_t header_sum(Header h) {
  h.checksum = 0;
  return checksum(reinterpret_cast<const std::uint8_t*>(&h), sizeof h) * 0x9e3779b97f4a7c15ULL;
}

// Checksum of the whole file: the header and the body.
std::uint64_t file_checksum(const Header& h, const std::uint8_t* body, std::size_t body_bytes) {
  return header_sum(h) ^ checksum(body, body_bytes);
}

// The section at byte `at` holding `count` items of `size` bytes, checked to
// lie in the file.
const std::uint8_t* place(const std::string& path, const Mapping& m, std::uint64_t at, const char* name,
                          std::size_t count, std::size_t size) {
  if (at == 0)
    throw InputError(path, 0, std::string("corrupt header: the ") + name +
                                  " section it declares is absent (regenerate or re-convert the file)");
  const std::size_t bytes = count * size;  // count < 2^58: checked by the caller
  if (at % kAlign || at < kHeaderBytes || at > m.size || m.size - at < bytes)
    throw InputError(path, 0, std::string("file is truncated or corrupt: the ") + name +
                                  " section lies outside the file (regenerate or re-copy it)");
  return m.data + at;
}

// Checks the header and places every section it declares; reads no array.
NgrFile describe(const std::string& path, const std::shared_ptr<const Mapping>& m, Header& h) {
  if (m->size < kHeaderBytes) throw InputError(path, 0, "file is truncated: shorter than the 128-byte .ngr header");
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

  NgrFile f;
  f.path = path;
  f.keep_alive = m;
  f.data = m->data;
  f.size = m->size;
  f.n = static_cast<std::int64_t>(h.num_vertices);
  f.arcs = static_cast<std::int64_t>(h.num_arcs);
  f.self_loops = static_cast<std::int64_t>(h.self_loops);
  f.id_bits = static_cast<int>(h.id_bits);
  f.weight_kind = static_cast<WeightKind>(h.weight_kind);
  f.directed = h.flags & kDirected;
  f.in_edges = h.flags & kInEdges;
  f.labelled = h.flags & kLabels;
  f.reordered = h.flags & kPermutation;
  f.named = h.flags & kNames;
  f.stored_checksum = h.checksum;
  const std::size_t n = h.num_vertices, arcs = h.num_arcs, id_bytes = h.id_bits / 8;
  const bool weighted = h.weight_kind != 0;
  // Sections the flags do not declare must be absent: a mismatch means the
  // header was damaged, and guessing which half is right could crash a kernel.
  const bool declared[kSections] = {true, arcs > 0 || h.section[kOutNeighbors] != 0, weighted && (arcs > 0 || h.section[kOutWeights] != 0),
                                    f.in_edges, f.in_edges && (arcs > 0 || h.section[kInNeighbors] != 0),
                                    f.in_edges && weighted && (arcs > 0 || h.section[kInWeights] != 0), f.labelled};
  for (int s = 0; s < kSections; ++s)
    if (!declared[s] && h.section[s] != 0)
      throw InputError(path, 0, "corrupt header: section " + std::to_string(s) +
                                    " is present but the flags and weight kind do not declare it (regenerate the file)");
  static const char* const kNames[kSections] = {"out offsets", "out neighbours", "out weights", "in offsets",
                                                "in neighbours", "in weights", "labels"};
  auto section = [&](Section s, std::size_t count, std::size_t size) {
    return declared[s] ? place(path, *m, h.section[s], kNames[s], count, size) : nullptr;
  };
  for (int d = 0; d < 2; ++d) {
    const int base = d == 0 ? kOutOffsets : kInOffsets;
    f.offsets[d] = reinterpret_cast<const eid_t*>(section(static_cast<Section>(base), n + 1, sizeof(eid_t)));
    f.neighbors[d] = section(static_cast<Section>(base + 1), arcs, id_bytes);
    f.weights[d] = reinterpret_cast<const weight_t*>(section(static_cast<Section>(base + 2), arcs, sizeof(weight_t)));
  }
  f.labels = reinterpret_cast<const std::uint64_t*>(section(kLabelIds, n, sizeof(std::uint64_t)));
  if (f.reordered) f.permutation = place(path, *m, h.permutation, "permutation", n, id_bytes);
  if (f.named) f.names_at = h.names;
  return f;
}

// Structural checks of the lists of vertices [lo, hi) of one CSR direction,
// one parallel pass over each array (memory speed): offsets do not decrease
// (and run from 0 to m over the whole file), every neighbour id is below n,
// every list is sorted, every weight is finite. The checksum only detects
// accidents; these checks are what keeps a damaged or hand-made file from
// sending a kernel out of bounds.
template <typename V>
void validate_lists(const NgrFile& f, const eid_t* off, const V* nb, const weight_t* w, std::int64_t lo,
                    std::int64_t hi, const char* which) {
  const std::string& path = f.path;
  if ((lo == 0 && off[0] != 0) || (hi == f.n && off[f.n] != f.arcs))
    throw InputError(path, 0, std::string("corrupt ") + which +
                                  " offsets: they must run from 0 to the arc count (regenerate the file)");
  int decreasing = off[lo] < 0 || off[hi] > f.arcs;
#pragma omp parallel for simd schedule(static) reduction(| : decreasing)
  for (std::int64_t v = lo; v < hi; ++v) decreasing |= off[v + 1] < off[v];
  if (decreasing) {
    std::int64_t v = lo;
    while (v < hi && off[v + 1] >= off[v]) ++v;
    throw InputError(path, 0, std::string("corrupt ") + which + " offsets: " +
                                  (v < hi ? "they decrease after vertex " + std::to_string(v)
                                          : std::string("they leave the arc count")) +
                                  " (regenerate the file)");
  }
  const std::int64_t a = off[lo], b = off[hi];
  // One pass finds the largest id and counts the descents (an id below the
  // one before it). Kernels search and merge the lists (triangles,
  // betweenness's owner push), so every list must be sorted, as every
  // numagraph writer leaves it: the only descents allowed are where a list
  // starts. Counts are kept per 64 Ki-arc block in 32 bits (they vectorise).
  constexpr std::int64_t kBlock = std::int64_t{1} << 16;
  V max_id = b > a ? nb[a] : 0;  // in V, so 32-bit ids vectorise (vpmaxud)
  std::uint64_t descents = 0;
#pragma omp parallel for schedule(static) reduction(max : max_id) reduction(+ : descents)
  for (std::int64_t j = 0; j < (b - a + kBlock - 1) / kBlock; ++j) {
    const std::int64_t klo = std::max(a + 1, a + j * kBlock), khi = std::min(b, a + (j + 1) * kBlock);
    V block_max = 0;
    std::uint32_t block_descents = 0;
#pragma omp simd reduction(max : block_max) reduction(+ : block_descents)
    for (std::int64_t k = klo; k < khi; ++k) {
      block_max = nb[k] > block_max ? nb[k] : block_max;
      block_descents += nb[k] < nb[k - 1];
    }
    max_id = block_max > max_id ? block_max : max_id;
    descents += block_descents;
  }
  if (b > a && static_cast<std::uint64_t>(max_id) >= static_cast<std::uint64_t>(f.n))
    throw InputError(path, 0, std::string("corrupt ") + which + " neighbours: vertex id " + std::to_string(max_id) +
                                  " is not below the vertex count " + std::to_string(f.n) + " (regenerate the file)");
  std::uint64_t at_list_starts = 0;
#pragma omp parallel for schedule(static) reduction(+ : at_list_starts)
  for (std::int64_t v = lo; v < hi; ++v) {
    const eid_t s = off[v];
    at_list_starts += s > a && s < off[v + 1] && nb[s] < nb[s - 1];
  }
  if (descents != at_list_starts) {
    std::int64_t v = lo;
    while (std::is_sorted(nb + off[v], nb + off[v + 1])) ++v;
    throw InputError(path, 0, std::string("corrupt ") + which + " neighbours: the list of vertex " +
                                  std::to_string(v) + " is not sorted by id (regenerate the file)");
  }
  if (!w) return;
  const auto* bits = reinterpret_cast<const std::uint32_t*>(w);  // float bits: exponent all ones = NaN/inf
  int non_finite = 0;
#pragma omp parallel for simd schedule(static) reduction(| : non_finite)
  for (std::int64_t k = a; k < b; ++k) non_finite |= (bits[k] & 0x7f800000u) == 0x7f800000u;
  if (non_finite)
    throw InputError(path, 0, std::string("corrupt ") + which +
                                  " weights: NaN or infinite values (regenerate the file)");
}

template <typename V>
void validate_direction(const NgrFile& f, NgrFile::Direction d, std::int64_t lo, std::int64_t hi) {
  static const V no_ids[1] = {0};
  const V* nb = f.neighbors[d] ? static_cast<const V*>(f.neighbors[d]) : no_ids;
  validate_lists<V>(f, f.offsets[d], nb, f.weights[d], lo, hi, d == NgrFile::kOut ? "out" : "in");
}

// The names section: uint64 count (= n), uint64 text bytes T, uint64 ends[n]
// (name k is text[ends[k-1], ends[k]), ends[-1] = 0), then the T bytes of
// text. Copied out of the mapping (names are short next to the arrays);
// refused when a name repeats (kernels look vertices up by name) or the ends
// do not run up to T.
VertexNames read_names(const NgrFile& f) {
  const NgrNames section(f);
  auto names = std::make_shared<std::vector<std::string>>();
  names->reserve(static_cast<std::size_t>(f.n));
  std::unordered_set<std::string_view> seen;
  seen.reserve(static_cast<std::size_t>(f.n));
  for (std::int64_t k = 0; k < f.n; ++k) {
    const std::string_view name = section.name(static_cast<std::uint64_t>(k));
    if (!seen.insert(name).second)
      throw InputError(f.path, 0, "corrupt names section: the name '" + std::string(name.substr(0, 40)) +
                                      "' appears twice (regenerate the file)");
    names->emplace_back(name);
  }
  if (!section.complete())
    throw InputError(f.path, 0, "corrupt names section: its names end before its text does (regenerate the file)");
  return names;
}

template <typename T>
NumaArray<T> view(const NgrFile& f, const void* at, std::size_t count) {
  return at ? NumaArray<T>::view(static_cast<const T*>(at), count, f.keep_alive) : NumaArray<T>();
}

template <typename V>
AnyGraph load_typed(const NgrFile& f) {
  const auto n = static_cast<std::size_t>(f.n), arcs = static_cast<std::size_t>(f.arcs);
  CSRArrays<V> out, in;
  for (int d = 0; d < (f.in_edges ? 2 : 1); ++d) {
    CSRArrays<V>& a = d == 0 ? out : in;
    a.offsets = view<eid_t>(f, f.offsets[d], n + 1);
    a.neighbors = view<V>(f, f.neighbors[d], arcs);
    a.weights = view<weight_t>(f, f.weights[d], arcs);
    validate_direction<V>(f, static_cast<NgrFile::Direction>(d), 0, f.n);
  }
  NumaArray<std::uint64_t> labels = view<std::uint64_t>(f, f.labels, n);
  CSRGraph<V> g(f.n, f.directed, f.weight_kind, std::move(out), std::move(in), std::move(labels), f.self_loops);
  if (f.reordered) {
    // Refused unless it is a permutation of 0..n-1: kernels index arrays with it.
    g.set_permutation(reorder::Permutation<V>::from_old_of_new(view<V>(f, f.permutation, n), f.path + " (permutation section)"));
  }
  if (f.named) {
    VertexNames names = read_names(f);
    // Labels index the names: each must name one of them.
    for (std::size_t v = 0; f.labelled && v < n; ++v)
      if (g.labels()[v] >= n)
        throw InputError(f.path, 0, "corrupt labels: label " + std::to_string(g.labels()[v]) + " of vertex " +
                                        std::to_string(v) + " has no name (regenerate the file)");
    g.set_names(std::move(names));
  }
  return g;
}

}  // namespace

bool is_ngr_input(const std::string& path, Format format) {
  if (format != Format::kAuto) return format == Format::kNgr;
  const Format by_name = format_from_extension(path);
  if (by_name != Format::kAuto) return by_name == Format::kNgr;
  char magic[8] = {};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  const bool whole = std::fread(magic, 1, 8, f) == 8;
  std::fclose(f);
  return whole && std::memcmp(magic, kMagic, 8) == 0;
}

NgrFile open_ngr(const std::string& path) {
  if (has_gzip_magic(path))
    throw UsageError(path + " is compressed: its parts cannot be read in place; inflate it first (gunzip -k " + path +
                     ")");
  Header h;
  return describe(path, map_file(path), h);
}

std::int64_t ngr_checksum_blocks(const NgrFile& f) { return block_count(f.size - kHeaderBytes); }

std::vector<std::uint64_t> ngr_block_sums(const NgrFile& f, std::int64_t lo, std::int64_t hi) {
  std::vector<std::uint64_t> sums(static_cast<std::size_t>(std::max<std::int64_t>(0, hi - lo)));
#pragma omp parallel for schedule(static)
  for (std::int64_t b = lo; b < hi; ++b)
    sums[static_cast<std::size_t>(b - lo)] = block_sum(f.data + kHeaderBytes, f.size - kHeaderBytes, b);
  return sums;
}

bool ngr_checksum_matches(const NgrFile& f, const std::vector<std::uint64_t>& all_sums) {
  Header h;
  std::memcpy(&h, f.data, sizeof h);
  return (header_sum(h) ^ combine_sums(all_sums, f.size - kHeaderBytes)) == f.stored_checksum;
}

void check_ngr_lists(const NgrFile& f, NgrFile::Direction d, std::int64_t lo, std::int64_t hi) {
  if (!f.offsets[d]) return;
  if (f.id_bits == 32)
    validate_direction<std::uint32_t>(f, d, lo, hi);
  else
    validate_direction<std::uint64_t>(f, d, lo, hi);
}

NgrNames::NgrNames(const NgrFile& f) : f_(&f) {
  const std::string& path = f.path;
  const auto outside = [&] {
    return InputError(path, 0, "file is truncated or corrupt: the names section lies outside the file "
                               "(regenerate or re-copy it)");
  };
  const std::uint64_t at = f.names_at;
  if (at == 0)
    throw InputError(path, 0, "corrupt header: the names section it declares is absent (regenerate the file)");
  if (at % kAlign || at < kHeaderBytes || at > f.size || f.size - at < 16) throw outside();
  std::memcpy(&count_, f.data + at, 8);
  std::memcpy(&text_bytes_, f.data + at + 8, 8);
  if (count_ != static_cast<std::uint64_t>(f.n))
    throw InputError(path, 0, "corrupt names section: " + std::to_string(count_) + " names for " +
                                  std::to_string(f.n) + " vertices (regenerate the file)");
  const std::uint64_t room = f.size - at - 16;
  if (count_ > room / 8 || text_bytes_ > room - count_ * 8) throw outside();
  ends_ = f.data + at + 16;
  text_ = reinterpret_cast<const char*>(ends_ + count_ * 8);
}

std::string_view NgrNames::name(std::uint64_t k) const {
  std::uint64_t begin = 0, end = 0;
  if (k > 0) std::memcpy(&begin, ends_ + (k - 1) * 8, 8);
  if (k < count_) std::memcpy(&end, ends_ + k * 8, 8);
  if (k >= count_ || end < begin || end > text_bytes_)
    throw InputError(f_->path, 0, "corrupt names section: name " + std::to_string(k) +
                                      " does not lie in its text (regenerate the file)");
  return {text_ + begin, end - begin};
}

bool NgrNames::complete() const {
  std::uint64_t last = 0;
  if (count_ > 0) std::memcpy(&last, ends_ + (count_ - 1) * 8, 8);
  return last == text_bytes_;
}

AnyGraph read_ngr(const std::string& path, bool verify_checksum) {
  auto m = map_or_inflate(path);
  Header h;
  const NgrFile f = describe(path, m, h);
  if (verify_checksum && file_checksum(h, m->data + kHeaderBytes, m->size - kHeaderBytes) != h.checksum)
    throw InputError(path, 0, "checksum mismatch: the file is corrupt or truncated (regenerate or re-copy it)");
  return h.id_bits == 32 ? load_typed<std::uint32_t>(f) : load_typed<std::uint64_t>(f);
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
