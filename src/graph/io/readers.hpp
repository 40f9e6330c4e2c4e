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

// .el .wel .txt: integer ids on the parallel fast path; names, headers and more
// columns as a table (edge_table.hpp).
EdgeList read_edge_list_text(const std::string& path, bool weighted, const ReadOptions& options);
EdgeList read_matrix_market(const std::string& path);                  // .mtx
EdgeList read_dimacs(const std::string& path);                         // .gr
EdgeList read_metis(const std::string& path);                          // .graph
EdgeList read_csv(const std::string& path, char sep, const ReadOptions& options);  // .csv (',') .tsv ('\t')
void write_csv(const AnyGraph& g, const std::string& path, char sep);

AnyGraph read_gapbs(const std::string& path, bool weighted);  // .sg .wsg
void write_gapbs(const AnyGraph& g, const std::string& path, bool weighted);

AnyGraph read_ngr(const std::string& path, bool verify_checksum);  // .ngr (mmap, zero copy)
void write_ngr(const AnyGraph& g, const std::string& path);

void write_edge_list_text(const AnyGraph& g, const std::string& path, bool weighted);
void write_matrix_market(const AnyGraph& g, const std::string& path);

}  // namespace numagraph::io
