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
//
// Read in parts (part_readers.hpp), data line k of the file is vertex k, so a
// part is told the data lines before it (PartScope::data_lines_before, which
// the caller sums from part_span's counts). The fingerprints and counts are
// sums, combined over the parts; the first unmatched line needs every entry
// of the file, so only a part that is the whole file names it.
#include <omp.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "edge_lines.hpp"
#include "part_readers.hpp"
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

// The header line, which every part reads from the file's head.
struct MetisHeader {
  std::uint64_t n = 0, m = 0, ncon = 1;
  bool vertex_sizes = false, vertex_weights = false, edge_weights = false;
  std::int64_t header_line = 0;
  std::size_t data = 0;             // the byte after the header line: the vertex lines start there
  std::int64_t head_newlines = 0;  // '\n' bytes in [0, data)
};

MetisHeader read_header(const TextFile& file) {
  const std::string& path = file.path();
  const char* const start = file.data();
  const char* p = start;
  const char* end = p + file.size();
  std::int64_t line = 0;
  MetisHeader head;
  for (bool found = false; !found;) {
    ++line;
    if (p >= end) throw InputError(path, line, "missing the header line 'n m [fmt [ncon]]' (empty file?)");
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* e = nl ? nl : end;
    if (!is_blank_or_comment(p, e, "%")) {
      try {
        LineCursor c(p, e);
        head.n = c.next_uint("vertex count");
        head.m = c.next_uint("edge count");
        if (!c.at_end()) {
          const std::string fmt(c.next_word("fmt"));
          if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
            throw LineError{"fmt '" + fmt + "' must be up to three 0/1 digits"};
          const std::string f = std::string(3 - fmt.size(), '0') + fmt;
          head.vertex_sizes = f[0] == '1';
          head.vertex_weights = f[1] == '1';
          head.edge_weights = f[2] == '1';
          if (!c.at_end()) head.ncon = c.next_uint("ncon");
        }
        c.expect_end("the header");
      } catch (const LineError& err) {
        throw InputError(path, line, err.message);
      }
      found = true;
      head.header_line = line;
      head.head_newlines = nl ? line : line - 1;
    }
    p = nl ? nl + 1 : end;
  }
  head.data = static_cast<std::size_t>(p - start);
  return head;
}

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

// The vertex lines of [begin, end) (within the lines after the header), cut
// into chunks for the threads.
std::vector<Chunk> vertex_chunks(const TextFile& file, const MetisHeader& head, std::size_t begin, std::size_t end,
                                 std::int64_t first_line) {
  const std::size_t from = std::min(std::max(begin, head.data), end);
  const std::int64_t line = begin >= head.data ? first_line : head.header_line + 1;
  return split_lines(file.data() + from, file.data() + end, line, 4 * omp_get_max_threads());
}

// first[i]: the vertex lines of the chunks before chunk i; first.back(): all.
// A trailing newline ends the last vertex line; it does not start another.
std::vector<std::uint64_t> vertex_starts(const std::vector<Chunk>& chunks) {
  const std::size_t parts = chunks.size();
  std::vector<std::uint64_t> first(parts + 1, 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::uint64_t c = 0;
    for_each_line(chunks[i], [&](const char* b, const char* e, std::int64_t) { c += is_vertex_line(b, e); });
    first[i + 1] = c;
  }
  for (std::size_t i = 0; i < parts; ++i) first[i + 1] += first[i];
  return first;
}

// Cold path after the fingerprints disagree: lists every entry with its
// line, matches u's entry for u-v against v's entry for v-u, and returns the
// first line holding an entry without a partner. `chunks` are every vertex
// line of the file; the first is vertex `v0` (0).
std::int64_t first_unmatched_line(const std::vector<Chunk>& chunks, const MetisHeader& fmt, std::uint64_t v0) {
  struct Entry {
    std::uint64_t lo, hi;
    double w;
    bool upper;  // listed in the line of the smaller endpoint
    std::int64_t line;
  };
  std::vector<Entry> entries;
  std::uint64_t v = v0;
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

struct MetisScan : PartScan {
  EdgeList edges;
  std::string error_message;
};

}  // namespace

void check_metis_span(const std::string& path, std::int64_t data_lines, std::int64_t data_lines_before) {
  if (data_lines < 0 || data_lines_before < 0)
    throw UsageError(path + " is a METIS file, whose data line k is vertex k: take each part's span with "
                     "part_span(path, part, Format::kMetis), which counts its data lines, and set its "
                     "data_lines_before to the sum of data_lines over the parts before it");
}

std::int64_t count_metis_data_lines(const TextFile& file, std::size_t begin, std::size_t end) {
  const MetisHeader head = read_header(file);
  return static_cast<std::int64_t>(vertex_starts(vertex_chunks(file, head, begin, end, 0)).back());
}

