// Reading one part of a text graph file (numagraph/graph/io_range.hpp): the
// spans of parts, and the three passes routed to the format's reader
// (part_readers.hpp). read_text_edges reads a whole file as its one part.
#include "numagraph/graph/io_range.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "part_facts.hpp"
#include "part_readers.hpp"
#include "readers.hpp"
#include "text_input.hpp"

namespace numagraph::io {

struct PartParse::State {
  std::unique_ptr<TextFile> file;
  std::unique_ptr<PartScan> scan;
  std::string path;
  Format format = Format::kAuto;
  std::uint64_t begin = 0, end = 0;
  std::int64_t first_line = 0, data_lines_before = 0;
};

PartParse::PartParse() = default;
PartParse::~PartParse() = default;
PartParse::PartParse(PartParse&&) noexcept = default;
PartParse& PartParse::operator=(PartParse&&) noexcept = default;

namespace {

const char* const kConvert = "convert it with `numagraph convert FILE out.el`";

void refuse_gzip(const std::string& path) {
  if (has_gzip_magic(path))
    throw UsageError(path + " is gzip-compressed, and a compressed file cannot be cut into parts that are read "
                     "apart: decompress it (gunzip -k " + path + "), or " + kConvert);
}

// The formats parts are read in; the others are refused with the reason.
void check_part_format(const std::string& path, Format f) {
  switch (f) {
    case Format::kEdgeList:
    case Format::kWeightedEdgeList:
    case Format::kSnap:
    case Format::kMatrixMarket:
    case Format::kDimacs:
    case Format::kCsv:
    case Format::kTsv:
    case Format::kMetis: return;
    case Format::kNgr:
    case Format::kGapbs:
    case Format::kGapbsWeighted:
      throw UsageError(path + " is a binary CSR file (" + format_name(f) + "), not lines of edges that parts "
                       "of the file can be read from: " + kConvert);
    default: throw UsageError(path + ": give the format of the file (--format)");
  }
}

std::unique_ptr<PartScan> scan_part(const PartScope& part, Format f, const ReadOptions& options) {
  switch (f) {
    case Format::kMatrixMarket: return scan_matrix_market_part(part, options);
    case Format::kDimacs: return scan_dimacs_part(part, options);
    case Format::kMetis: return scan_metis_part(part, options);
    case Format::kCsv:
    case Format::kTsv: return scan_csv_part(part, f, options);
    default: return scan_edge_list_part(part, f, options);
  }
}

void check_file(const TextFile& file, Format f, const FactsBody& whole, std::int64_t data_lines,
                std::int64_t total_newlines) {
  switch (f) {
    case Format::kMatrixMarket: return check_matrix_market_file(file, whole, data_lines);
    case Format::kDimacs: return check_dimacs_file(file, whole, data_lines);
    case Format::kMetis: return check_metis_file(file, whole, data_lines, total_newlines);
    case Format::kCsv:
    case Format::kTsv: return check_csv_file(file, f, whole, data_lines);
    default: return check_edge_list_file(file, f, whole, data_lines, total_newlines);
  }
}

PartEdges read_scanned(const PartScope& part, Format f, PartScan& scan, const FactsBody& whole,
                       std::int64_t data_lines, const ReadOptions& options) {
  switch (f) {
    case Format::kMatrixMarket: return read_matrix_market_part(part, scan, whole);
    case Format::kDimacs: return read_dimacs_part(part, scan, whole);
    case Format::kMetis: return read_metis_part(part, scan, whole);
    case Format::kCsv:
    case Format::kTsv: return read_csv_part(part, f, scan, whole, data_lines, options);
    default: return read_edge_list_part(part, f, scan, whole, data_lines, options);
  }
}

// The first line start at or after byte `at` (a line starts at 0 and after
// every newline), or the file's end.
std::size_t line_start(const TextFile& file, std::size_t at) {
  if (at == 0 || at >= file.size()) return std::min(at, file.size());
  const char* p = file.data() + at - 1;
  const char* nl = static_cast<const char*>(memchr(p, '\n', file.size() - (at - 1)));
  return nl ? static_cast<std::size_t>(nl + 1 - file.data()) : file.size();
}

std::int64_t newlines_in(const char* b, const char* e) {
  const std::size_t n = static_cast<std::size_t>(e - b);
  std::int64_t count = 0;
#pragma omp parallel for reduction(+ : count) schedule(static)
  for (std::size_t i = 0; i < n; ++i) count += b[i] == '\n';
  return count;
}

void check_span(const TextFile& file, const PartSpan& span) {
  if (span.begin > span.end || span.end > file.size())
    throw UsageError(file.path() + ": the part's span [" + std::to_string(span.begin) + ", " +
                     std::to_string(span.end) + ") is not within the file's " + std::to_string(file.size()) +
                     " bytes (did the file change? take the spans again with part_span)");
}

// read_edge_list's steps after the reader: --weight-column none, and the
// decision that says the format came from the content.
void finish_edges(EdgeList& e, const std::string& path, Format f, const ReadOptions& options) {
  if (options.weight_column == "none") drop_edge_weights(e);
  if (options.format == Format::kAuto && format_from_extension(path) == Format::kAuto)
    e.decisions.insert(e.decisions.begin(), sniffed_format_decision(path, f));
}

}  // namespace

std::int64_t count_newlines(const TextFile& file, std::int64_t known) {
  return known >= 0 ? known : newlines_in(file.data(), file.data() + file.size());
}

Format part_format(const std::string& path, const ReadOptions& options, bool* sniffed) {
  refuse_gzip(path);
  const Format f = resolve_format(path, options.format, sniffed);
  check_part_format(path, f);
  check_weight_column_of(path, f, options.weight_column);
  return f;
}

PartSpan part_span(const std::string& path, FilePart part, Format format) {
  if (part.count < 1 || part.index < 0 || part.index >= part.count)
    throw UsageError("part " + std::to_string(part.index) + " of " + std::to_string(part.count) +
                     " does not exist: parts are numbered 0 to count - 1");
  refuse_gzip(path);
  TextFile file(path, TextFile::kOnDemand);
  const auto size = static_cast<unsigned __int128>(file.size());
  auto cut = [&](int k) { return static_cast<std::size_t>(size * static_cast<unsigned>(k) / static_cast<unsigned>(part.count)); };
  PartSpan span;
  span.begin = line_start(file, cut(part.index));
  span.end = part.index + 1 == part.count ? file.size() : line_start(file, cut(part.index + 1));
  span.end = std::max(span.end, span.begin);
  file.prefetch(span.begin, span.end);
  span.newlines = newlines_in(file.data() + span.begin, file.data() + span.end);
  if (format == Format::kMetis)
    span.data_lines = count_metis_data_lines(file, span.begin, span.end);
  else if (format != Format::kAuto)
    span.data_lines = 0;
  return span;
}

PartFacts part_facts(const std::string& path, Format format, const PartSpan& span, std::int64_t first_line,
                     const ReadOptions& options, PartParse* keep) {
  check_part_format(path, format);
  refuse_gzip(path);
  auto file = std::make_unique<TextFile>(path, TextFile::kOnDemand);
  check_span(*file, span);
  if (format == Format::kMetis) check_metis_span(path, span.data_lines, span.data_lines_before);
  file->prefetch(span.begin, span.end);
  const PartScope scope{*file, span.begin, span.end, first_line, span.data_lines_before};
  std::unique_ptr<PartScan> scan = scan_part(scope, format, options);
  PartFacts facts;
  facts.data_lines = scan->data_lines;
  store_body(facts, scan->mine);
  if (keep) {
    keep->state = std::make_unique<PartParse::State>();
    *keep->state = {std::move(file), std::move(scan), path, format, span.begin, span.end, first_line,
                    span.data_lines_before};
  }
  return facts;
}

void combine(PartFacts& earlier, const PartFacts& later) {
  FactsBody a = body_of(earlier);
  combine_bodies(a, body_of(later));
  earlier.data_lines += later.data_lines;
  store_body(earlier, a);
}

void check_whole_file(const std::string& path, Format format, const PartFacts& whole, std::int64_t total_lines) {
  check_part_format(path, format);
  const FactsBody body = body_of(whole);
  if (!body.filled) throw UsageError(path + ": no facts to check: combine the part_facts of every part first");
  const TextFile file(path, TextFile::kOnDemand);
  check_file(file, format, body, whole.data_lines, total_lines);
}

PartEdges read_part(const std::string& path, Format format, const PartSpan& span, std::int64_t first_line,
                    const PartFacts& whole_file, const ReadOptions& options, PartParse* kept) {
  check_part_format(path, format);
  std::unique_ptr<PartParse::State> state;
  if (kept && kept->state && kept->state->path == path && kept->state->format == format &&
      kept->state->begin == span.begin && kept->state->end == span.end && kept->state->first_line == first_line &&
      kept->state->data_lines_before == span.data_lines_before)
    state = std::move(kept->state);
  if (!state) {
    state = std::make_unique<PartParse::State>();
    state->file = std::make_unique<TextFile>(path, TextFile::kOnDemand);
    check_span(*state->file, span);
    if (format == Format::kMetis) check_metis_span(path, span.data_lines, span.data_lines_before);
    state->file->prefetch(span.begin, span.end);
    state->scan = scan_part({*state->file, span.begin, span.end, first_line, span.data_lines_before}, format, options);
  }
  const PartScope scope{*state->file, span.begin, span.end, first_line, span.data_lines_before};
  PartEdges out = read_scanned(scope, format, *state->scan, body_of(whole_file), whole_file.data_lines, options);
  finish_edges(out.edges, path, format, options);
  return out;
}

EdgeList read_text_edges(const std::string& path, Format format, const ReadOptions& options) {
  const TextFile file(path);
  const PartScope whole{file, 0, file.size(), 1};
  std::unique_ptr<PartScan> scan = scan_part(whole, format, options);
  check_file(file, format, scan->mine, scan->data_lines, -1);
  PartEdges part = read_scanned(whole, format, *scan, scan->mine, scan->data_lines, options);
  if (!part.names.empty()) {
    part.edges.num_vertices = part.names.size();
    part.edges.names = std::make_shared<const std::vector<std::string>>(std::move(part.names));
  }
  return std::move(part.edges);
}

}  // namespace numagraph::io
