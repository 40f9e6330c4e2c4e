// Refusing work that cannot fit in memory before allocating it.
//
// Generators, the builder, headers that declare sizes and the gzip inflater
// estimate the bytes they are about to need and call check_memory() first,
// so `generate kron --scale 36` or a header that declares 4e9 vertices is
// refused in microseconds with a message naming the input, the declared
// count, the bytes needed and the bytes available, instead of allocating
// gigabytes (or being killed) first.
//
// The limit is MemAvailable from /proc/meminfo. NUMAGRAPH_MEMORY_LIMIT
// overrides it: a size in bytes with an optional K/M/G/T suffix (powers of
// 1024), or `off` to skip the check.
//
// NUMAGRAPH_MEMORY_LIMIT also caps the heap numagraph holds while it runs:
// every array numa::allocate maps (the builder's, a rebuild's, a kernel's
// working arrays) is counted, and an allocation that would take the arrays
// held past the limit is refused (check_heap). Pages of a mapped .ngr file are
// not counted: they are clean file pages the kernel can drop and read again,
// so `NUMAGRAPH_MEMORY_LIMIT=8M numagraph bfs big.ngr` runs when the kernel's
// own arrays fit in 8 MiB. Without the variable only the estimates above are
// checked (MemAvailable already reflects what the process holds).
#pragma once

#include <cstdint>
#include <string>

namespace numagraph {

// Bytes the check compares with; 0 when there is no limit (`off`, or
// /proc/meminfo unreadable). Throws UsageError for an unreadable
// NUMAGRAPH_MEMORY_LIMIT.
std::uint64_t memory_limit_bytes();

// Throws ResourceError when `bytes` exceed memory_limit_bytes(). `what` names
// the input and what it declares, e.g. "kron36: 2^36 vertices, 1.1e12 edges".
void check_memory(const std::string& what, std::uint64_t bytes);

// NUMAGRAPH_MEMORY_LIMIT in bytes; 0 when it is unset or `off`.
std::uint64_t heap_limit_bytes();

// Throws ResourceError when allocating `bytes` more, with `held` bytes of
// arrays already held, passes heap_limit_bytes(). `what` names the array
// (its role, e.g. "parents"), or is empty.
void check_heap(const char* what, std::uint64_t held, std::uint64_t bytes);

// `bytes` for people: "3.0 GiB".
std::string format_bytes(std::uint64_t bytes);

// a * b, saturating at 2^64 - 1 (estimates of absurd headers must not wrap).
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? ~std::uint64_t{0} : r;
}
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? ~std::uint64_t{0} : r;
}

}  // namespace numagraph
