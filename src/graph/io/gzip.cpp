// Transparent .gz input: text readers see the decompressed bytes. Detection
// is by content (the two magic bytes), so a misnamed file still works.
// Decompression is serial (zlib has no parallel inflate); parsing the
// inflated buffer is parallel as for plain files.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "text_input.hpp"

namespace numagraph::io {

bool has_gzip_magic(const std::string& path) {
  unsigned char magic[2] = {0, 0};
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const ssize_t got = read(fd, magic, 2);
  close(fd);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

std::vector<char> inflate_gzip(const std::string& path, std::size_t compressed_size) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path and permissions)");
  gzbuffer(gz, 1 << 20);
  std::vector<char> out;
  // Text graphs compress 3-5x; reserving ahead avoids most regrowth.
  out.reserve(compressed_size * 4 + 1024);
  std::size_t used = 0;
  for (;;) {
    if (out.size() - used < (1 << 22)) out.resize(std::max<std::size_t>(out.size() * 2, used + (1 << 22)));
    const int got = gzread(gz, out.data() + used, static_cast<unsigned>(std::min<std::size_t>(out.size() - used, 1u << 30)));
    if (got < 0) {
      int code = 0;
      const std::string why = gzerror(gz, &code);
      gzclose(gz);
      const auto line = 1 + std::count(out.data(), out.data() + used, '\n');
      throw InputError(path, line,
                       "corrupt or truncated gzip data (" + why + "): the text stops here; re-download or re-compress the file");
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  // A truncated stream is not a read error: gzread returns what it could
  // inflate and then 0; zlib reports the missing end as Z_BUF_ERROR.
  int code = Z_OK;
  const std::string why = gzerror(gz, &code);
  gzclose(gz);
  if (code == Z_BUF_ERROR) {
    const auto line = 1 + std::count(out.data(), out.data() + used, '\n');
    throw InputError(path, line,
                     "truncated gzip data (" + why + "): the text stops here; re-download or re-compress the file");
  }
  out.resize(used);
  return out;
}

}  // namespace numagraph::io
