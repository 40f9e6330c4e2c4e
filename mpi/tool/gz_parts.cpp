#include "gz_parts.hpp"

#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "agree.hpp"
#include "comm.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::dist {

namespace {

constexpr std::int64_t kHead = std::int64_t{1} << 20;   // sent to every rank
constexpr std::int64_t kChunk = std::int64_t{1} << 24;  // inflated per read, and the largest message
constexpr int kTagHeader = 71, kTagData = 72;

// Reads the stream in chunks, calling f(data, bytes) for each; throws InputError when it is corrupt.
template <typename F>
void inflate_all(const std::string& path, F&& f, std::int64_t first_chunk = kChunk) {
  gzFile z = gzopen(path.c_str(), "rb");
  if (!z) throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path)");
  gzbuffer(z, 1 << 18);
  std::vector<char> buf(static_cast<std::size_t>(kChunk));
  std::int64_t want = first_chunk;
  for (;;) {
    const int got = gzread(z, buf.data(), static_cast<unsigned>(want));
    if (got < 0) {
      int code = 0;
      const std::string why = gzerror(z, &code);
      gzclose(z);
      throw InputError(path, 0, "the gzip stream is corrupt or truncated (" + why + "): check the file, e.g. gzip -t " + path);
    }
    if (got == 0) break;
    f(buf.data(), static_cast<std::int64_t>(got));
    want = kChunk;
  }
  gzclose(z);
}

void write_at(int fd, const char* data, std::int64_t bytes, std::int64_t offset) {
  while (bytes > 0) {
    const ssize_t w = pwrite(fd, data, static_cast<std::size_t>(bytes), offset);
    if (w <= 0) throw ResourceError(std::string("cannot keep the inflated part in memory: ") + std::strerror(errno));
    data += w;
    bytes -= w;
    offset += w;
  }
}

}  // namespace

InflatedParts::InflatedParts(const std::string& path, MPI_Comm comm) {
  int me = 0, p = 1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  const double t0 = MPI_Wtime();
  agree(comm, [&] {
    if (me == 0) inflate_all(path, [&](const char*, std::int64_t n) { size_ += n; });
  });
  check(MPI_Bcast(&size_, 1, MPI_INT64_T, 0, comm), "MPI_Bcast");
  agree(comm, [&] {
    fd_ = memfd_create("numagraph-part", MFD_CLOEXEC);
    if (fd_ < 0 || ftruncate(fd_, size_) != 0)
      throw ResourceError(std::string("cannot hold the inflated part in memory (memfd): ") + std::strerror(errno));
  });
  path_ = "/proc/self/fd/" + std::to_string(fd_);
  const auto S = static_cast<unsigned __int128>(size_);
  std::vector<std::int64_t> t(static_cast<std::size_t>(p) + 1);
  for (int r = 0; r <= p; ++r) t[r] = static_cast<std::int64_t>(S * static_cast<unsigned>(r) / static_cast<unsigned>(p));
  const std::int64_t head = std::min(size_, kHead);
  std::vector<char> head_bytes(static_cast<std::size_t>(head));
  if (me == 0) {
    // c[r]: the line start at or after t[r] (io::part_span's cut), -1 while unknown.
    std::vector<std::int64_t> c(static_cast<std::size_t>(p) + 1, -1);
    c[0] = 0;
    c[p] = size_;
    for (int r = 1; r < p; ++r)
      if (t[r] == 0) c[r] = 0;
    std::vector<char> ended(static_cast<std::size_t>(p), 0);
    std::int64_t pos = 0;
    bool head_sent = false;
    auto send = [&](int r, const char* data, std::int64_t off, std::int64_t n) {
      if (r == 0) return write_at(fd_, data, n, off);
      const std::int64_t header[2] = {off, n};
      check(MPI_Send(header, 2, MPI_INT64_T, r, kTagHeader, comm), "MPI_Send");
      if (n > 0) check(MPI_Send(data, static_cast<int>(n), MPI_CHAR, r, kTagData, comm), "MPI_Send");
    };
    inflate_all(
        path,
        [&](const char* buf, std::int64_t len) {
          const std::int64_t lo = pos, hi = pos + len;
          if (!head_sent) {
            std::copy(buf, buf + head, head_bytes.data());
            check(MPI_Bcast(head_bytes.data(), static_cast<int>(head), MPI_CHAR, 0, comm), "MPI_Bcast(head)");
            head_sent = true;
          }
          for (int r = 1; r < p; ++r) {
            if (c[r] >= 0 || t[r] - 1 >= hi) continue;
            const std::int64_t from = std::max(t[r] - 1, lo);
            const void* nl = std::memchr(buf + (from - lo), '\n', static_cast<std::size_t>(hi - from));
            if (nl) c[r] = lo + (static_cast<const char*>(nl) - buf) + 1;
          }
          for (int r = 0; r < p; ++r) {
            if (ended[r]) continue;
            const std::int64_t start = r == 0 ? 0 : t[r] - 1;
            const std::int64_t stop = c[r + 1] >= 0 ? c[r + 1] : hi;
            const std::int64_t a = std::max(start, lo), b = std::min(stop, hi);
            if (a < b) send(r, buf + (a - lo), a, b - a);
            if (c[r + 1] >= 0 && c[r + 1] <= hi) {
              if (r > 0) send(r, nullptr, 0, -1);
              ended[r] = 1;
            }
          }
          pos = hi;
        },
        std::max<std::int64_t>(head, 1));
    if (!head_sent) check(MPI_Bcast(head_bytes.data(), static_cast<int>(head), MPI_CHAR, 0, comm), "MPI_Bcast(head)");
    for (int r = 1; r < p; ++r)
      if (!ended[r]) send(r, nullptr, 0, -1);
  } else {
    check(MPI_Bcast(head_bytes.data(), static_cast<int>(head), MPI_CHAR, 0, comm), "MPI_Bcast(head)");
    std::vector<char> buf;
    for (;;) {
      std::int64_t header[2];
      check(MPI_Recv(header, 2, MPI_INT64_T, 0, kTagHeader, comm, MPI_STATUS_IGNORE), "MPI_Recv");
      if (header[1] < 0) break;
      buf.resize(static_cast<std::size_t>(header[1]));
      check(MPI_Recv(buf.data(), static_cast<int>(header[1]), MPI_CHAR, 0, kTagData, comm, MPI_STATUS_IGNORE),
            "MPI_Recv");
      write_at(fd_, buf.data(), header[1], header[0]);
    }
  }
  write_at(fd_, head_bytes.data(), head, 0);
  seconds_ = MPI_Wtime() - t0;
}

InflatedParts::~InflatedParts() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace numagraph::dist
