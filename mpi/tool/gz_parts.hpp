// A gzip-compressed graph file over MPI. A compressed stream cannot be
// entered in the middle, so one rank inflates it for all: rank 0 reads it
// twice, once to learn its inflated size S, and once to send every rank r
// the bytes of its part (from S*r/P - 1 to the line start after
// S*(r+1)/P, exactly what io::part_span looks at) and everyone the first MiB
// (where headers live). Each rank keeps what it received in a sparse
// in-memory file (memfd) of size S, so the part readers read it as they read
// a plain file, and a rank holds only its part: the rest of the file is a
// hole. Inflating is serial, so the load of a .gz takes at least one
// inflate of the whole file on rank 0 (two, with the size pass): the rule is
// measured in docs/distributed.md.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

namespace numagraph::dist {

class InflatedParts {
 public:
  // Collective. Errors (a missing or corrupt file) end the job through agree().
  InflatedParts(const std::string& path, MPI_Comm comm);
  ~InflatedParts();
  InflatedParts(const InflatedParts&) = delete;
  InflatedParts& operator=(const InflatedParts&) = delete;

  // The in-memory file, as a path the readers open ("/proc/self/fd/N").
  const std::string& path() const { return path_; }
  std::int64_t inflated_bytes() const { return size_; }
  double inflate_seconds() const { return seconds_; }

 private:
  int fd_ = -1;
  std::string path_;
  std::int64_t size_ = 0;
  double seconds_ = 0;
};

}  // namespace numagraph::dist
