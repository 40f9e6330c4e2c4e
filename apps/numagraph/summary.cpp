#include "summary.hpp"

#include <sys/resource.h>

#include <cstdarg>

namespace numagraph::cli {

std::int64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out(static_cast<std::size_t>(size > 0 ? size : 0), '\0');
  if (size > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, again);
  va_end(again);
  return out;
}

std::string share(std::int64_t count, std::int64_t total, const char* noun) {
  const double percent =
      total > 0 ? 100.0 * static_cast<double>(count) / static_cast<double>(total) : 0.0;
  return format("%lld of %lld %s (%.3g%%)", static_cast<long long>(count),
                static_cast<long long>(total), noun, percent);
}

}  // namespace numagraph::cli
