// Internal: what PartFacts::detail holds. The facts of one part (or of
// several consecutive parts, combined) that only the whole file settles:
// first lines (the earliest part's wins), and-ed and or-ed flags, sums, the
// row-index run of column 1 and the names of edge data keys in order. Kept
// in PartFacts as bytes (memcpy), so the layout is the same in every process
// of one build.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/io_range.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::io {

// A field as messages show it: its first 40 characters, and whether there
// are more (shown() in edge_table.cpp adds "...").
struct ShortText {
  char bytes[41] = {};
  std::uint8_t size = 0;  // 41: the field is longer than 40 characters
  void set(std::string_view t) {
    size = static_cast<std::uint8_t>(std::min<std::size_t>(t.size(), sizeof bytes));
    if (size > 0) std::memcpy(bytes, t.data(), size);  // an empty view may hold a null pointer
  }
  std::string_view view() const { return {bytes, size}; }
};

// The first line with something, and the field that shows it.
struct LineText {
  std::int64_t line = 0;  // 0: none
  ShortText text;
  void offer(std::int64_t at, std::string_view t) {
    if (line == 0) {
      line = at;
      text.set(t);
    }
  }
};

inline void first_line(std::int64_t& mark, std::int64_t line) {
  if (mark == 0) mark = line;
}

// Ids in the source and target columns (s, s + 1) of a table's rows.
struct IdFacts {
  std::int64_t column_error[2] = {0, 0};  // first row with too few or empty ends, or a column count
                                          // other than row 0's [0] / row 1's [1]
  std::uint8_t all_integer = 1;           // every row's ends are integers below 2^63
  std::uint8_t any_integer = 0;           // some row's are
  LineText text;                          // first row with an end that is text
  std::int64_t big_line = 0;              // first row with an integer end of 2^63 or more (and no text)
};

// A column that may hold the weights.
struct NumberFacts {
  LineText not_number;          // first row whose field is not a finite number
  std::int64_t bad_weight = 0;  // first row whose number is no storable weight
  std::uint8_t integral = 1;    // every weight is a whole number within 2^24
};

// Column 1 as a row index: the integers of consecutive rows count up by one.
struct IndexFacts {
  std::uint8_t rows = 0, counting = 1;
  std::uint64_t first = 0, last = 0;
};

// Whether line 1's ends appear on other rows, and whether the other rows'
// vertices meet (a name twice among the rows on lines up to
// kRepeatSampleLines). Repeats within a part are seen exactly. Across parts,
// through the names' 64-bit hashes while the parts have few names (a shared
// hash is taken for a shared name), else through `seen`, a bitmap of hashed
// names: no shared bit means no shared name; a shared bit is a "maybe".
inline constexpr std::int64_t kRepeatSampleLines = 1000000;
inline constexpr std::size_t kSeenWords = 256;
inline constexpr std::size_t kNameHashes = 256;
struct HeaderFacts {
  std::uint8_t elsewhere = 0, repeat = 0, maybe_repeat = 0;
  std::uint8_t hashes_complete = 1;  // `hashes` holds every name's hash
  std::uint16_t hash_count = 0;
  std::uint64_t hashes[kNameHashes] = {};  // sorted, distinct
  std::uint64_t seen[kSeenWords] = {};
};

// networkx's dicts of edge data in the third field.
inline constexpr int kMaxDictKeys = 8;
inline constexpr std::size_t kDictKeyBytes = 256;
struct DictFacts {
  std::int64_t bad = 0;         // first row whose field is not a dict
  std::int64_t bad_weight = 0;  // first row whose weight key holds no storable weight
  std::int64_t with = 0, without = 0;
  std::uint8_t integral = 1;
  std::uint8_t key_count = 0, key_too_long = 0;  // a key past kDictKeyBytes is refused
  std::uint16_t key_size[kMaxDictKeys] = {};
  char keys[kMaxDictKeys][kDictKeyBytes] = {};  // other keys, in order of first appearance
  std::string_view key(int i) const { return {keys[i], key_size[i]}; }
  void add_key(std::string_view k) {
    for (int i = 0; i < key_count; ++i)
      if (key(i) == k) return;
    if (key_count >= kMaxDictKeys) return;
    if (k.size() > kDictKeyBytes) {
      key_too_long = 1;
      k = k.substr(0, kDictKeyBytes);
    }
    std::memcpy(keys[key_count], k.data(), k.size());
    key_size[key_count++] = static_cast<std::uint16_t>(k.size());
  }
};

