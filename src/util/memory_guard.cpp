#include "numagraph/util/memory_guard.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "numagraph/util/error.hpp"

namespace numagraph {

namespace {

constexpr const char* kOverride = "NUMAGRAPH_MEMORY_LIMIT";

std::uint64_t mem_available() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  std::uint64_t kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "MemAvailable: %lu kB", &kib) == 1) break;
  std::fclose(f);
  return kib * 1024;
}

std::uint64_t parse_size(const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || !(v >= 0))
    throw UsageError(std::string(kOverride) + "='" + text + "' is not a size: give bytes with an optional K, M, G or T "
                     "suffix (e.g. 8G), or 'off'");
  double scale = 1;
  switch (std::toupper(static_cast<unsigned char>(*end))) {
    case 'K': scale = 1024.0; ++end; break;
    case 'M': scale = 1024.0 * 1024; ++end; break;
    case 'G': scale = 1024.0 * 1024 * 1024; ++end; break;
    case 'T': scale = 1024.0 * 1024 * 1024 * 1024; ++end; break;
    default: break;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0')
    throw UsageError(std::string(kOverride) + "='" + text + "' is not a size: give bytes with an optional K, M, G or T "
                     "suffix (e.g. 8G), or 'off'");
  const double bytes = v * scale;
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

}  // namespace

std::uint64_t memory_limit_bytes() {
  const char* env = std::getenv(kOverride);
  if (env && *env) {
    if (std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) return 0;
    return parse_size(env);
  }
  return mem_available();
}

std::uint64_t heap_limit_bytes() {
  const char* env = std::getenv(kOverride);
  if (!env || !*env || std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) return 0;
  return parse_size(env);
}

void check_heap(const char* what, std::uint64_t held, std::uint64_t bytes) {
  const std::uint64_t limit = heap_limit_bytes();
  if (limit == 0 || saturating_add(held, bytes) <= limit) return;
  const std::string array = what && *what ? std::string(" for the '") + what + "' array" : std::string();
  std::string total = format_bytes(saturating_add(held, bytes)), allowed = format_bytes(limit);
  if (total == allowed)  // "1.0 MiB, but 1.0 MiB is allowed": give the bytes
    total += " (" + std::to_string(saturating_add(held, bytes)) + " bytes)", allowed += " (" + std::to_string(limit) + " bytes)";
  throw ResourceError("allocating " + format_bytes(bytes) + array + " would bring the arrays numagraph holds to " +
                      total + ", but " + allowed +
                      " is allowed (" + kOverride + "; mapped .ngr file pages are not counted): use a smaller "
                      "graph, raise the limit, or set " + kOverride + "=off");
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

void check_memory(const std::string& what, std::uint64_t bytes) {
  const std::uint64_t limit = memory_limit_bytes();
  if (limit == 0 || bytes <= limit) return;
  const bool from_env = std::getenv(kOverride) && *std::getenv(kOverride);
  throw ResourceError(what + " needs about " + format_bytes(bytes) + " of memory, but " + format_bytes(limit) +
                      (from_env ? " is allowed (" + std::string(kOverride) + ")"
                                : " is available (MemAvailable in /proc/meminfo)") +
                      ": use a smaller graph or a machine with more memory, or set " + kOverride +
                      "=off to try anyway");
}

}  // namespace numagraph
