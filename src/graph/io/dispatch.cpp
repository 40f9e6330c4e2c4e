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

bool ends_with_nocase(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    const char c = s[s.size() - suffix.size() + i];
    if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != suffix[i]) return false;
  }
  return true;
}

[[noreturn]] void refuse_parquet(const std::string& path) {
  throw UsageError(path + " is a Parquet file, which the numagraph CLI does not read: read it in Python with "
                   "numagraph.read_parquet(\"" + path + "\") (or numagraph.read), or write it as CSV first: "
                   "pandas.read_parquet(\"" + path + "\").to_csv(\"edges.csv\", index=False)");
}

// A DIMACS problem line ("p sp 3 2") or arc line ("a 1 2 7"), not an edge
// list line whose source is named p or a.
bool dimacs_line(const char* p, const char* e) {
  if (e - p < 2 || (*p != 'p' && *p != 'a') || (p[1] != ' ' && p[1] != '\t')) return false;
  io::LineCursor c(p + 1, e);
  try {
    if (*p == 'p') c.next_word("problem");
    for (int k = 0; k < (*p == 'p' ? 2 : 3); ++k) c.next_int("number");
    return c.at_end();
  } catch (const io::LineError&) {
    return false;
  }
}

// Guesses a format from the first bytes: .ngr magic, a Matrix Market banner,
// a DIMACS problem/comment line, a line with commas (CSV), with tabs and
// blanks or quotes in fields (TSV), or blank-separated columns (edge list:
// the reader looks at ids, header and weights itself).
Format sniff(const std::string& path) {
  io::TextFile file(path, io::TextFile::kOnDemand);  // only the head is read
  const char* p = file.data();
  const std::size_t size = file.size();
  if (size >= 8 && std::memcmp(p, "NUMAGRPH", 8) == 0) return Format::kNgr;
  if (size >= 4 && std::memcmp(p, "PAR1", 4) == 0) refuse_parquet(path);
  if (size >= 14 && std::memcmp(p, "%%MatrixMarket", 14) == 0) return Format::kMatrixMarket;
  if (size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  const char* end = file.data() + std::min<std::size_t>(size, 1 << 16);
  while (p < end) {
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* e = nl ? nl : end;
    if (!io::is_blank_or_comment(p, e, "#%")) {
      if (dimacs_line(p, e)) return Format::kDimacs;
      if (*p == 'c' && e - p > 1 && (p[1] == ' ' || p[1] == '\t')) {  // a DIMACS comment, or an edge from "c"
        p = nl ? nl + 1 : end;
        continue;
      }
      const std::string_view line(p, static_cast<std::size_t>(e - p));
      if (line.find(',') != std::string_view::npos && line.find('{') == std::string_view::npos) return Format::kCsv;
      if (line.find('\t') != std::string_view::npos &&
          (line.find(' ') != std::string_view::npos || line.find('"') != std::string_view::npos))
        return Format::kTsv;
      io::LineCursor c(p, e);
      int columns = 0;
      try {
        while (!c.at_end()) {
          c.next_word("column");
          ++columns;
        }
      } catch (const io::LineError&) {
      }
      if (columns >= 2) return Format::kEdgeList;
      break;
    }
    p = nl ? nl + 1 : end;
  }
  throw InputError(path, 0,
                   std::string("cannot tell the format from the name or the content; give it with --format (") +
                       kInputFormatNames + ")");
}

// The format to read `path` in; `sniffed` says whether it came from the
// content (no --format, no known extension).
Format resolve(const std::string& path, Format f, bool* sniffed = nullptr) {
  if (sniffed) *sniffed = false;
  if (f != Format::kAuto) return f;
  if (ends_with_nocase(strip_gz(path), ".parquet") || ends_with_nocase(strip_gz(path), ".pq")) refuse_parquet(path);
  f = format_from_extension(path);
  if (f != Format::kAuto) return f;
  if (sniffed) *sniffed = true;
  return sniff(path);
}

InputDecision format_decision(const std::string& path, Format f) {
  const char* what = f == Format::kCsv ? "CSV (comma-separated)" : f == Format::kTsv ? "TSV (tab-separated)"
                     : f == Format::kEdgeList ? "an edge list (blank-separated columns)" : nullptr;
  const std::string shown = what ? what : format_name(f);
  return {"format", format_name(f),
          "the name " + path + " does not say its format: read as " + shown +
              " from its content (--format NAME, Python format=\"NAME\", chooses)"};
}

// --weight-column names a column of a text table; other formats take only
// "none" (drop the weights).
void check_weight_column(const std::string& path, Format f, const std::string& column) {
  const bool table = f == Format::kCsv || f == Format::kTsv || f == Format::kEdgeList || f == Format::kSnap ||
                     f == Format::kWeightedEdgeList;
  if (!table && !column.empty() && column != "none")
    throw UsageError("--weight-column " + column + " picks a column of a text table (.csv .tsv .el .wel .txt); " +
                     path + " is a " + format_name(f) + " file, whose weights are fixed: only --weight-column none "
                     "(read it unweighted) applies");
}

void drop_weights(EdgeList& e) {
  if (!e.weighted()) return;
  e.weights = {};
  e.weight_kind = WeightKind::kNone;
  set_decision(e.decisions, "weight_column", "none");
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
bool needs_rebuild(const G& g, const BuildOptions& o, bool unweighted) {
  if (o.symmetrize && g.directed()) return true;
  if (o.drop_self_loops && g.num_self_loops() > 0) return true;
  if (o.relabel == Relabel::kOn && !g.relabelled()) return true;
  if (o.in_edges && !g.has_in_edges()) return true;
  if (o.force_64bit_ids && sizeof(typename G::vertex_type) == 4) return true;
  if (unweighted && g.weighted()) return true;
  return o.dedupe && count_duplicate_arcs(g) > 0;
}

// Why needs_rebuild said yes, for the message of a rebuild the memory guard
// refuses (a rebuild copies the mapped graph onto the heap).
template <typename G>
std::string rebuild_reasons(const G& g, const BuildOptions& o, bool unweighted) {
  std::string why;
  const auto add = [&why](const std::string& text) { why += (why.empty() ? "" : ", ") + text; };
  if (o.symmetrize && g.directed()) add("symmetrizing it");
  if (o.drop_self_loops && g.num_self_loops() > 0)
    add("dropping its " + std::to_string(g.num_self_loops()) + " self-loop" + (g.num_self_loops() == 1 ? "" : "s"));
  if (o.relabel == Relabel::kOn && !g.relabelled()) add("relabelling it");
  if (o.in_edges && !g.has_in_edges()) add("adding in-edges");
  if (o.force_64bit_ids && sizeof(typename G::vertex_type) == 4) add("widening its ids to 64 bits");
  if (unweighted && g.weighted()) add("dropping its weights");
  if (o.dedupe) {
    const std::int64_t dups = count_duplicate_arcs(g);
    if (dups > 0) add("dropping its " + std::to_string(dups) + " duplicate arc" + (dups == 1 ? "" : "s"));
  }
  return why;
}

}  // namespace

namespace io {
Format resolve_format(const std::string& path, Format f, bool* sniffed) { return resolve(path, f, sniffed); }
InputDecision sniffed_format_decision(const std::string& path, Format f) { return format_decision(path, f); }
void check_weight_column_of(const std::string& path, Format f, const std::string& column) {
  check_weight_column(path, f, column);
}
void drop_edge_weights(EdgeList& e) { drop_weights(e); }
}  // namespace io

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
  bool sniffed = false;
  const Format f = resolve(path, options.format, &sniffed);
  check_weight_column(path, f, options.weight_column);
  EdgeList e;
  switch (f) {
    case Format::kEdgeList:
    case Format::kSnap:
    case Format::kWeightedEdgeList:
    case Format::kMatrixMarket:
    case Format::kDimacs:
    case Format::kCsv:
    case Format::kTsv: e = io::read_text_edges(path, f, options); break;
    case Format::kMetis: e = io::read_metis(path); break;
    default:
      throw UsageError(path + " is a CSR format (.ngr/.sg/.wsg): load it with load_graph, not read_edge_list");
  }
  if (options.weight_column == "none") drop_weights(e);
  if (sniffed) e.decisions.insert(e.decisions.begin(), format_decision(path, f));
  return e;
}

