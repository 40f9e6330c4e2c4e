// Internal: read-only memory map of a binary file, shared by the arrays that
// view it (keep-alive for NumaArray::view), and a buffered writer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "numagraph/util/error.hpp"

namespace numagraph::io {

struct Mapping {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::size_t mapped = 0;  // bytes mapped when more than `size` (an inflated buffer), else 0
  ~Mapping();
};

// Maps `path` read-only; throws IoError when it cannot.
std::shared_ptr<const Mapping> map_file(const std::string& path);
// As map_file, but a gzip-compressed file is inflated into memory first
// (.ngr.gz, .sg.gz, .wsg.gz): the CSR readers take either.
std::shared_ptr<const Mapping> map_or_inflate(const std::string& path);

class BinaryWriter {
 public:
  explicit BinaryWriter(const std::string& path);
  ~BinaryWriter();
  void write(const void* data, std::size_t bytes);
  void pad_to(std::size_t alignment);  // zero bytes up to a multiple of `alignment`
  std::size_t offset() const { return offset_; }
  void seek_write(std::size_t offset, const void* data, std::size_t bytes);  // overwrite earlier bytes
  void close();

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
  std::size_t offset_ = 0;
};

}  // namespace numagraph::io
