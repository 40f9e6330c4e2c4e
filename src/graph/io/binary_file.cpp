#include "binary_file.hpp"

#include "text_input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace numagraph::io {

Mapping::~Mapping() {
  const std::size_t bytes = mapped ? mapped : size;
  if (data && bytes) munmap(const_cast<std::uint8_t*>(data), bytes);
}

std::shared_ptr<const Mapping> map_or_inflate(const std::string& path) {
  if (!has_gzip_magic(path)) return map_file(path);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path)");
  return inflate_gzip(path, static_cast<std::size_t>(st.st_size));
}

std::shared_ptr<const Mapping> map_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno) + " (check the path and permissions)");
  struct stat st {};
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    close(fd);
    throw IoError("cannot read " + path + ": not a regular file");
  }
  auto m = std::make_shared<Mapping>();
  m->size = static_cast<std::size_t>(st.st_size);
  if (m->size > 0) {
    void* p = mmap(nullptr, m->size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      close(fd);
      m->size = 0;
      throw IoError("cannot map " + path + ": " + std::strerror(err));
    }
    madvise(p, m->size, MADV_WILLNEED);
    m->data = static_cast<const std::uint8_t*>(p);
  }
  close(fd);
  return m;
}

BinaryWriter::BinaryWriter(const std::string& path) : path_(path) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw IoError("cannot write " + path + ": " + std::strerror(errno) + " (check the directory exists and is writable)");
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 22);
}

BinaryWriter::~BinaryWriter() {
  if (f_) std::fclose(f_);
}

void BinaryWriter::write(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, f_) != bytes)
    throw IoError("error writing " + path_ + ": " + std::strerror(errno) + " (disk full?)");
  offset_ += bytes;
}

void BinaryWriter::pad_to(std::size_t alignment) {
  static const std::vector<char> zeros(4096, 0);
  while (offset_ % alignment) write(zeros.data(), std::min(alignment - offset_ % alignment, zeros.size()));
}

void BinaryWriter::seek_write(std::size_t offset, const void* data, std::size_t bytes) {
  if (std::fflush(f_) != 0 || std::fseek(f_, static_cast<long>(offset), SEEK_SET) != 0 ||
      std::fwrite(data, 1, bytes, f_) != bytes || std::fseek(f_, 0, SEEK_END) != 0)
    throw IoError("error writing " + path_ + ": " + std::strerror(errno));
}

void BinaryWriter::close() {
  if (f_ && std::fclose(f_) != 0) {
    f_ = nullptr;
    throw IoError("error closing " + path_ + ": " + std::strerror(errno) + " (disk full?)");
  }
  f_ = nullptr;
}

}  // namespace numagraph::io
