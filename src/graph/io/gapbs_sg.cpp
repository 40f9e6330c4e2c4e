// The GAP Benchmark Suite's serialized graphs (.sg unweighted, .wsg weighted),
// so gapbs users can bring their converted graphs and we can hand ours to
// gapbs. Layout (little-endian, no padding): bool directed (1 byte), int64
// arcs, int64 vertices, int64 offsets[vertices+1], then arcs neighbours:
// int32 ids (.sg) or {int32 id, int32 weight} pairs (.wsg); directed graphs
// repeat offsets and neighbours for the in-edges. Ids are 32-bit.
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "binary_file.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

constexpr std::size_t kHeader = 1 + 8 + 8;

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Reads one CSR direction starting at `at`; validates it; returns the end.
std::size_t read_direction(const std::string& path, const Mapping& m, std::size_t at, std::int64_t n,
                           std::int64_t arcs, bool weighted, CSRArrays<std::uint32_t>& out, bool& integral) {
  const std::size_t stride = weighted ? 8 : 4;
  // The arrays are copied out of the file, so the file's size bounds them;
  // compare without overflow (a header may declare 2^62 arcs).
  const std::size_t left = m.size - std::min(m.size, at);
  const bool fits = static_cast<std::uint64_t>(arcs) <= left / stride &&
                    static_cast<std::size_t>(n + 1) * 8 <= left - static_cast<std::size_t>(arcs) * stride;
  const std::size_t need = fits ? static_cast<std::size_t>(n + 1) * 8 + static_cast<std::size_t>(arcs) * stride : 0;
  if (!fits)
    throw InputError(path, 0, "file is truncated: " + std::to_string(m.size) + " bytes, the header declares " +
                                  std::to_string(n) + " vertices and " + std::to_string(arcs) +
                                  " arcs, which need more (regenerate or re-copy the file)");
  if (m.size < at + need)
    throw InputError(path, 0, "file is truncated: " + std::to_string(m.size) + " bytes, the header implies at least " +
                                  std::to_string(at + need));
  out.offsets = NumaArray<eid_t>(static_cast<std::size_t>(n) + 1, numa::placement_for("graph"));
  out.neighbors = NumaArray<std::uint32_t>(static_cast<std::size_t>(arcs), numa::placement_for("graph"));
  if (weighted)
    out.weights = NumaArray<weight_t>(static_cast<std::size_t>(arcs), numa::placement_for("graph"));
  const std::uint8_t* off = m.data + at;
  const std::uint8_t* nb = off + static_cast<std::size_t>(n + 1) * 8;
  bool bad_offsets = false, bad_ids = false, bad_weight = false;
#pragma omp parallel for schedule(static) reduction(|| : bad_offsets)
  for (std::int64_t v = 0; v <= n; ++v) {
    out.offsets[v] = load<std::int64_t>(off + static_cast<std::size_t>(v) * 8);
    if (v > 0 && load<std::int64_t>(off + static_cast<std::size_t>(v - 1) * 8) > out.offsets[v]) bad_offsets = true;
  }
  if (bad_offsets || out.offsets[0] != 0 || out.offsets[n] != arcs)
    throw InputError(path, 0, "corrupt offsets: they must rise from 0 to the arc count (not a gapbs .sg/.wsg file?)");
#pragma omp parallel for schedule(static) reduction(|| : bad_ids, bad_weight)
  for (std::int64_t i = 0; i < arcs; ++i) {
    const std::int32_t id = load<std::int32_t>(nb + static_cast<std::size_t>(i) * stride);
    if (id < 0 || id >= n) bad_ids = true;
    out.neighbors[i] = static_cast<std::uint32_t>(id);
    if (weighted) {
      const std::int32_t w = load<std::int32_t>(nb + static_cast<std::size_t>(i) * stride + 4);
      if (std::abs(static_cast<std::int64_t>(w)) > kMaxExactIntegerWeight) bad_weight = true;
      out.weights[i] = static_cast<weight_t>(w);
    }
  }
  if (bad_ids) throw InputError(path, 0, "corrupt neighbour ids: some are outside 0.." + std::to_string(n - 1));
  if (bad_weight) throw InputError(path, 0, "a weight exceeds 2^24, the largest numagraph stores exactly");
  integral = true;
  // numagraph keeps neighbour lists sorted; gapbs writes them sorted, but sort
  // any that are not rather than trust the file.
  std::vector<std::pair<std::uint32_t, weight_t>> scratch;
#pragma omp parallel for schedule(dynamic, 1024) private(scratch)
  for (std::int64_t v = 0; v < n; ++v) {
    std::uint32_t* b = out.neighbors.data() + out.offsets[v];
    std::uint32_t* e = out.neighbors.data() + out.offsets[v + 1];
    if (std::is_sorted(b, e)) continue;
    if (!weighted) {
      std::sort(b, e);
      continue;
    }
    weight_t* w = out.weights.data() + out.offsets[v];
    scratch.clear();
    for (std::uint32_t* q = b; q < e; ++q) scratch.emplace_back(*q, w[q - b]);
    std::sort(scratch.begin(), scratch.end());
    for (std::size_t k = 0; k < scratch.size(); ++k) std::tie(b[k], w[k]) = scratch[k];
  }
  return at + need;
}

}  // namespace

