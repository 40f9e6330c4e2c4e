// Internal: the fast path of CSV and TSV files of integer ids (csv.cpp):
// rows "digits SEP digits [SEP number]", parsed in parallel straight into
// the edge arrays, as edge lists are (edge_list.cpp). Any other line (quotes,
// blanks around fields, names, other columns, bad numbers) makes the part go
// back to the tokenizer, which reads it and says what is wrong.
#pragma once

#include <cstdint>
#include <optional>

#include "numagraph/graph/io.hpp"

namespace numagraph::io {

// What the fast path parsed of a part's rows after the file's row 0.
struct CsvFastRows {
  EdgeList edges;               // src, dst, and weights when rows have three columns
  bool row0_slot = false;       // slot 0 is left for row 0 (the caller fills it)
  std::int64_t rows = 0;        // rows parsed (slots after row 0's)
  std::int64_t first_line = 0;  // the first of them (0: none)
  std::size_t columns = 0;      // their columns: 2 or 3 (0: no rows)
  bool integral = true;         // every weight is a whole number within 2^24
};

// The rows of [begin, end), whose first line is `first_line` (at a record
// start), separated by `sep`; nullopt when a line is not for the fast path.
std::optional<CsvFastRows> read_csv_integer_rows(const char* begin, const char* end, std::int64_t first_line, char sep,
                                                 bool row0_slot);

}  // namespace numagraph::io
