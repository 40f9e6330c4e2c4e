// Transparent .gz input: readers see the decompressed bytes. Detection is by
// content (the two magic bytes), so a misnamed file still works. Text formats
// and the CSR formats (.ngr.gz, .sg.gz, .wsg.gz) share this inflater.
//
// Decompression is serial (zlib has no parallel inflate) and incremental, into
// an anonymous mapping grown with mremap (no copies). Two guards stop a gzip
// bomb before it costs memory: each growth is checked against the memory
// guard (util/memory_guard.hpp), and once 64 MiB are out, data that expands
// more than 100x is refused (text graphs expand 3-5x, binary ones less).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

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

struct Inflater {
  z_stream z{};
  bool open = false;
  ~Inflater() {
    if (open) inflateEnd(&z);
  }
};

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
  if (inflateInit2(&inf.z, 15 + 32) != Z_OK) throw ResourceError("cannot start zlib to read " + path);
  inf.open = true;
  std::vector<unsigned char> buf(1 << 20);
  std::uint64_t consumed = 0;
  int rc = Z_OK;
  bool input_done = false;
  std::size_t used = 0;
  for (;;) {
    if (inf.z.avail_in == 0 && !input_done) {
      ssize_t got;
      do got = read(in.fd, buf.data(), buf.size());
      while (got < 0 && errno == EINTR);
      if (got < 0) throw IoError("cannot read " + path + ": " + std::strerror(errno));
      if (got == 0) input_done = true;
      inf.z.next_in = buf.data();
      inf.z.avail_in = static_cast<uInt>(got);
    }
    if (inf.z.avail_in == 0 && input_done) break;
    if (out->mapped - used < (std::size_t{1} << 20)) grow(out->mapped * 2);
    // At most 4 MiB per call, so the ratio guard looks often.
    const std::size_t room = std::min<std::size_t>(out->mapped - used, std::size_t{4} << 20);
    inf.z.next_out = const_cast<std::uint8_t*>(out->data) + used;
    inf.z.avail_out = static_cast<uInt>(room);
    const uInt in_before = inf.z.avail_in;
    rc = inflate(&inf.z, Z_NO_FLUSH);
    used += room - inf.z.avail_out;
    consumed += in_before - inf.z.avail_in;
    out->size = used;
    if (used > kRatioFloor && used / std::max<std::uint64_t>(consumed, 1) > kMaxRatio)
      throw ResourceError(path + ": the gzip data expands more than " + std::to_string(kMaxRatio) + "x (" +
                          format_bytes(used) + " from " + format_bytes(consumed) +
                          " so far), which real graphs never do; refusing it as a likely gzip bomb. If the file is "
                          "genuine, gunzip it first");
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members (as `cat a.gz b.gz` makes) continue the data.
      if (inf.z.avail_in == 0 && !input_done) {
        ssize_t got;
        do got = read(in.fd, buf.data(), buf.size());
        while (got < 0 && errno == EINTR);
        if (got <= 0) break;
        inf.z.next_in = buf.data();
        inf.z.avail_in = static_cast<uInt>(got);
      }
      // Anything else after the last member is ignored, as gzip does.
      if (inf.z.avail_in < 2 || inf.z.next_in[0] != 0x1f || inf.z.next_in[1] != 0x8b) break;
      inflateReset(&inf.z);
      rc = Z_OK;
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR)
      throw InputError(path, line_at(*out, used),
                       std::string("corrupt gzip data (") + (inf.z.msg ? inf.z.msg : "inflate failed") +
                           "): the text stops here; re-download or re-compress the file");
    if (rc == Z_BUF_ERROR && inf.z.avail_in == 0 && input_done) break;
  }
  if (rc != Z_STREAM_END)
    throw InputError(path, line_at(*out, used),
                     "truncated gzip data (unexpected end of file): the text stops here; re-download or "
                     "re-compress the file");
  return out;
}

}  // namespace numagraph::io
