// Raw page allocation with a placement and a page size. NumaArray is built on
// these; kernels never call them directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/numa/placement.hpp"

namespace numagraph::numa {

// What an allocation actually got (a request for 2 MB pages may fall back).
struct Allocation {
  void* data = nullptr;
  std::size_t bytes = 0;     // bytes requested by the caller
  std::size_t mapped = 0;    // bytes actually mapped (rounded to the page size)
  PageSize pages = PageSize::k4K;
  PageSize requested = PageSize::k4K;  // what the caller asked for (the recycling key)
  bool recyclable = false;             // release() may keep it for an Fill::kAny request
  Placement placement{};               // as applied (the recycling key)
  std::size_t element_size = 1;        // as given to allocate (a partitioned array's key)
};

// What the caller needs of fresh memory. kZero: every byte zero (a new
// mapping always is). kAny: the caller writes every element before it reads
// it, so allocate() may hand back a mapping that release() kept from an
// earlier array of the same mapped size, page size and placement, with its
// old contents. A kernel called again and again in one process (the CLI's
// trials, a Python loop) then does not fault in and zero its working arrays
// on every call, as glibc's malloc gives freed memory back without zeroing
// it. Measured: docs/numa.md, "Recycled working arrays".
enum class Fill { kZero, kAny };

// Page size used when a caller does not ask for one (set by --pages).
PageSize default_page_size();
void set_default_page_size(PageSize size);

// Maps `bytes` of zeroed memory (elements of `element_size` bytes) and applies
// the placement policy with mbind before any page is touched. kLocal leaves
// placement to the first thread that writes each page. Explicit huge pages
// (2m, 1g) fall back to THP, then 4 KB; Allocation::pages says what was got.
// Throws ResourceError when memory runs out, or when the arrays held would
// pass NUMAGRAPH_MEMORY_LIMIT (util/memory_guard.hpp).
Allocation allocate(std::size_t bytes, const Placement& placement, PageSize pages, std::size_t element_size = 1,
                    Fill fill = Fill::kZero);
// Unmaps, or keeps the mapping for a later kAny request (the recycle bin):
// only mappings of at least kMinRecycledBytes, local, interleaved, bound or
// partitioned by element count (taken back only for the same bytes and
// element size: the same node ranges), and local ones only on a machine with
// one NUMA node (first-touch placement is not carried from one array to the
// next), within recycle_limit() bytes and kMaxRecycledMappings mappings in
// all (oldest given back first).
void release(const Allocation& allocation);

// 64 KiB: a small graph's label or score array (soc-Slashdot0902's 82,168
// 32-bit labels are 321 KiB) is worth keeping too (docs/numa.md).
inline constexpr std::size_t kMinRecycledBytes = std::size_t{64} << 10;
// Bounds the bin's linear search and the process's mapping count.
inline constexpr std::size_t kMaxRecycledMappings = 64;
// Bytes the recycle bin may keep: NUMAGRAPH_RECYCLE_BYTES if set (0 turns
// recycling off; K, M, G suffixes), else 1/16 of physical memory.
std::size_t recycle_limit();
void set_recycle_limit(std::size_t bytes);  // gives back what no longer fits
// Whether a recycled mapping is handed back filled with 0xFF bytes (NaN
// doubles and floats, -1 integers) instead of its old contents: a check that
// every Fill::kAny caller writes before it reads. NUMAGRAPH_RECYCLE_POISON=1
// turns it on (default off: it costs a pass over the array).
void set_recycle_poison(bool on);
std::size_t recycled_bytes();               // bytes held in the bin now
// Bytes mapped by the arrays alive now, the bin's left out: what
// NUMAGRAPH_MEMORY_LIMIT caps (allocate refuses to pass it; memory_guard.hpp).
std::uint64_t held_bytes();
void release_recycled();                    // unmaps everything the bin holds

// Where the pages of [data, data + bytes) are: pages per kernel node (a
// sample of up to `max_pages` base-page addresses, queried with move_pages
// and no target nodes; pages not yet touched, or unmapped for a moment by
// the kernel's automatic NUMA balancing, count as not_present) and what backs
// the mapping, from /proc/self/smaps: its KernelPageSize (2 MiB or 1 GiB for
// hugetlbfs) and its transparent (AnonHugePages) or hugetlbfs huge pages.
struct PageReport {
  std::vector<std::int64_t> pages_per_node;  // indexed by kernel node id
  std::int64_t not_present = 0;
  std::int64_t sampled = 0;
  std::int64_t huge_bytes = 0;        // bytes of the mapping on THP or hugetlbfs pages
  std::int64_t kernel_page_size = 0;  // bytes (4096, or 2 MiB / 1 GiB for hugetlbfs); 0 = unknown
  std::int64_t on(int node) const;    // sampled pages on kernel node `node`
  // The page size obtained, as --pages spells it: "4k", "thp" (some huge
  // pages), "2m" or "1g" (hugetlbfs).
  std::string page_size() const;
  std::string describe() const;  // "node0: 512 pages, node1: 512 pages (of 1024 sampled); 4k pages"
};
PageReport page_report(const void* data, std::size_t bytes, std::size_t max_pages = 4096);

}  // namespace numagraph::numa
