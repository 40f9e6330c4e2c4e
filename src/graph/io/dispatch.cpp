// Format detection and the public entry points of graph/io.hpp.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>

#include "numagraph/graph/io.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/atomic_file.hpp"
#include "readers.hpp"
#include "text_input.hpp"

namespace numagraph {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string strip_gz(const std::string& path) {
  return ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
}

// Guesses a format from the first bytes: .ngr magic, a Matrix Market banner,
// a DIMACS problem/comment line, or an edge list with 2 or 3 columns.
Format sniff(const std::string& path) {
  io::TextFile file(path);
  const char* p = file.data();
  const std::size_t size = file.size();
  if (size >= 8 && std::memcmp(p, "NUMAGRPH", 8) == 0) return Format::kNgr;
  if (size >= 14 && std::memcmp(p, "%%MatrixMarket", 14) == 0) return Format::kMatrixMarket;
  const char* end = p + std::min<std::size_t>(size, 1 << 16);
  while (p < end) {
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* e = nl ? nl : end;
    if (!io::is_blank_or_comment(p, e, "#%")) {
      if ((*p == 'p' || *p == 'c' || *p == 'a') && e - p > 1 && (p[1] == ' ' || p[1] == '\t')) return Format::kDimacs;
      io::LineCursor c(p, e);
      int columns = 0;
      try {
        while (!c.at_end()) {
          c.next_word("column");
          ++columns;
        }
      } catch (const io::LineError&) {
      }
      if (columns == 2) return Format::kEdgeList;
      if (columns == 3) return Format::kWeightedEdgeList;
      break;
    }
    p = nl ? nl + 1 : end;
  }
  throw InputError(path, 0,
                   std::string("cannot tell the format from the name or the content; give it with --format (") +
                       kInputFormatNames + ")");
}

Format resolve(const std::string& path, Format f) {
  if (f != Format::kAuto) return f;
  f = format_from_extension(path);
  return f != Format::kAuto ? f : sniff(path);
}

// The arcs of a graph as an edge list (undirected: each edge once), with the
// user's ids (io::user_id: original labels, or the ids before a renumbering),
// so a CSR file can go through the builder. A reordered graph comes out of the
// builder in its original order: the answers stay right, the order is lost.
template <typename G>
EdgeList to_edge_list(const G& g) {
  const std::int64_t n = g.num_vertices();
  NumaArray<eid_t> count(static_cast<std::size_t>(n) + 1);
  parallel::for_static(std::int64_t{0}, n, [&](std::int64_t u) {
    eid_t c = 0;
    for (auto v : g.out_neighbors(static_cast<typename G::vertex_type>(u))) c += g.directed() || static_cast<std::int64_t>(v) >= u;
    count[u] = c;
  });
  NumaArray<eid_t> start(static_cast<std::size_t>(n) + 1);
  parallel::exclusive_prefix_sum(count.data(), start.data(), n);
  const auto m = static_cast<std::size_t>(start[n]);
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(m);
  e.dst = NumaArray<std::uint64_t>(m);
  if (g.weighted()) e.weights = NumaArray<weight_t>(m);
  e.weight_kind = g.weight_kind();
  e.undirected = !g.directed();
  if (!g.relabelled()) e.num_vertices = static_cast<std::uint64_t>(n);
  e.names = g.names();
  parallel::for_dynamic(std::int64_t{0}, n, [&](std::int64_t u) {
    const auto uv = static_cast<typename G::vertex_type>(u);
    auto nb = g.out_neighbors(uv);
    eid_t k = start[u];
    for (std::size_t j = 0; j < nb.size(); ++j) {
      if (!g.directed() && nb[j] < uv) continue;
      e.src[k] = io::user_id(g, uv);
      e.dst[k] = io::user_id(g, nb[j]);
      if (g.weighted()) e.weights[k] = g.out_weights(uv)[j];
      ++k;
    }
  }, std::int64_t{256});
  return e;
}

// True when build options would change a graph loaded from a CSR file.
template <typename G>
bool needs_rebuild(const G& g, const BuildOptions& o) {
  if (o.symmetrize && g.directed()) return true;
  if (o.drop_self_loops && g.num_self_loops() > 0) return true;
  if (o.relabel == Relabel::kOn && !g.relabelled()) return true;
  if (o.in_edges && !g.has_in_edges()) return true;
  if (o.force_64bit_ids && sizeof(typename G::vertex_type) == 4) return true;
  return o.dedupe && count_duplicate_arcs(g) > 0;
}

// Why needs_rebuild said yes, for the message of a rebuild the memory guard
// refuses (a rebuild copies the mapped graph onto the heap).
template <typename G>
std::string rebuild_reasons(const G& g, const BuildOptions& o) {
  std::string why;
  const auto add = [&why](const std::string& text) { why += (why.empty() ? "" : ", ") + text; };
  if (o.symmetrize && g.directed()) add("symmetrizing it");
  if (o.drop_self_loops && g.num_self_loops() > 0)
    add("dropping its " + std::to_string(g.num_self_loops()) + " self-loop" + (g.num_self_loops() == 1 ? "" : "s"));
  if (o.relabel == Relabel::kOn && !g.relabelled()) add("relabelling it");
  if (o.in_edges && !g.has_in_edges()) add("adding in-edges");
  if (o.force_64bit_ids && sizeof(typename G::vertex_type) == 4) add("widening its ids to 64 bits");
  if (o.dedupe) {
    const std::int64_t dups = count_duplicate_arcs(g);
    if (dups > 0) add("dropping its " + std::to_string(dups) + " duplicate arc" + (dups == 1 ? "" : "s"));
  }
  return why;
}

}  // namespace

