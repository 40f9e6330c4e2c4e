// Reading one part of a text graph file: the same parsers as read_edge_list,
// run on the lines of a byte range, so that several processes (the ranks of
// numagraph-mpi) can each parse their share of one file. Part k of K holds
// the lines whose first byte lies in [size * k / K, size * (k + 1) / K).
// read_edge_list itself reads a file as its one part (K = 1).
//
// Three passes, with the caller combining between them (MPI collectives in
// numagraph-mpi; a loop in tests):
//   1. part_span: the part's byte span, aligned to line starts, and its
//      newlines. An exclusive prefix sum of the newlines over parts gives each
//      part the 1-based number of its first line, so errors name global lines.
//      METIS files, whose data line k is vertex k, need one more sum: the
//      span's data lines (PartSpan::data_lines), summed over the parts before
//      it into PartSpan::data_lines_before, which the caller sets before
//      part_facts.
//   2. part_facts: what the part's lines say about questions only the whole
//      file settles (does any line hold a name? is column 3 numeric on every
//      line? which line is the first bad one?). Facts of all parts are
//      combined in part order (combine is associative: a scan or a tree
//      reduction in order works); then check_whole_file.
//   3. read_part: the part's edges, read with the decisions the combined facts
//      give; every part records the same decisions, equal to what
//      read_edge_list records for the whole file.
// Concatenating the parts' edges in part order (and, for files with names,
// numbering names by first appearance over the parts in order) gives exactly
// read_edge_list's EdgeList. Formats: edge lists (el, wel, snap, txt, names),
// csv, tsv, mtx, gr, metis. Others (ngr, sg, wsg, .gz) are refused by
// part_format with the reason and what to do.
//
// Errors. Every function may throw UsageError or IoError, and InputError for
// the file's head (an .mtx banner, a .gr problem line, a CSV header's
// quoting): every part throws the same one. A bad line inside a part is not
// thrown by part_facts: it is recorded in the facts, so that the whole file's
// first error (read_edge_list's, by its rules of which check comes first) is
// known after combining. check_whole_file throws the errors that belong to no
// one line (no edges, counts that differ from a header's; for METIS files
// read in more than one part, an asymmetric adjacency too, whose line only a
// whole-file read can name); read_part throws
// the file's first line error in the one part that holds that line (the
// other parts return no edges then, without throwing). A caller running the
// parts in several processes agrees after each pass on whether any part
// threw, and reports the error with the smallest line (InputError::line()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "numagraph/graph/io.hpp"
#include "numagraph/graph/types.hpp"

namespace numagraph::io {

struct FilePart {
  int index = 0;
  int count = 1;
};

struct PartSpan {
  std::uint64_t begin = 0, end = 0;  // byte offsets in the file, at line starts (or the file's end)
  std::int64_t newlines = 0;         // '\n' bytes in [begin, end)
  // METIS files: the span's data lines (the lines after the header that are
  // not '%' comments: vertex lines, blank ones included), counted by
  // part_span when given Format::kMetis; 0 for other formats, -1 when
  // part_span was not told the format.
  std::int64_t data_lines = -1;
  // Set by the caller before part_facts: the sum of data_lines over the parts
  // before this one (an exclusive prefix sum, like the first line's number):
  // the 0-based vertex of the span's first data line. Only METIS files use
  // it; combine checks that the parts' values add up.
  std::int64_t data_lines_before = 0;
};

// The format the whole file is read in (as read_edge_list resolves it:
// --format, else the extension, else the content); `sniffed` says whether it
// came from the content. Throws UsageError for formats parts cannot be read
// in (and for a --weight-column the format has no use for).
Format part_format(const std::string& path, const ReadOptions& options, bool* sniffed = nullptr);

// `format`: part_format's answer; it decides PartSpan::data_lines (a METIS
// part reads the header from the file's head to count them).
PartSpan part_span(const std::string& path, FilePart part, Format format = Format::kAuto);

// Words of PartFacts::detail: room for the readers' facts.
inline constexpr std::size_t kPartFactsWords = 1024;

// Trivially copyable and of fixed size: callers move it between processes as
// bytes. A default-constructed PartFacts is the identity of combine.
struct PartFacts {
  std::int64_t data_lines = 0;  // lines holding an edge, or table rows (header included)
  std::uint64_t detail[kPartFactsWords] = {};  // the readers' facts (src/graph/io/part_facts.hpp)
};
static_assert(std::is_trivially_copyable_v<PartFacts>);

// What part_facts parsed, kept for read_part so that a part is parsed once.
// Optional: without it read_part parses the part again.
class PartParse {
 public:
  struct State;
  PartParse();
  ~PartParse();
  PartParse(PartParse&&) noexcept;
  PartParse& operator=(PartParse&&) noexcept;
  std::unique_ptr<State> state;
};

// `first_line`: the 1-based global number of the span's first line (1 plus
// the newlines of the parts before it). METIS files: the span's
// data_lines_before must be set (see PartSpan), else UsageError.
PartFacts part_facts(const std::string& path, Format format, const PartSpan& span, std::int64_t first_line,
                     const ReadOptions& options, PartParse* keep = nullptr);
// Folds the facts of a later part (or of several later parts, combined) into
// those of the earlier parts.
void combine(PartFacts& earlier, const PartFacts& later);

// The whole file's checks that belong to no one line, in read_edge_list's
// order: throws InputError (e.g. "no edges found") or UsageError exactly as
// read_edge_list throws it; returns when the file's first error, if any, is a
// line that read_part reports. `whole`: the facts of every part combined;
// `total_lines`: the sum of the parts' PartSpan::newlines.
void check_whole_file(const std::string& path, Format format, const PartFacts& whole, std::int64_t total_lines);

struct PartEdges {
  // Ids as in the file, or indices into `names`; weights, weight_kind,
  // undirected, num_vertices and decisions as read_edge_list gives them for
  // the whole file. Files with names: edges.names is null and
  // edges.num_vertices unset: the caller numbers the names of all parts
  // (first appearance over parts in order) and sets both.
  EdgeList edges;
  std::vector<std::string> names;  // files with names: this part's names in order of first appearance in it
};

// Throws InputError with the file and global line, as read_edge_list would
// (see Errors above). Call it after check_whole_file; pass the `keep` given
// to part_facts (same span and options) to skip parsing again.
PartEdges read_part(const std::string& path, Format format, const PartSpan& span, std::int64_t first_line,
                    const PartFacts& whole_file, const ReadOptions& options, PartParse* kept = nullptr);

}  // namespace numagraph::io
