// Internal: one entry point per format (each in its own file).
#pragma once

#include <string>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::io {

// The id a user knows vertex v of g by: its original label when relabelled
// (labels are carried through a renumbering), else its id before the graph
// was renumbered (numagraph reorder), else v. Edge lists are written in it.
template <typename G>
std::uint64_t user_id(const G& g, typename G::vertex_type v) {
  return g.relabelled() ? g.label(v) : static_cast<std::uint64_t>(g.permutation().to_old(v));
}

// The text formats read line by line, whole or in parts (part_readers.hpp):
// .el .wel .txt (integer ids on the parallel fast path; names, headers and
// more columns as a table, edge_table.hpp), .mtx, .gr, .csv, .tsv. The whole
// file is read as its one part.
EdgeList read_text_edges(const std::string& path, Format format, const ReadOptions& options);
EdgeList read_metis(const std::string& path);                          // .graph
void write_csv(const AnyGraph& g, const std::string& path, char sep);

// read_edge_list's steps around a reader (dispatch.cpp): the format (and
// whether it came from the content), the decision that says so, the check of
// --weight-column against the format, and --weight-column none.
Format resolve_format(const std::string& path, Format f, bool* sniffed);
InputDecision sniffed_format_decision(const std::string& path, Format f);
void check_weight_column_of(const std::string& path, Format f, const std::string& column);
void drop_edge_weights(EdgeList& e);

AnyGraph read_gapbs(const std::string& path, bool weighted);  // .sg .wsg
void write_gapbs(const AnyGraph& g, const std::string& path, bool weighted);

AnyGraph read_ngr(const std::string& path, bool verify_checksum);  // .ngr (mmap, zero copy)
void write_ngr(const AnyGraph& g, const std::string& path);

void write_edge_list_text(const AnyGraph& g, const std::string& path, bool weighted);
void write_matrix_market(const AnyGraph& g, const std::string& path);

}  // namespace numagraph::io
