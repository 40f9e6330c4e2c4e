// Reading the small text files of sysfs and procfs for the profile sources.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace numagraph::profile::detail {

// The whole file (at most 64 KiB) into `out`; on failure returns errno.
inline int read_small_file(const std::string& path, std::string& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  out.clear();
  char buf[4096];
  int err = 0;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > (64u << 10)) break;
  }
  ::close(fd);
  return err;
}

// One unsigned decimal number (surrounding whitespace allowed); false if the
// file cannot be read or holds anything else. `err` gets errno, or EINVAL.
inline bool read_u64_file(const std::string& path, std::uint64_t& value, int& err) {
  std::string text;
  err = read_small_file(path, text);
  if (err != 0) return false;
  const char* p = text.c_str();
  while (*p == ' ' || *p == '\t') ++p;
  if (*p < '0' || *p > '9') {
    err = EINVAL;
    return false;
  }
  char* end = nullptr;
  errno = 0;
  value = std::strtoull(p, &end, 10);
  while (*end == ' ' || *end == '\t' || *end == '\n') ++end;
  if (errno != 0 || *end != '\0') {
    err = EINVAL;
    return false;
  }
  return true;
}

inline std::string describe_errno(int err) {
  return err == EINVAL ? std::string("not an unsigned number") : std::string(std::strerror(err));
}

}  // namespace numagraph::profile::detail
