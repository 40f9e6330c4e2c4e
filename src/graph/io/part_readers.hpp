// Internal: the readers of one part of a text file (io_range.hpp), one family
// of formats each: edge lists (edge_list.cpp), CSV/TSV (csv.cpp), Matrix
// Market (matrix_market.cpp), DIMACS (dimacs.cpp), METIS (metis.cpp).
// read_edge_list reads a file as its one part with the same functions.
//
// Each family has three functions:
//   scan:  the part's facts, and what it parsed (kept for read);
//   check: the whole file's checks that belong to no one line, from the
//          combined facts (throws as read_edge_list does);
//   read:  the part's edges with the decisions the combined facts give.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/io_range.hpp"
#include "part_facts.hpp"
#include "text_input.hpp"

namespace numagraph::io {

// One part of a file: the lines whose first byte lies in [begin, end).
struct PartScope {
  const TextFile& file;
  std::size_t begin, end;
  std::int64_t first_line;  // global 1-based number of the line at `begin`
  std::int64_t data_lines_before = 0;  // METIS: the 0-based vertex of the part's first data line
  const char* data_begin() const { return file.data() + begin; }
  const char* data_end() const { return file.data() + end; }
  const std::string& path() const { return file.path(); }
};

// What a scan parsed; each family keeps its own kind.
struct PartScan {
  virtual ~PartScan() = default;
  FactsBody mine;               // this part's facts
  std::int64_t data_lines = 0;  // PartFacts::data_lines
};

// The file's newline count, when the caller has not counted it (-1).
std::int64_t count_newlines(const TextFile& file, std::int64_t known);

std::unique_ptr<PartScan> scan_edge_list_part(const PartScope& part, Format format, const ReadOptions& options);
void check_edge_list_file(const TextFile& file, Format format, const FactsBody& whole, std::int64_t data_lines,
                          std::int64_t total_newlines);
PartEdges read_edge_list_part(const PartScope& part, Format format, PartScan& scan, const FactsBody& whole,
                              std::int64_t data_lines, const ReadOptions& options);

std::unique_ptr<PartScan> scan_csv_part(const PartScope& part, Format format, const ReadOptions& options);
void check_csv_file(const TextFile& file, Format format, const FactsBody& whole, std::int64_t data_lines);
PartEdges read_csv_part(const PartScope& part, Format format, PartScan& scan, const FactsBody& whole,
                        std::int64_t data_lines, const ReadOptions& options);

std::unique_ptr<PartScan> scan_matrix_market_part(const PartScope& part, const ReadOptions& options);
void check_matrix_market_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines);
PartEdges read_matrix_market_part(const PartScope& part, PartScan& scan, const FactsBody& whole);

std::unique_ptr<PartScan> scan_dimacs_part(const PartScope& part, const ReadOptions& options);
void check_dimacs_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines);
PartEdges read_dimacs_part(const PartScope& part, PartScan& scan, const FactsBody& whole);

// METIS: the data lines (vertex lines) whose first byte lies in [begin, end),
// for PartSpan::data_lines. Throws InputError for a bad header.
std::int64_t count_metis_data_lines(const TextFile& file, std::size_t begin, std::size_t end);
// Throws UsageError unless the span's data lines were counted (part_span
// given the format) and the caller set data_lines_before.
void check_metis_span(const std::string& path, std::int64_t data_lines, std::int64_t data_lines_before);
std::unique_ptr<PartScan> scan_metis_part(const PartScope& part, const ReadOptions& options);
void check_metis_file(const TextFile& file, const FactsBody& whole, std::int64_t data_lines,
                      std::int64_t total_newlines);
PartEdges read_metis_part(const PartScope& part, PartScan& scan, const FactsBody& whole);

}  // namespace numagraph::io
