#include "numagraph/numa/machine_resources.hpp"

#include <fstream>
#include <string>

namespace numagraph::numa {
namespace {

// sysfs writes sizes as "32768K" (sometimes "M").
std::size_t parse_size(const std::string& s) {
  std::size_t pos = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(s, &pos);
  } catch (...) {
    return 0;
  }
  const char unit = pos < s.size() ? s[pos] : ' ';
  if (unit == 'K') return value << 10;
  if (unit == 'M') return value << 20;
  if (unit == 'G') return value << 30;
  return value;
}

// The data or unified cache of `level` (0: the highest level found), or 0.
std::size_t read_cache(int wanted_level) {
  int best_level = 0;
  std::size_t best = 0;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction") continue;
    const std::size_t bytes = parse_size(size);
    if (wanted_level > 0 && level == wanted_level && bytes > 0) return bytes;
    if (wanted_level == 0 && bytes > 0 && level >= best_level) {
      best_level = level;
      best = bytes;
    }
  }
  return best;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    const std::size_t b = read_cache(0);
    return b > 0 ? b : kFallbackCacheBytes;
  }();
  return bytes;
}

std::size_t l2_cache_bytes() {
  static const std::size_t bytes = [] {
    const std::size_t b = read_cache(2);
    return b > 0 ? b : kFallbackL2Bytes;
  }();
  return bytes;
}

std::size_t available_memory_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  unsigned long long value = 0;
  while (f >> key >> value) {
    std::getline(f, unit);
    if (key == "MemAvailable:") return static_cast<std::size_t>(value) << 10;  // kB
  }
  return 0;
}

}  // namespace numagraph::numa
