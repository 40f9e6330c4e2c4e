// METIS graph files: '%' comments, a header "n m [fmt [ncon]]", then exactly
// n vertex lines (an empty line is a vertex without neighbours), each listing
// 1-based neighbours. fmt = 3 binary digits "sve": s = vertex sizes first,
// v = ncon vertex weights first (ignored: numagraph has no vertex weights),
// e = a positive integer edge weight after each neighbour. The graph is
// undirected: every edge appears in both endpoints' lines (a self-loop, which
// METIS itself does not allow but other tools write, appears once and counts
// as one edge). We check the symmetry (same edges and weights both ways, via
// an order-independent fingerprint; when it fails a serial pass finds the
// first line with an unmatched entry), that there are 2m entries, and emit
// each edge once (u < v, loops once).
#include <omp.h>

#include <algorithm>
#include <string>
#include <tuple>
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
  std::uint64_t entries = 0, loops = 0, lower_hash = 0, upper_hash = 0, lower = 0, upper = 0;
};

struct MetisHeader {
  std::uint64_t n = 0, ncon = 1;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
};

// Parses one vertex line, calling f(x, w) for each
// 0-based neighbour x with weight w. Throws LineError.
template <typename F>
void parse_vertex_line(LineCursor& c, const MetisHeader& fmt, F&& f) {
  if (fmt.vertex_sizes) c.next_uint("vertex size");
  if (fmt.vertex_weights)
    for (std::uint64_t k = 0; k < fmt.ncon; ++k) c.next_int("vertex weight");
  while (!c.at_end()) {
    const std::uint64_t u = c.next_uint("neighbour id");
    if (u < 1 || u > fmt.n)
      throw LineError{"neighbour id " + std::to_string(u) + " is out of range 1.." + std::to_string(fmt.n)};
    double w = 1;
    if (fmt.edge_weights) {
      w = static_cast<double>(c.next_int("edge weight"));
      if (w <= 0) throw LineError{"edge weight " + std::to_string(static_cast<long long>(w)) +
                                  " is not allowed: METIS edge weights are positive integers"};
      check_weight(w, true, false);
    }
    f(u - 1, w);
  }
}

inline bool is_vertex_line(const char* b, const char* e) {
  while (b < e && (*b == ' ' || *b == '\t' || *b == '\r')) ++b;
  return !(b < e && *b == '%');
}

// Cold path after the fingerprints disagree: lists every entry with its
// line, matches u's entry for u-v against v's entry for v-u, and returns the
// first line holding an entry without a partner.
std::int64_t first_unmatched_line(const std::vector<Chunk>& chunks, const MetisHeader& fmt) {
  struct Entry {
    std::uint64_t lo, hi;
    double w;
    bool upper;  // listed in the line of the smaller endpoint
    std::int64_t line;
  };
  std::vector<Entry> entries;
  std::uint64_t v = 0;
  for (const Chunk& chunk : chunks)
    for_each_line(chunk, [&](const char* b, const char* e, std::int64_t ln) {
      if (!is_vertex_line(b, e) || v >= fmt.n) return;
      LineCursor c(b, e);
      parse_vertex_line(c, fmt, [&](std::uint64_t x, double w) {
        if (x != v) entries.push_back({std::min(v, x), std::max(v, x), w, v < x, ln});
      });
      ++v;
    });
  auto key = [](const Entry& a) { return std::tuple(a.lo, a.hi, a.w); };
  std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
    return std::tuple(a.lo, a.hi, a.w, a.upper) < std::tuple(b.lo, b.hi, b.w, b.upper);
  });
  std::int64_t first = 0;
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i;
    std::int64_t lower = 0, upper = 0;
    while (j < entries.size() && key(entries[j]) == key(entries[i])) (entries[j++].upper ? upper : lower)++;
    if (lower != upper) {
      // The surplus side's entries are the unmatched ones; take its first line.
      for (std::size_t k = i; k < j; ++k)
        if (entries[k].upper == (upper > lower) && (first == 0 || entries[k].line < first)) first = entries[k].line;
    }
    i = j;
  }
  return first;
}

}  // namespace

EdgeList read_metis(const std::string& path) {
  TextFile file(path);
  const char* p = file.data();
  const char* end = p + file.size();
  std::int64_t line = 0;
  std::uint64_t n = 0, m = 0;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  std::uint64_t ncon = 1;
  std::int64_t header_line = 0;
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
      header_line = line;
    }
    p = nl ? nl + 1 : end;
  }
  const MetisHeader fmt{n, ncon, vertex_sizes, vertex_weights, edge_weights};
  const auto chunks = split_lines(p, end, line + 1, 4 * omp_get_max_threads());
  const std::size_t parts = chunks.size();
  // Vertex index of each chunk's first line: count the non-comment lines. A
  // trailing newline ends the last vertex line; it does not start another.
  std::vector<std::uint64_t> first_vertex(parts + 1, 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::uint64_t c = 0;
    for_each_line(chunks[i], [&](const char* b, const char* e, std::int64_t) { c += is_vertex_line(b, e); });
    first_vertex[i + 1] = c;
  }
  for (std::size_t i = 0; i < parts; ++i) first_vertex[i + 1] += first_vertex[i];
  const std::int64_t last_line = chunks.empty() ? line : chunks.back().first_line + std::count(chunks.back().begin, chunks.back().end, '\n');
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
          parse_vertex_line(c, fmt, [&](std::uint64_t x, double w) {
            ++ce.entries;
            if (v < x) {
              ce.upper_hash += edge_hash(v, x, w);
              ++ce.upper;
            } else if (v > x) {
              ce.lower_hash += edge_hash(x, v, w);
              ++ce.lower;
              return;
            } else {
              ++ce.loops;
            }
            ce.src.push_back(v);
            ce.dst.push_back(x);
            if (edge_weights) ce.w.push_back(static_cast<weight_t>(w));
          });
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
  if (n == 0) throw InputError(path, header_line, "the header declares no vertices: a graph needs at least one edge");
  if (first_vertex[parts] < n)
    throw InputError(path, header_line,
                     "the header declares " + std::to_string(n) + " vertices but only " +
                         std::to_string(first_vertex[parts]) + " vertex lines follow (the file ends at line " +
                         std::to_string(last_line) + "; truncated file?)");
  std::uint64_t entries = 0, loops = 0, lower = 0, upper = 0, lower_hash = 0, upper_hash = 0;
  for (const auto& ce : out) {
    entries += ce.entries;
    loops += ce.loops;
    lower += ce.lower;
    upper += ce.upper;
    lower_hash += ce.lower_hash;
    upper_hash += ce.upper_hash;
  }
  if (lower != upper || lower_hash != upper_hash)
    throw InputError(path, first_unmatched_line(chunks, fmt),
                     "the adjacency is not symmetric: this line lists an edge u-v (or a weight) that the "
                     "other endpoint's line does not; METIS files list every edge at both endpoints");
  if (entries + loops != 2 * m)
    throw InputError(path, header_line,
                     "the header declares " + std::to_string(m) + " edges (" + std::to_string(2 * m) +
                         " adjacency entries) but the file has " + std::to_string(entries + loops) +
                         " (self-loops count twice)");
  if (m == 0) throw InputError(path, header_line, "the graph has no edges (the header declares 0)");
  const std::uint64_t kept = upper + loops;
  EdgeList edges;
  edges.src = NumaArray<std::uint64_t>(kept);
  edges.dst = NumaArray<std::uint64_t>(kept);
  if (edge_weights) edges.weights = NumaArray<weight_t>(kept);
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
  return edges;
}

}  // namespace numagraph::io