std::unique_ptr<PartScan> scan_metis_part(const PartScope& part, const ReadOptions& options) {
  check_metis_span(part.path(), 0, part.data_lines_before);
  const MetisHeader fmt = read_header(part.file);
  auto scan = std::make_unique<MetisScan>();
  scan->mine = new_body(Format::kMetis, options);
  const auto chunks = vertex_chunks(part.file, fmt, part.begin, part.end, part.first_line);
  const std::size_t parts = chunks.size();
  const std::vector<std::uint64_t> first_vertex = vertex_starts(chunks);
  const auto v0 = static_cast<std::uint64_t>(part.data_lines_before);
  const std::uint64_t n = fmt.n;
  std::vector<ChunkEdges> out(parts);
  ErrorSlot error;
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::uint64_t v = v0 + first_vertex[i];
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
            if (fmt.edge_weights) ce.w.push_back(static_cast<weight_t>(w));
          });
        } catch (const LineError& err) {
          error.offer(ln, err.message);
          throw;
        }
        ++v;
      });
    } catch (const LineError&) {
      // Recorded in `error`; the rest of this chunk is skipped.
    }
  }
  MetisFacts& facts = scan->mine.metis;
  facts.first_vertex = part.data_lines_before;
  facts.vertex_lines = static_cast<std::int64_t>(first_vertex[parts]);
  for (const auto& ce : out) {
    facts.entries += ce.entries;
    facts.loops += ce.loops;
    facts.lower += ce.lower;
    facts.upper += ce.upper;
    facts.lower_hash += ce.lower_hash;
    facts.upper_hash += ce.upper_hash;
  }
  scan->data_lines = facts.vertex_lines;
  if (error.set()) {
    scan->mine.edge_error = error.line();
    scan->error_message = error.message();
    return scan;
  }
  const bool whole_file = part.begin == 0 && part.end == part.file.size();
  if (whole_file && (facts.lower != facts.upper || facts.lower_hash != facts.upper_hash))
    facts.unmatched_line = first_unmatched_line(chunks, fmt, v0);
  std::vector<std::size_t> start(parts + 1, 0);
  for (std::size_t i = 0; i < parts; ++i) start[i + 1] = start[i] + out[i].src.size();
  EdgeList& edges = scan->edges;
  edges.src = NumaArray<std::uint64_t>(start[parts]);
  edges.dst = NumaArray<std::uint64_t>(start[parts]);
  if (fmt.edge_weights) edges.weights = NumaArray<weight_t>(start[parts]);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < parts; ++i) {
    std::copy(out[i].src.begin(), out[i].src.end(), edges.src.begin() + start[i]);
    std::copy(out[i].dst.begin(), out[i].dst.end(), edges.dst.begin() + start[i]);
    if (fmt.edge_weights) std::copy(out[i].w.begin(), out[i].w.end(), edges.weights.begin() + start[i]);
  }
  return scan;
}

void check_metis_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines,
                      std::int64_t total_newlines) {
  const std::string& path = file.path();
  const MetisHeader head = read_header(file);
  const MetisFacts& f = whole.metis;
  if (!f.numbered || f.first_vertex != 0)
    throw UsageError(path + ": the parts' data_lines_before do not count the data lines before them: set each "
                     "part's to the sum of PartSpan::data_lines over the parts before it (0 for the first)");
  if (whole.edge_error) return;  // a bad vertex line comes first: read_metis_part reports it
  const auto lines = static_cast<std::uint64_t>(data_lines);
  if (head.n == 0)
    throw InputError(path, head.header_line, "the header declares no vertices: a graph needs at least one edge");
  if (lines < head.n) {
    const std::int64_t last_line = head.header_line + 1 + count_newlines(file, total_newlines) - head.head_newlines;
    throw InputError(path, head.header_line,
                     "the header declares " + std::to_string(head.n) + " vertices but only " +
                         std::to_string(lines) + " vertex lines follow (the file ends at line " +
                         std::to_string(last_line) + "; truncated file?)");
  }
  if (f.lower != f.upper || f.lower_hash != f.upper_hash) {
    if (f.unmatched_line)
      throw InputError(path, f.unmatched_line,
                       "the adjacency is not symmetric: this line lists an edge u-v (or a weight) that the "
                       "other endpoint's line does not; METIS files list every edge at both endpoints");
    throw InputError(path, 0,
                     "the adjacency is not symmetric: a line lists an edge u-v (or a weight) that the other "
                     "endpoint's line does not (METIS files list every edge at both endpoints); read in parts, "
                     "the line cannot be named: `numagraph info " + path + "` reads the file whole and names it");
  }
  if (f.entries + f.loops != 2 * head.m)
    throw InputError(path, head.header_line,
                     "the header declares " + std::to_string(head.m) + " edges (" + std::to_string(2 * head.m) +
                         " adjacency entries) but the file has " + std::to_string(f.entries + f.loops) +
                         " (self-loops count twice)");
  if (head.m == 0) throw InputError(path, head.header_line, "the graph has no edges (the header declares 0)");
}

PartEdges read_metis_part(const PartScope& part, PartScan& scan, const FactsBody& whole) {
  const MetisHeader head = read_header(part.file);
  auto& mine = static_cast<MetisScan&>(scan);
  PartEdges out;
  if (whole.edge_error) {
    if (mine.mine.edge_error == whole.edge_error) throw InputError(part.path(), whole.edge_error, mine.error_message);
    out.edges.source_name = part.path();
    return out;
  }
  out.edges = std::move(mine.edges);
  out.edges.num_vertices = head.n;
  out.edges.undirected = true;
  out.edges.weight_kind = head.edge_weights ? WeightKind::kInteger : WeightKind::kNone;
  out.edges.source_name = part.path();
  return out;
}

EdgeList read_metis(const std::string& path) { return read_text_edges(path, Format::kMetis, ReadOptions{}); }

}  // namespace numagraph::io