Format parse_format(const std::string& name) {
  static const std::pair<const char*, Format> kNames[] = {
      {"el", Format::kEdgeList}, {"wel", Format::kWeightedEdgeList}, {"snap", Format::kSnap},
      {"txt", Format::kSnap},    {"mtx", Format::kMatrixMarket},     {"gr", Format::kDimacs},
      {"dimacs", Format::kDimacs}, {"metis", Format::kMetis},        {"graph", Format::kMetis},
      {"sg", Format::kGapbs},    {"wsg", Format::kGapbsWeighted},    {"ngr", Format::kNgr},
      {"csv", Format::kCsv},     {"tsv", Format::kTsv}};
  for (const auto& [n, f] : kNames)
    if (name == n) return f;
  throw UsageError("unknown format '" + name + "' (use one of: " + kInputFormatNames + ")");
}

std::string format_name(Format f) {
  switch (f) {
    case Format::kAuto: return "auto";
    case Format::kEdgeList: return "el";
    case Format::kWeightedEdgeList: return "wel";
    case Format::kSnap: return "snap";
    case Format::kMatrixMarket: return "mtx";
    case Format::kDimacs: return "gr";
    case Format::kMetis: return "metis";
    case Format::kGapbs: return "sg";
    case Format::kGapbsWeighted: return "wsg";
    case Format::kNgr: return "ngr";
    case Format::kCsv: return "csv";
    case Format::kTsv: return "tsv";
  }
  return "auto";
}

Format format_from_extension(const std::string& path) {
  const std::string p = strip_gz(path);
  const auto dot = p.find_last_of('.');
  if (dot == std::string::npos || p.find('/', dot) != std::string::npos) return Format::kAuto;
  const std::string ext = p.substr(dot + 1);
  if (ext == "txt") return Format::kSnap;
  if (ext == "graph") return Format::kMetis;
  try {
    return parse_format(ext);
  } catch (const UsageError&) {
    return Format::kAuto;
  }
}

EdgeList read_edge_list(const std::string& path, const ReadOptions& options) {
  switch (resolve(path, options.format)) {
    case Format::kEdgeList:
    case Format::kSnap: return io::read_edge_list_text(path, false);
    case Format::kWeightedEdgeList: return io::read_edge_list_text(path, true);
    case Format::kMatrixMarket: return io::read_matrix_market(path);
    case Format::kDimacs: return io::read_dimacs(path);
    case Format::kMetis: return io::read_metis(path);
    case Format::kCsv: return io::read_csv(path, ',', options.header);
    case Format::kTsv: return io::read_csv(path, '\t', options.header);
    default:
      throw UsageError(path + " is a CSR format (.ngr/.sg/.wsg): load it with load_graph, not read_edge_list");
  }
}

