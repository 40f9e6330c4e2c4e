// Internal: the machinery every text reader shares. A file (plain or .gz) is
// held in memory, cut into per-thread chunks at line boundaries with the
// 1-based number of each chunk's first line, and parsed with hand-written
// number scanners that report the offending line on error.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binary_file.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::io {

// gzip support (gzip.cpp): whether the file starts with the gzip magic, and
// its whole decompressed content. A corrupt or truncated stream is an
// InputError naming the line where the data stops.
bool has_gzip_magic(const std::string& path);
std::shared_ptr<const Mapping> inflate_gzip(const std::string& path, std::size_t compressed_size);

// A whole file in memory: mmap'ed when plain, decompressed when gzip.
// kWhole reads every page up front (a whole-file read); kOnDemand maps the
// file without reading it, so a reader of one part touches only the pages it
// scans (its span, prefetched with prefetch, and the file's head).
class TextFile {
 public:
  enum Pages { kWhole, kOnDemand };
  explicit TextFile(const std::string& path, Pages pages = kWhole);
  ~TextFile();
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Reads the pages of [begin, end) ahead of a scan (kOnDemand mappings).
  void prefetch(std::size_t begin, std::size_t end) const;

 private:
  std::string path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  void* mapping_ = nullptr;
  std::shared_ptr<const Mapping> inflated_;
};

struct Chunk {
  const char* begin;
  const char* end;
  std::int64_t first_line;  // 1-based line number of `begin`
};

// Cut points of [begin, end) into about `parts` pieces that start at line
// starts: the first is `begin`, the last `end`; consecutive ones differ.
std::vector<const char*> cut_at_lines(const char* begin, const char* end, int parts);

// Splits [begin, end) into about `parts` chunks that start at line starts.
std::vector<Chunk> split_lines(const char* begin, const char* end, std::int64_t first_line, int parts);

// First parse error of a parallel pass: the one with the smallest line wins,
// so the message does not depend on thread timing.
class ErrorSlot {
 public:
  void offer(std::int64_t line, std::string message);
  void throw_if_set(const std::string& file) const;
  bool set() const { return line_ >= 0; }
  std::int64_t line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::int64_t line_ = -1;
  std::string message_;
};

// A cursor over one line. Scanners throw LineError, which the readers turn
// into InputError with the file name and line number.
struct LineError {
  std::string message;
};

class LineCursor {
 public:
  LineCursor(const char* p, const char* end) : p_(p), end_(end) {}
  bool at_end() {
    skip_blanks();
    return p_ >= end_;
  }
  std::uint64_t next_uint(const char* what);
  std::int64_t next_int(const char* what);
  double next_double(const char* what);
  std::string_view next_word(const char* what);
  void expect_end(const char* what);

 private:
  void skip_blanks() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == ',')) ++p_;
  }
  const char* p_;
  const char* end_;
};

// Calls f(line_begin, line_end, line_number) for every line of the chunk.
template <typename F>
void for_each_line(const Chunk& c, F&& f) {
  const char* p = c.begin;
  std::int64_t line = c.first_line;
  while (p < c.end) {
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(c.end - p)));
    const char* e = nl ? nl : c.end;
    f(p, e, line);
    ++line;
    p = nl ? nl + 1 : c.end;
  }
}

// True for lines with nothing to parse: blank, or a comment starting with
// one of `comment_chars` after optional blanks.
inline bool is_blank_or_comment(const char* b, const char* e, std::string_view comment_chars) {
  while (b < e && (*b == ' ' || *b == '\t' || *b == '\r')) ++b;
  return b == e || comment_chars.find(*b) != std::string_view::npos;
}

}  // namespace numagraph::io
