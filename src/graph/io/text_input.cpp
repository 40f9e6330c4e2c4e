#include "text_input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace numagraph::io {

TextFile::TextFile(const std::string& path, Pages pages) : path_(path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path)");
  if (S_ISDIR(st.st_mode)) throw IoError("cannot read " + path + ": it is a directory, give a file");
  if (has_gzip_magic(path)) {
    inflated_ = inflate_gzip(path, static_cast<std::size_t>(st.st_size));
    data_ = reinterpret_cast<const char*>(inflated_->data);
    size_ = inflated_->size;
    return;
  }
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path and permissions)");
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    mapping_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | (pages == kWhole ? MAP_POPULATE : 0), fd, 0);
    if (mapping_ == MAP_FAILED) {
      const int err = errno;
      close(fd);
      mapping_ = nullptr;
      throw IoError("cannot map " + path + ": " + std::strerror(err));
    }
    if (pages == kWhole) madvise(mapping_, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const char*>(mapping_);
  }
  close(fd);
}

TextFile::~TextFile() {
  if (mapping_) munmap(mapping_, size_);
}

void TextFile::prefetch(std::size_t begin, std::size_t end) const {
  if (!mapping_ || begin >= end) return;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t from = begin / page * page;
  char* at = static_cast<char*>(mapping_) + from;
  const std::size_t length = std::min(end, size_) - from;
#ifdef MADV_POPULATE_READ
  if (madvise(at, length, MADV_POPULATE_READ) == 0) return;
#endif
  madvise(at, length, MADV_WILLNEED);  // older kernels: read ahead, fault on use
}

std::vector<const char*> cut_at_lines(const char* begin, const char* end, int parts) {
  const std::size_t size = static_cast<std::size_t>(end - begin);
  std::vector<const char*> cuts{begin};
  for (int k = 1; k < parts; ++k) {
    const char* p = begin + size * static_cast<std::size_t>(k) / static_cast<std::size_t>(parts);
    if (p <= cuts.back()) continue;
    const char* nl = static_cast<const char*>(memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!nl) break;
    if (nl + 1 > cuts.back()) cuts.push_back(nl + 1);
  }
  if (cuts.back() != end || cuts.size() == 1) cuts.push_back(end);
  return cuts;
}

std::vector<Chunk> split_lines(const char* begin, const char* end, std::int64_t first_line, int parts) {
  const auto cuts = cut_at_lines(begin, end, parts);
  std::vector<Chunk> chunks(cuts.size() - 1);
  std::vector<std::int64_t> newlines(chunks.size(), 0);
#pragma omp parallel for schedule(static, 1)
  for (std::size_t i = 0; i < chunks.size(); ++i) newlines[i] = std::count(cuts[i], cuts[i + 1], '\n');
  std::int64_t line = first_line;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    chunks[i] = {cuts[i], cuts[i + 1], line};
    line += newlines[i];
  }
  return chunks;
}

void ErrorSlot::offer(std::int64_t line, std::string message) {
#pragma omp critical(numagraph_io_error)
  if (line_ < 0 || line < line_) {
    line_ = line;
    message_ = std::move(message);
  }
}

void ErrorSlot::throw_if_set(const std::string& file) const {
  if (line_ >= 0) throw InputError(file, line_, message_);
}

std::uint64_t LineCursor::next_uint(const char* what) {
  skip_blanks();
  if (p_ >= end_) throw LineError{std::string("missing ") + what + " (line ends early)"};
  if (*p_ == '-') throw LineError{std::string(what) + " must not be negative"};
  if (*p_ == '+') ++p_;
  if (p_ >= end_ || *p_ < '0' || *p_ > '9')
    throw LineError{std::string("expected ") + what + " (a non-negative integer), found '" +
                    std::string(p_, std::min<std::size_t>(static_cast<std::size_t>(end_ - p_), 20)) + "'"};
  std::uint64_t v = 0;
  constexpr std::uint64_t kMax = (std::uint64_t{1} << 63) - 1;  // ids are below 2^63
  while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
    const std::uint64_t digit = static_cast<std::uint64_t>(*p_ - '0');
    if (v > (kMax - digit) / 10) throw LineError{std::string(what) + " is too large (ids must be below 2^63)"};
    v = v * 10 + digit;
    ++p_;
  }
  if (p_ < end_ && !(*p_ == ' ' || *p_ == '\t' || *p_ == '\r' || *p_ == ','))
    throw LineError{std::string("expected ") + what + " (an integer), found '" +
                    std::string(p_, std::min<std::size_t>(static_cast<std::size_t>(end_ - p_), 20)) + "' in it"};
  return v;
}

std::int64_t LineCursor::next_int(const char* what) {
  skip_blanks();
  const bool negative = p_ < end_ && *p_ == '-';
  if (negative) ++p_;
  const std::uint64_t v = next_uint(what);
  return negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
}

double LineCursor::next_double(const char* what) {
  skip_blanks();
  if (p_ >= end_) throw LineError{std::string("missing ") + what + " (line ends early)"};
  const char* start = p_ + (*p_ == '+' ? 1 : 0);
  double v = 0;
  auto [ptr, ec] = std::from_chars(start, end_, v);
  if (ec == std::errc::result_out_of_range) throw LineError{std::string(what) + " is out of range"};
  if (ec != std::errc() || (ptr < end_ && !(*ptr == ' ' || *ptr == '\t' || *ptr == '\r' || *ptr == ',')))
    throw LineError{std::string("expected ") + what + " (a number), found '" +
                    std::string(p_, std::min<std::size_t>(static_cast<std::size_t>(end_ - p_), 20)) + "'"};
  if (!std::isfinite(v)) throw LineError{std::string(what) + " is not a finite number (NaN or inf)"};
  p_ = ptr;
  return v;
}

std::string_view LineCursor::next_word(const char* what) {
  skip_blanks();
  if (p_ >= end_) throw LineError{std::string("missing ") + what};
  const char* start = p_;
  while (p_ < end_ && !(*p_ == ' ' || *p_ == '\t' || *p_ == '\r')) ++p_;
  return {start, static_cast<std::size_t>(p_ - start)};
}

void LineCursor::expect_end(const char* what) {
  if (!at_end())
    throw LineError{std::string("unexpected extra text '") +
                    std::string(p_, std::min<std::size_t>(static_cast<std::size_t>(end_ - p_), 20)) +
                    "' after " + what};
}

}  // namespace numagraph::io
