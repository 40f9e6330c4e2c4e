// Reading and writing graphs in every supported format.
//
// Edge formats (.el .wel .txt .mtx .gr .graph .csv .tsv, optionally .gz) are parsed in
// parallel over byte ranges into an EdgeList and then built by the Builder.
// CSR formats (.ngr, gapbs .sg/.wsg) load straight into a CSRGraph; .ngr is
// mmap'ed (zero copy). The format comes from the extension, then the content;
// ReadOptions::format forces one. docs/formats.md documents each format.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph {

enum class Format { kAuto, kEdgeList, kWeightedEdgeList, kSnap, kMatrixMarket, kDimacs, kMetis,
                    kGapbs, kGapbsWeighted, kNgr, kCsv, kTsv };

// Text tables (CSV/TSV, edge lists with names): whether the first line is a
// header (kAuto: detected, docs/formats.md).
enum class Header { kAuto, kYes, kNo };

// The input formats by name, as --format takes them and messages list them.
inline constexpr const char* kInputFormatNames = "el wel snap mtx gr metis sg wsg ngr csv tsv";

// Parses a name of kInputFormatNames (and the aliases txt, dimacs, graph);
// throws UsageError.
Format parse_format(const std::string& name);
std::string format_name(Format f);
// Format from the file name (after stripping .gz), or kAuto when unknown.
Format format_from_extension(const std::string& path);

struct ReadOptions {
  Format format = Format::kAuto;
  // .ngr: verify the checksum on load (one parallel pass over the mapped
  // file, cheap next to reading it from disk). Turning it off skips only the
  // checksum: the structural validation (sections, offsets, ids < n, finite
  // weights) runs on every load, so a damaged file is refused, not crashed on.
  bool verify_checksum = true;
  Header header = Header::kAuto;  // CSV/TSV and edge lists with names
  // Which column holds edge weights: "" decides (docs/formats.md), "none" reads
  // the graph unweighted (in every format, .wel .gr .mtx .ngr too), a 1-based
  // column number or a header name picks that column (text tables only).
  std::string weight_column;
};

// Reads an edge format into an EdgeList. Throws InputError (file:line: what)
// or IoError. CSR formats are rejected here: use load_graph.
EdgeList read_edge_list(const std::string& path, const ReadOptions& options = {});

// Loads any format into a graph. Edge formats go through build_graph with
// `build`; CSR formats are returned as stored (build options that would change
// them — symmetrize, dedupe, drop self-loops — are applied by rebuilding).
AnyGraph load_graph(const std::string& path, const ReadOptions& options = {},
                    const BuildOptions& build = {}, BuildReport* report = nullptr);

// Writes `g` in `format` (kEdgeList, kWeightedEdgeList, kMatrixMarket, kNgr,
// kGapbs, kGapbsWeighted, kCsv or kTsv; kAuto = from the extension). A graph
// with vertex names (read from CSV/TSV) is written only as .ngr or CSV/TSV:
// the other formats would lose the names, so they are refused (UsageError). Ids are written as dense ids (or the original
// labels for edge formats when the graph was relabelled). The file is written
// whole or not at all (util/atomic_file.hpp), so `path` may be the file `g`
// was loaded from.
void write_graph(const AnyGraph& g, const std::string& path, Format format = Format::kAuto);

namespace io {
// Whether a column of numbers named `name` may hold edge weights, by the text
// tables' rule (docs/formats.md), and why in a few words: {true, "its name
// says weights"}, {false, "its name says a date or a time"}, {true, "a column
// of numbers"}... Python's DataFrame reader uses the same rule.
std::pair<bool, std::string> weight_column_name_verdict(std::string_view name);

// `text` as a CSV/TSV field: as is, or double-quoted (RFC 4180) when it holds
// the separator, a comma, a tab, a quote or a newline, starts with '#', has
// surrounding blanks or is empty, so that the readers give it back unchanged.
std::string csv_field_text(std::string_view text, char sep);
}  // namespace io

}  // namespace numagraph