AnyGraph load_graph(const std::string& path, const ReadOptions& options, const BuildOptions& build,
                    BuildReport* report) {
  const Format f = resolve(path, options.format);
  if (f != Format::kNgr && f != Format::kGapbs && f != Format::kGapbsWeighted) {
    ReadOptions edge_options = options;
    edge_options.format = f;
    return build_graph(read_edge_list(path, edge_options), build, report);
  }
  AnyGraph g = f == Format::kNgr ? io::read_ngr(path, options.verify_checksum) : io::read_gapbs(path, f == Format::kGapbsWeighted);
  const bool rebuild = numagraph::visit([&](const auto& graph) { return needs_rebuild(graph, build); }, g);
  if (!rebuild) {
    if (report) *report = BuildReport{};
    return g;
  }
  // The mapped file's pages are not heap; the rebuilt copy is: a refusal of
  // it by the memory guard says why the graph is rebuilt and how to avoid it.
  const auto refused = [&](const ResourceError& err) {
    const std::string why = numagraph::visit([&](const auto& graph) { return rebuild_reasons(graph, build); }, g);
    return ResourceError(path + " is rebuilt on the heap (" + why + "): " + err.what() +
                         "; to use the file as it is mapped, write it cleaned once: numagraph convert "
                         "--dedupe --drop-self-loops " + path + " CLEAN.ngr (or keep them: --keep-duplicates "
                         "--keep-self-loops)");
  };
  const bool reordered = numagraph::visit([](const auto& graph) { return graph.reordered(); }, g);
  AnyGraph rebuilt;
  try {
    EdgeList e = numagraph::visit([](const auto& graph) { return to_edge_list(graph); }, g);
    e.source_name = path;
    rebuilt = build_graph(std::move(e), build, report);
  } catch (const ResourceError& err) {
    throw refused(err);
  }
  if (reordered && report) {
    const std::string note = "rebuilt " + path +
                             " in its original vertex order (the stored order is not used): write it with "
                             "numagraph reorder from a graph cleaned as the kernels load it";
    report->notice = report->notice.empty() ? note : report->notice + "; " + note;
  }
  return rebuilt;
}

void write_graph(const AnyGraph& g, const std::string& path, Format format) {
  if (format == Format::kAuto) format = format_from_extension(path);
  if (ends_with(path, ".gz"))
    throw UsageError("writing .gz is not supported: write " + strip_gz(path) + " and compress it with gzip");
  if (format == Format::kAuto)
    throw UsageError("cannot tell the output format from '" + path +
                     "': use an extension (.ngr .el .wel .mtx .sg .wsg .csv .tsv) or --to");
  const bool named = numagraph::visit([](const auto& graph) { return graph.named(); }, g);
  if (named && format != Format::kCsv && format != Format::kTsv)
    throw UsageError("the graph has vertex names, which " + format_name(format) +
                     " files cannot hold (they would be lost): write a .csv or .tsv file instead, "
                     "which keeps them");
  // Every writer fills a temporary file next to `path`; only a complete file
  // is renamed over it (util/atomic_file.hpp).
  AtomicFile out(path);
  const std::string& tmp = out.temp_path();
  switch (format) {
    case Format::kEdgeList: io::write_edge_list_text(g, tmp, false); break;
    case Format::kWeightedEdgeList: io::write_edge_list_text(g, tmp, true); break;
    case Format::kMatrixMarket: io::write_matrix_market(g, tmp); break;
    case Format::kNgr: io::write_ngr(g, tmp); break;
    case Format::kGapbs: io::write_gapbs(g, tmp, false); break;
    case Format::kGapbsWeighted: io::write_gapbs(g, tmp, true); break;
    case Format::kCsv: io::write_csv(g, tmp, ','); break;
    case Format::kTsv: io::write_csv(g, tmp, '\t'); break;
    default:
      throw UsageError("numagraph does not write " + format_name(format) +
                       " files; write .ngr .el .wel .mtx .sg .wsg .csv or .tsv");
  }
  out.commit();
}

}  // namespace numagraph
