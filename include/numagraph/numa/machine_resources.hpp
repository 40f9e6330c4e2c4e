// What the cache blocking of the pull kernels (sweep/cache_blocking.hpp) needs
// to know about the machine: the last-level cache one thread sees, one core's
// L2, and the memory still free for a blocked copy of the edges.
#pragma once

#include <cstddef>

namespace numagraph::numa {

// Bytes of the highest-level data or unified cache of CPU 0, from Linux sysfs
// (/sys/devices/system/cpu/cpu0/cache/index*/), read once. sysfs gives the
// cache one core shares (a CCX's L3 on AMD EPYC, a socket's on Intel), which
// is what a blocked sweep can use; glibc's sysconf reports a whole socket's
// L3 on some AMD parts. kFallbackCacheBytes when sysfs has no cache entries.
std::size_t last_level_cache_bytes();

inline constexpr std::size_t kFallbackCacheBytes = std::size_t{8} << 20;

// Bytes of CPU 0's level-2 data or unified cache (one core's, on current
// x86 parts), from the same sysfs entries, read once; kFallbackL2Bytes when
// sysfs has none. The tiled pull sweeps size their windows by it.
std::size_t l2_cache_bytes();

inline constexpr std::size_t kFallbackL2Bytes = std::size_t{512} << 10;

// MemAvailable from /proc/meminfo, read at every call (it changes); 0 when it
// cannot be read, so callers that need room do without.
std::size_t available_memory_bytes();

}  // namespace numagraph::numa
