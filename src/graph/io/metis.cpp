// METIS graph files: '%' comments, a header "n m [fmt [ncon]]", then exactly
// n vertex lines (an empty line is a vertex without neighbours), each listing
// 1-based neighbours. fmt = 3 binary digits "sve": s = vertex sizes first,
// v = ncon vertex weights first (ignored: numagraph has no vertex weights),
// e = an edge weight after each neighbour. The graph is undirected: every
// edge appears in both endpoints' lines. We check that (same edges and
// weights both ways, via an order-independent fingerprint), that there are
// 2m entries, and emit each edge once.
#include <omp.h>

#include <string>
#include <vector>

#include "edge_lines.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

// Order-independent fingerprint of a multiset of edges: sum of a strong hash.
inline std::uint64_t edge_hash(std::uint64_t a, std::uint64_t b, double w) {
  std::uint64_t x = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);
  x ^= static_cast<std::uint64_t>(w * 1024.0) * 0xd1b54a32d192ed03ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct ChunkEdges {
  std::vector<std::uint64_t> src, dst;
  std::vector<weight_t> w;
  std::uint64_t entries = 0, lower_hash = 0, upper_hash = 0, lower = 0, upper = 0;
};

}  // namespace

EdgeList read_metis(const std::string& path) {
  TextFile file(path);
  const char* p = file.data();
  const char* end = p + file.size();
  std::int64_t line = 0;
  std::uint64_t n = 0, m = 0;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  std::uint64_t ncon = 1;
  for (bool found = false; !found;) {
    ++line;
    if (p >= end) throw InputError(path, line, "missing the header line 'n m [fmt [ncon]]' (empty file?)");
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(p, e, "%")) {
      try {
        LineCursor c(p, e);
        n = c.next_uint("vertex count");
        m = c.next_uint("edge count");
        if (!c.at_end()) {
          const std::string fmt(c.next_word("fmt"));
          if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
            throw LineError{"fmt '" + fmt + "' must be up to three 0/1 digits"};
          const std::string f = std::string(3 - fmt.size(), '0') + fmt;
          vertex_sizes = f[0] == '1';
          vertex_weights = f[1] == '1';
          edge_weights = f[2] == '1';
          if (!c.at_end()) ncon = c.next_uint("ncon");
        }
        c.expect_end("the header");
      } catch (const LineError& err) {
        throw InputError(path, line, err.message);
      }
      found = true;
    }
    p = nl ? nl + 1 : end;
  }
  // A trailing newline ends the last vertex line; it does not start another.
  const char* body_end = end;
  const auto chunks = split_lines(p, body_end, line + 1, 4 * omp_get_max_threads());
  const std::size_t parts = chunks.size();
  // Vertex index of each chunk's first line: count the non-comment lines.
  auto is_vertex_line = [](const char* b, const char* e) {
    const char* q = b;
    while (q < e && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    return !(q < e && *q == '%');
  };
  std::vector<std::uint64_t> first_vertex(parts + 1, 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::uint64_t c = 0;
    for_each_line(chunks[i], [&](const char* b, const char* e, std::int64_t) { c += is_vertex_line(b, e); });
    first_vertex[i + 1] = c;
  }
  for (std::size_t i = 0; i < parts; ++i) first_vertex[i + 1] += first_vertex[i];
  std::vector<ChunkEdges> out(parts);
  ErrorSlot error;
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::uint64_t v = first_vertex[i];
    ChunkEdges& ce = out[i];
    try {
      for_each_line(chunks[i], [&](const char* b, const char* e, std::int64_t ln) {
        if (!is_vertex_line(b, e)) return;
        try {
          LineCursor c(b, e);
          if (v >= n) {
            if (!c.at_end())
              throw LineError{"more vertex lines than the " + std::to_string(n) + " the header declares"};
            return;
          }
          if (vertex_sizes) c.next_uint("vertex size");
          if (vertex_weights)
            for (std::uint64_t k = 0; k < ncon; ++k) c.next_int("vertex weight");
          while (!c.at_end()) {
            const std::uint64_t u = c.next_uint("neighbour id");
            if (u < 1 || u > n)
              throw LineError{"neighbour id " + std::to_string(u) + " is out of range 1.." + std::to_string(n)};
            double w = 1;
            if (edge_weights) {
              w = static_cast<double>(c.next_int("edge weight"));
              check_weight(w, true, false);
            }
            ++ce.entries;
            const std::uint64_t x = u - 1;
            if (v < x) {
              ce.upper_hash += edge_hash(v, x, w);
              ++ce.upper;
              ce.src.push_back(v);
              ce.dst.push_back(x);
              if (edge_weights) ce.w.push_back(static_cast<weight_t>(w));
            } else if (v > x) {
              ce.lower_hash += edge_hash(x, v, w);
              ++ce.lower;
            } else {
              throw LineError{"vertex " + std::to_string(v + 1) + " lists itself: METIS graphs have no self-loops"};
            }
          }
        } catch (const LineError& err) {
          error.offer(ln, err.message);
          throw;
        }
        ++v;
      });
    } catch (const LineError&) {
    }
  }
  error.throw_if_set(path);
  if (first_vertex[parts] < n)
    throw InputError(path, 0,
                     "the header declares " + std::to_string(n) + " vertices but only " +
                         std::to_string(first_vertex[parts]) + " vertex lines follow (truncated file?)");
  std::uint64_t entries = 0, lower = 0, upper = 0, lower_hash = 0, upper_hash = 0;
  for (const auto& ce : out) {
    entries += ce.entries;
    lower += ce.lower;
    upper += ce.upper;
    lower_hash += ce.lower_hash;
    upper_hash += ce.upper_hash;
  }
  if (entries != 2 * m)
    throw InputError(path, 0,
                     "the header declares " + std::to_string(m) + " edges (" + std::to_string(2 * m) +
                         " adjacency entries) but the file has " + std::to_string(entries) + " entries");
  if (lower != upper || lower_hash != upper_hash)
    throw InputError(path, 0,
                     "the adjacency is not symmetric: some edge u-v (or its weight) appears in u's line "
                     "but not in v's; METIS files list every edge at both endpoints");
  EdgeList edges;
  edges.src = NumaArray<std::uint64_t>(upper);
  edges.dst = NumaArray<std::uint64_t>(upper);
  if (edge_weights) edges.weights = NumaArray<weight_t>(upper);
  std::vector<std::size_t> start(parts + 1, 0);
  for (std::size_t i = 0; i < parts; ++i) start[i + 1] = start[i] + out[i].src.size();
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::copy(out[i].src.begin(), out[i].src.end(), edges.src.begin() + start[i]);
    std::copy(out[i].dst.begin(), out[i].dst.end(), edges.dst.begin() + start[i]);
    if (edge_weights) std::copy(out[i].w.begin(), out[i].w.end(), edges.weights.begin() + start[i]);
  }
  edges.num_vertices = n;
  edges.undirected = true;
  edges.weight_kind = edge_weights ? WeightKind::kInteger : WeightKind::kNone;
  edges.source_name = path;
  if (n == 0) throw InputError(path, 0, "the graph has no vertices");
  return edges;
}

}  // namespace numagraph::io
