// Reading and writing graphs in every supported format.
//
// Edge formats (.el .wel .txt .mtx .gr .graph, optionally .gz) are parsed in
// parallel over byte ranges into an EdgeList and then built by the Builder.
// CSR formats (.ngr, gapbs .sg/.wsg) load straight into a CSRGraph; .ngr is
// mmap'ed (zero copy). The format comes from the extension, then the content;
// ReadOptions::format forces one. docs/formats.md documents each format.
#pragma once

#include <string>
#include <vector>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph {

enum class Format { kAuto, kEdgeList, kWeightedEdgeList, kSnap, kMatrixMarket, kDimacs, kMetis,
                    kGapbs, kGapbsWeighted, kNgr };

// Parses "el", "wel", "snap", "mtx", "gr", "metis", "sg", "wsg", "ngr" (throws UsageError).
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
// kGapbs or kGapbsWeighted; kAuto = from the extension). Ids are written as dense ids (or the original
// labels for edge formats when the graph was relabelled). The file is written
// whole or not at all (util/atomic_file.hpp), so `path` may be the file `g`
// was loaded from.
void write_graph(const AnyGraph& g, const std::string& path, Format format = Format::kAuto);

}  // namespace numagraph
