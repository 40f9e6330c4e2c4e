// The distributed Graph500 graph: a 1-D partition of the Kronecker graph's
// vertices into contiguous blocks (one per rank, numbered node-major, see
// comm.hpp), each rank holding the CSR adjacency of its own vertices.
//
// Method: every rank generates a disjoint range of the edge list with the
// very generator the shared-memory tool uses (kronecker_edges), so the graph
// is identical to `numagraph bfs --kron S`; both directions of every edge are
// sent to the owners of their sources with one MPI_Alltoallv; each owner then
// sorts its lists and drops self-loops and duplicates, as the shared-memory
// builder does by default.
#pragma once

#include <cstdint>

#include "comm.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/types.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::dist {

// Contiguous blocks of `block_len` vertices (a multiple of 64, so that every
// block starts on a bitmap word); block b covers [b * block_len, (b + 1) * block_len)
// clipped to n. The bitmaps are padded to blocks * block_len bits.
struct Partition {
  std::int64_t n = 0;
  std::int64_t block_len = 64;
  int blocks = 1;

  Partition() = default;
  Partition(std::int64_t vertices, int num_blocks);
  std::int64_t block_words() const { return block_len / 64; }
  std::int64_t padded_words() const { return block_words() * blocks; }
  int block_of(std::uint64_t v) const { return static_cast<int>(static_cast<std::int64_t>(v) / block_len); }
  std::int64_t begin(int b) const;
  std::int64_t end(int b) const;
};

struct DistGraph {
  Partition part;
  std::int64_t first = 0;    // my vertices are [first, first + local_n)
  std::int64_t local_n = 0;
  NumaArray<eid_t> offsets;  // local_n + 1
  NumaArray<std::uint32_t> adj;  // global neighbour ids, sorted per vertex
  std::int64_t global_arcs = 0;  // sum of all ranks' adjacency sizes (2 x undirected edges)
  double generation_s = 0;       // edge generation (max over ranks)
  double construction_s = 0;     // redistribution + CSR build (max over ranks)

  std::int64_t degree(std::int64_t local) const { return offsets[local + 1] - offsets[local]; }
};

// Generates and distributes the Kronecker graph `options` describes
// (scale <= 32: global ids travel as 32-bit halves of one word).
DistGraph build_kronecker(const Layout& layout, const GeneratorOptions& options);

}  // namespace numagraph::dist
