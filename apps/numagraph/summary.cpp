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

std::string noun_for(long long count, const char* one, const char* many) {
  if (count == 1 || count == -1) return one;
  return *many ? std::string(many) : std::string(one) + "s";
}

std::string count_of(long long count, const char* one, const char* many) {
  return std::to_string(count) + " " + noun_for(count, one, many);
}

std::string share(std::int64_t count, std::int64_t total, const char* one, const char* many) {
  const double percent =
      total > 0 ? 100.0 * static_cast<double>(count) / static_cast<double>(total) : 0.0;
  return format("%lld of %s (%.3g%%)", static_cast<long long>(count), count_of(total, one, many).c_str(), percent);
}

}  // namespace numagraph::cli
