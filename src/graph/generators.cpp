// Generators. Every edge i is a pure function of (seed, i): the output does not
// depend on the thread count, and MPI ranks can generate disjoint edge ranges
// of the very same graph (see kronecker_edges in generators.hpp).
#include "numagraph/graph/generators.hpp"

#include <string>

#include "numagraph/util/error.hpp"
#include "numagraph/util/memory_guard.hpp"

namespace numagraph {

namespace {

// SplitMix64 finaliser: a strong 64-bit mixer, used as a counter-based RNG.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline std::uint64_t stream(std::uint64_t seed, std::uint64_t salt, std::uint64_t i) {
  return mix(mix(seed ^ (salt * 0xd1b54a32d192ed03ULL)) + i);
}

// A bijection on [0, 2^bits): rounds of (odd multiply, add, xor-shift), all
// invertible modulo 2^bits. It scrambles Kronecker ids so that vertex 0 is not
// the hub, as the Graph500 spec asks, without storing a permutation.
struct Scramble {
  int bits;
  std::uint64_t mask, mul[3], add[3];
  Scramble(int b, std::uint64_t seed) : bits(b), mask(b >= 64 ? ~0ULL : (1ULL << b) - 1) {
    for (int r = 0; r < 3; ++r) {
      mul[r] = stream(seed, 101 + r, 0) | 1ULL;
      add[r] = stream(seed, 201 + r, 0);
    }
  }
  std::uint64_t operator()(std::uint64_t x) const {
    const int shift = bits > 1 ? (bits + 1) / 2 : 1;
    for (int r = 0; r < 3; ++r) {
      x = (x * mul[r] + add[r]) & mask;
      x ^= x >> shift;
    }
    return x;
  }
};

void check_scale(const GeneratorOptions& o, const char* what) {
  if (o.scale < 1 || o.scale > 40)
    throw UsageError(std::string(what) + " scale must be in 1..40 (got " + std::to_string(o.scale) + ")");
  if (o.edge_factor < 1)
    throw UsageError("edge factor must be at least 1 (got " + std::to_string(o.edge_factor) + ")");
}

// The edge list and the graph built from it (both directions, offsets) must
// fit: refuse `--scale 36` before allocating terabytes.
void check_generator_memory(std::int64_t m, std::uint64_t n, bool weighted, const std::string& name) {
  const std::uint64_t arcs = 2 * static_cast<std::uint64_t>(m);
  const std::uint64_t id_bytes = n >= (std::uint64_t{1} << 31) ? 8 : 4, w = weighted ? 4 : 0;
  const std::uint64_t list = saturating_mul(static_cast<std::uint64_t>(m), 16 + w);
  const std::uint64_t csr = saturating_add(saturating_mul(n + 1, 16), saturating_mul(arcs, id_bytes + w));
  check_memory(name + " (" + std::to_string(n) + " vertices, " + std::to_string(m) + " edges)",
               saturating_add(list, csr));
}

EdgeList make_edges(std::int64_t m, std::uint64_t n, bool weighted, std::string name) {
  check_generator_memory(m, n, weighted, name);
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(static_cast<std::size_t>(m));
  e.dst = NumaArray<std::uint64_t>(static_cast<std::size_t>(m));
  if (weighted) {
    e.weights = NumaArray<weight_t>(static_cast<std::size_t>(m));
    e.weight_kind = WeightKind::kInteger;
  }
  e.num_vertices = n;
  e.undirected = true;
  e.source_name = std::move(name);
  return e;
}

inline weight_t edge_weight(std::uint64_t seed, std::int64_t i) {
  return static_cast<weight_t>(1 + stream(seed, 7, static_cast<std::uint64_t>(i)) % 255);
}

}  // namespace

void kronecker_edges(const GeneratorOptions& o, std::int64_t begin, std::int64_t end,
                     std::uint64_t* src, std::uint64_t* dst, weight_t* weights) {
  // Quadrant thresholds of A=0.57, B=0.19, C=0.19 (D=0.05) in 16-bit fixed
  // point: four levels are drawn from each 64-bit random number.
  constexpr std::uint32_t kA = 37355, kAB = 49807, kABC = 62259;  // 0.57, 0.76, 0.95 * 65536
  const Scramble scramble(o.scale, o.seed);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = begin; i < end; ++i) {
    std::uint64_t u = 0, v = 0, bits = 0;
    for (int level = 0; level < o.scale; ++level) {
      if (level % 4 == 0) bits = stream(o.seed, 1 + level / 4, static_cast<std::uint64_t>(i));
      const std::uint32_t r = static_cast<std::uint32_t>(bits & 0xffff);
      bits >>= 16;
      const std::uint64_t ubit = r >= kAB;                 // quadrants C, D: lower half
      const std::uint64_t vbit = (r >= kA && r < kAB) || r >= kABC;  // B or D: right half
      u = (u << 1) | ubit;
      v = (v << 1) | vbit;
    }
    src[i - begin] = scramble(u);
    dst[i - begin] = scramble(v);
    if (weights) weights[i - begin] = edge_weight(o.seed, i);
  }
}

EdgeList generate_kronecker(const GeneratorOptions& o) {
  check_scale(o, "Kronecker");
  const std::uint64_t n = 1ULL << o.scale;
  const std::int64_t m = static_cast<std::int64_t>(n) * o.edge_factor;
  EdgeList e = make_edges(m, n, o.weighted, "kron" + std::to_string(o.scale));
  kronecker_edges(o, 0, m, e.src.data(), e.dst.data(), o.weighted ? e.weights.data() : nullptr);
  return e;
}

EdgeList generate_uniform(const GeneratorOptions& o) {
  check_scale(o, "uniform");
  const std::uint64_t n = 1ULL << o.scale;
  const std::int64_t m = static_cast<std::int64_t>(n) * o.edge_factor;
  EdgeList e = make_edges(m, n, o.weighted, "urand" + std::to_string(o.scale));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    e.src[i] = stream(o.seed, 11, static_cast<std::uint64_t>(i)) & (n - 1);
    e.dst[i] = stream(o.seed, 12, static_cast<std::uint64_t>(i)) & (n - 1);
    if (o.weighted) e.weights[i] = edge_weight(o.seed, i);
  }
  return e;
}

EdgeList generate_grid(const GeneratorOptions& o) {
  check_scale(o, "grid");
  const std::uint64_t rows = 1ULL << (o.scale / 2), cols = 1ULL << (o.scale - o.scale / 2);
  const std::int64_t horizontal = static_cast<std::int64_t>(rows * (cols - 1));
  const std::int64_t vertical = static_cast<std::int64_t>((rows - 1) * cols);
  EdgeList e = make_edges(horizontal + vertical, rows * cols, o.weighted, "grid" + std::to_string(o.scale));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < horizontal + vertical; ++i) {
    std::uint64_t a, b;
    if (i < horizontal) {
      const std::uint64_t r = static_cast<std::uint64_t>(i) / (cols - 1);
      const std::uint64_t c = static_cast<std::uint64_t>(i) % (cols - 1);
      a = r * cols + c;
      b = a + 1;
    } else {
      a = static_cast<std::uint64_t>(i - horizontal);
      b = a + cols;
    }
    e.src[i] = a;
    e.dst[i] = b;
    if (o.weighted) e.weights[i] = edge_weight(o.seed, i);
  }
  return e;
}

}  // namespace numagraph