AnyGraph read_gapbs(const std::string& path, bool weighted) {
  auto m = map_or_inflate(path);
  if (m->size < kHeader) throw InputError(path, 0, "file is truncated: shorter than the 17-byte .sg header");
  const std::uint8_t directed_byte = m->data[0];
  if (directed_byte > 1) throw InputError(path, 0, "bad header: the first byte (directed flag) must be 0 or 1");
  const auto arcs = load<std::int64_t>(m->data + 1);
  const auto n = load<std::int64_t>(m->data + 9);
  if (n < 0 || arcs < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw InputError(path, 0, "bad header: vertex or arc count out of range for a gapbs serialized graph");
  const bool directed = directed_byte == 1;
  CSRArrays<std::uint32_t> out, in;
  bool integral = true;
  std::size_t at = read_direction(path, *m, kHeader, n, arcs, weighted, out, integral);
  if (directed) at = read_direction(path, *m, at, n, arcs, weighted, in, integral);
  if (at != m->size)
    throw InputError(path, 0, "file has " + std::to_string(m->size - at) +
                                  " unexpected trailing bytes (wrong extension: .sg vs .wsg?)");
  std::int64_t loops = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : loops)
  for (std::int64_t v = 0; v < n; ++v)
    for (eid_t k = out.offsets[v]; k < out.offsets[v + 1]; ++k) loops += out.neighbors[k] == v;
  return Graph32(n, directed, weighted ? WeightKind::kInteger : WeightKind::kNone, std::move(out), std::move(in), {},
                 loops);
}

void write_gapbs(const AnyGraph& any, const std::string& path, bool weighted) {
  const auto* g = std::get_if<Graph32>(&any);
  if (!g) throw UsageError("gapbs .sg/.wsg files hold 32-bit ids only; this graph has 2^32 vertices or more");
  if (weighted && g->weight_kind() != WeightKind::kInteger)
    throw UsageError(std::string("a .wsg file holds integer weights; this graph's weights are ") +
                     to_string(g->weight_kind()) + " (write .sg, or .ngr which keeps any weights)");
  if (g->relabelled())
    throw UsageError("gapbs files cannot keep the original ids of a relabelled graph; write .ngr or .el instead");
  if (g->reordered())
    throw UsageError("gapbs files cannot keep the permutation of a reordered graph; write .ngr (keeps it) or .el "
                     "(original ids) instead");
  BinaryWriter w(path);
  const std::uint8_t directed = g->directed() ? 1 : 0;
  const std::int64_t arcs = g->num_arcs(), n = g->num_vertices();
  w.write(&directed, 1);
  w.write(&arcs, 8);
  w.write(&n, 8);
  auto dump = [&](const CSRArrays<std::uint32_t>& a) {
    w.write(a.offsets.data(), a.offsets.bytes());
    if (!weighted) {
      w.write(a.neighbors.data(), a.neighbors.bytes());
      return;
    }
    std::vector<std::int32_t> pairs;
    constexpr std::int64_t kBlock = 1 << 20;
    for (std::int64_t s = 0; s < arcs; s += kBlock) {
      const std::int64_t e = std::min(arcs, s + kBlock);
      pairs.resize(static_cast<std::size_t>(2 * (e - s)));
      for (std::int64_t i = s; i < e; ++i) {
        pairs[static_cast<std::size_t>(2 * (i - s))] = static_cast<std::int32_t>(a.neighbors[i]);
        pairs[static_cast<std::size_t>(2 * (i - s) + 1)] = static_cast<std::int32_t>(a.weights[i]);
      }
      w.write(pairs.data(), pairs.size() * 4);
    }
  };
  dump(g->out());
  if (g->directed()) {
    if (!g->has_in_edges()) throw UsageError("writing a directed .sg needs in-edges; rebuild the graph with in-edges");
    dump(g->in_arrays());
  }
  w.close();
}

}  // namespace numagraph::io