AnyGraph load_graph(const std::string& path, const ReadOptions& options, const BuildOptions& build,
                    BuildReport* report) {
  bool sniffed = false;
  const Format f = resolve(path, options.format, &sniffed);
  if (f != Format::kNgr && f != Format::kGapbs && f != Format::kGapbsWeighted) {
    ReadOptions edge_options = options;
    edge_options.format = f;
    EdgeList e = read_edge_list(path, edge_options);
    if (sniffed) e.decisions.insert(e.decisions.begin(), format_decision(path, f));
    return build_graph(std::move(e), build, report);
  }
  check_weight_column(path, f, options.weight_column);
  const bool unweighted = options.weight_column == "none";
  AnyGraph g = f == Format::kNgr ? io::read_ngr(path, options.verify_checksum) : io::read_gapbs(path, f == Format::kGapbsWeighted);
  const bool rebuild = numagraph::visit([&](const auto& graph) { return needs_rebuild(graph, build, unweighted); }, g);
  if (!rebuild) {
    if (report) {
      *report = BuildReport{};
      if (sniffed) report->decisions.push_back(format_decision(path, f));
    }
    return g;
  }
  // The mapped file's pages are not heap; the rebuilt copy is: a refusal of
  // it by the memory guard says why the graph is rebuilt and how to avoid it.
  const auto refused = [&](const ResourceError& err) {
    const std::string why = numagraph::visit([&](const auto& graph) { return rebuild_reasons(graph, build, unweighted); }, g);
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
    if (unweighted) drop_weights(e);
    if (sniffed) e.decisions.insert(e.decisions.begin(), format_decision(path, f));
    rebuilt = build_graph(std::move(e), build, report);
  } catch (const ResourceError& err) {
    throw refused(err);
  }
  if (reordered && report) {
    const std::string note = "rebuilt " + path +
                             " in its original vertex order (the stored order is not used): write it with "
                             "numagraph reorder from a graph cleaned as the kernels load it";
    report->notice = report->notice.empty() ? note : report->notice + "; " + note;
    set_decision(report->decisions, "order", "original", note);
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
  if (named && format != Format::kCsv && format != Format::kTsv && format != Format::kNgr)
    throw UsageError("the graph has vertex names, which " + format_name(format) +
                     " files cannot hold (they would be lost): write a .ngr, .csv or .tsv file instead, "
                     "which keep them");
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