// METIS files (metis.cpp): sums over the adjacency entries, by which the
// whole file's counts and symmetry are checked, and the vertex numbering of
// the parts (each part's first vertex is the data lines before it).
struct MetisFacts {
  std::int64_t first_vertex = 0;  // PartSpan::data_lines_before of the earliest part
  std::int64_t vertex_lines = 0;  // data lines of the parts
  std::uint8_t numbered = 1;      // each later part's first vertex follows the earlier parts' lines
  std::uint64_t entries = 0, loops = 0;
  std::uint64_t upper = 0, lower = 0;            // entries u-v listed at the smaller [upper] or larger end
  std::uint64_t upper_hash = 0, lower_hash = 0;  // sums of their edges' hashes
  std::int64_t unmatched_line = 0;  // a part that is the whole file: the first line with an unmatched entry
};

// Candidate weight columns a table's facts are gathered for (edge_table.cpp).
inline constexpr int kWeightCandidates = 8;

struct FactsBody {
  std::uint8_t filled = 0;  // set by part_facts; an unfilled body is combine's identity
  std::uint8_t format = 0;  // Format the facts were gathered for
  // The options the facts were gathered with (check_whole_file decides from them).
  std::uint8_t header = 0;  // Header
  std::uint16_t weight_column_size = 0;
  char weight_column[256] = {};

  // Parsers of one edge a line: the fast path of edge lists, mtx, gr.
  std::int64_t edge_error = 0;              // first line the parser refuses
  std::uint8_t edge_error_needs_table = 0;  // edge lists: that line holds a name or more columns
  std::uint8_t edge_integral = 1;           // edge lists: every weight is integral

  // Tables: CSV, TSV, edge lists read as tables. Rows are those after row 0
  // (the first row, which every part reads from the file's head).
  std::int64_t tokenizer_error = 0;  // first line the CSV tokenizer refuses
  IdFacts ids[2];                    // source column 1 [0], or 2 after a row index [1]
  NumberFacts numbers[kWeightCandidates];
  IndexFacts index;
  HeaderFacts header_facts;
  DictFacts dicts;
  MetisFacts metis;

  ReadOptions options() const {
    ReadOptions o;
    o.format = static_cast<Format>(format);
    o.header = static_cast<Header>(header);
    o.weight_column.assign(weight_column, weight_column_size);
    return o;
  }
};
static_assert(std::is_trivially_copyable_v<FactsBody>);
static_assert(sizeof(FactsBody) <= sizeof(PartFacts::detail), "PartFacts::detail is too small for the facts");

inline FactsBody body_of(const PartFacts& f) {
  FactsBody b;
  std::memcpy(&b, f.detail, sizeof b);
  return b;
}
inline void store_body(PartFacts& f, const FactsBody& b) { std::memcpy(f.detail, &b, sizeof b); }

// A body for facts gathered with `options` on a file of `format`.
inline FactsBody new_body(Format format, const ReadOptions& options) {
  FactsBody b;
  b.filled = 1;
  b.format = static_cast<std::uint8_t>(format);
  b.header = static_cast<std::uint8_t>(options.header);
  if (options.weight_column.size() > sizeof b.weight_column)
    throw UsageError("--weight-column " + options.weight_column.substr(0, 40) +
                     "... is longer than 256 characters: give the column's number instead");
  b.weight_column_size = static_cast<std::uint16_t>(options.weight_column.size());
  std::memcpy(b.weight_column, options.weight_column.data(), options.weight_column.size());
  return b;
}

// Folds `later` into `earlier` (facts of the parts after earlier's).
void combine_bodies(FactsBody& earlier, const FactsBody& later);

}  // namespace numagraph::io
