// Transparent .gz input: readers see the decompressed bytes. Detection is by
// content (the two magic bytes), so a misnamed file still works. Text formats
// and the CSR formats (.ngr.gz, .sg.gz, .wsg.gz) share this inflater.
//
// Decompression is serial (a gzip stream has no entry points) and
// incremental, into an anonymous mapping grown with mremap (no copies). The
// inflater is ISA-L's igzip when the build found it (libisal-dev), else zlib:
// it was the fastest of zlib, zlib-ng, libdeflate and igzip on Kronecker
// scale 20 as a 122 MB .el.gz, 2.4x zlib (bench/gzip_decoders.py), and it
// streams, which libdeflate does not. Two guards stop a gzip
// bomb before it costs memory: each growth is checked against the memory
// guard (util/memory_guard.hpp), and once 64 MiB are out, data that expands
// more than 100x is refused (text graphs expand 3-5x, binary ones less).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#ifdef NUMAGRAPH_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "numagraph/util/memory_guard.hpp"
#include "text_input.hpp"

namespace numagraph::io {

namespace {

constexpr std::uint64_t kRatioFloor = std::uint64_t{64} << 20;  // bytes out before the ratio counts
constexpr std::uint64_t kMaxRatio = 100;
constexpr std::size_t kPage = 4096;

std::int64_t line_at(const Mapping& m, std::size_t used) {
  return 1 + std::count(reinterpret_cast<const char*>(m.data), reinterpret_cast<const char*>(m.data) + used, '\n');
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// One gzip member at a time, through igzip or zlib. step() inflates from
// the current input into [out, out + room) and says whether the member ended.
#ifdef NUMAGRAPH_HAVE_ISAL
class Inflater {
 public:
  Inflater() { start(); }
  void input(const unsigned char* p, std::size_t n) {
    s_.next_in = const_cast<std::uint8_t*>(p);
    s_.avail_in = static_cast<std::uint32_t>(n);
  }
  std::size_t avail_in() const { return s_.avail_in; }
  const unsigned char* next_in() const { return s_.next_in; }
  // Returns bytes written; `ended` when the member (and its CRC check) is done.
  std::size_t step(std::uint8_t* out, std::size_t room, bool& ended, std::string& error) {
    s_.next_out = out;
    s_.avail_out = static_cast<std::uint32_t>(room);
    const int rc = isal_inflate(&s_);
    ended = s_.block_state == ISAL_BLOCK_FINISH;
    if (rc < 0) error = rc == ISAL_INCORRECT_CHECKSUM ? "incorrect data check" : "invalid deflate data";
    return room - s_.avail_out;
  }
  void next_member() {
    std::uint8_t* in = s_.next_in;
    const std::uint32_t left = s_.avail_in;
    start();
    s_.next_in = in;
    s_.avail_in = left;
  }

 private:
  void start() {
    isal_inflate_init(&s_);
    s_.crc_flag = ISAL_GZIP;  // parse the header, check the trailer's CRC
  }
  inflate_state s_{};
};
#else
class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw ResourceError("cannot start zlib");
  }
  ~Inflater() { inflateEnd(&z_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  void input(const unsigned char* p, std::size_t n) {
    z_.next_in = const_cast<unsigned char*>(p);
    z_.avail_in = static_cast<uInt>(n);
  }
  std::size_t avail_in() const { return z_.avail_in; }
  const unsigned char* next_in() const { return z_.next_in; }
  std::size_t step(std::uint8_t* out, std::size_t room, bool& ended, std::string& error) {
    z_.next_out = out;
    z_.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&z_, Z_NO_FLUSH);
    ended = rc == Z_STREAM_END;
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) error = z_.msg ? z_.msg : "inflate failed";
    return room - z_.avail_out;
  }
  void next_member() { inflateReset(&z_); }

 private:
  z_stream z_{};
};
#endif

}  // namespace

bool has_gzip_magic(const std::string& path) {
  unsigned char magic[2] = {0, 0};
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const ssize_t got = read(fd, magic, 2);
  close(fd);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

std::shared_ptr<const Mapping> inflate_gzip(const std::string& path, std::size_t compressed_size) {
  Fd in{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path and permissions)");
  auto out = std::make_shared<Mapping>();
  auto grow = [&](std::size_t want) {
    want = (want + kPage - 1) / kPage * kPage;
    check_memory(path + ": decompressing " + format_bytes(compressed_size) + " of gzip data to more than " +
                     format_bytes(out->size),
                 want - out->mapped);
    void* p = out->mapped == 0 ? mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                               : mremap(const_cast<std::uint8_t*>(out->data), out->mapped, want, MREMAP_MAYMOVE);
    if (p == MAP_FAILED)
      throw ResourceError("cannot allocate " + format_bytes(want) + " to decompress " + path +
                          " (free memory, or gunzip the file first)");
    out->data = static_cast<const std::uint8_t*>(p);
    out->mapped = want;
  };
  // Text graphs compress 3-5x; start there and double.
  grow(std::max<std::size_t>(compressed_size * 4, std::size_t{1} << 20));

  Inflater inf;
  std::vector<unsigned char> buf(1 << 20);
  std::uint64_t consumed = 0;
  bool input_done = false, ended = false;
  std::size_t used = 0;
  auto refill = [&] {
    ssize_t got;
    do got = read(in.fd, buf.data(), buf.size());
    while (got < 0 && errno == EINTR);
    if (got < 0) throw IoError("cannot read " + path + ": " + std::strerror(errno));
    if (got == 0) input_done = true;
    inf.input(buf.data(), static_cast<std::size_t>(got));
  };
  for (;;) {
    if (inf.avail_in() == 0 && !input_done) refill();
    if (inf.avail_in() == 0 && input_done) break;
    if (out->mapped - used < (std::size_t{1} << 20)) grow(out->mapped * 2);
    // At most 4 MiB per call, so the ratio guard looks often.
    const std::size_t room = std::min<std::size_t>(out->mapped - used, std::size_t{4} << 20);
    const std::size_t in_before = inf.avail_in();
    std::string error;
    used += inf.step(const_cast<std::uint8_t*>(out->data) + used, room, ended, error);
    consumed += in_before - inf.avail_in();
    out->size = used;
    if (used > kRatioFloor && used / std::max<std::uint64_t>(consumed, 1) > kMaxRatio)
      throw ResourceError(path + ": the gzip data expands more than " + std::to_string(kMaxRatio) + "x (" +
                          format_bytes(used) + " from " + format_bytes(consumed) +
                          " so far), which real graphs never do; refusing it as a likely gzip bomb. If the file is "
                          "genuine, gunzip it first");
    if (!error.empty())
      throw InputError(path, line_at(*out, used),
                       "corrupt gzip data (" + error + "): the text stops here; re-download or re-compress the file");
    if (ended) {
      // Concatenated gzip members (as `cat a.gz b.gz` makes) continue the data.
      if (inf.avail_in() == 0 && !input_done) refill();
      // Anything else after the last member is ignored, as gzip does.
      if (inf.avail_in() < 2 || inf.next_in()[0] != 0x1f || inf.next_in()[1] != 0x8b) break;
      inf.next_member();
      ended = false;
    }
  }
  if (!ended)
    throw InputError(path, line_at(*out, used),
                     "truncated gzip data (unexpected end of file): the text stops here; re-download or "
                     "re-compress the file");
  return out;
}

}  // namespace numagraph::io
