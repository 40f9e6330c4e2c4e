#include "numagraph/numa/memory.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "numagraph/util/error.hpp"

namespace numagraph::numa {

namespace {
PageSize g_default_pages = PageSize::kTHP;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}  // namespace

PageSize default_page_size() { return g_default_pages; }
void set_default_page_size(PageSize size) { g_default_pages = size; }

std::string to_string(PlacementKind kind) {
  switch (kind) {
    case PlacementKind::kLocal: return "local";
    case PlacementKind::kInterleave: return "interleave";
    case PlacementKind::kBind: return "bind";
    case PlacementKind::kPartitioned: return "partitioned";
    case PlacementKind::kReplicated: return "replicated";
  }
  return "unknown";
}

std::string to_string(PageSize size) {
  switch (size) {
    case PageSize::k4K: return "4k";
    case PageSize::kTHP: return "thp";
    case PageSize::k2M: return "2m";
    case PageSize::k1G: return "1g";
  }
  return "unknown";
}

Allocation allocate(std::size_t bytes, const Placement& /*placement*/, PageSize pages) {
  Allocation a;
  a.bytes = bytes;
  if (bytes == 0) return a;
  // Small arrays stay on 4 KB pages: a huge page for a few KB wastes memory.
  const bool want_huge = pages != PageSize::k4K && bytes >= kHugePage;
  a.mapped = want_huge ? (bytes + kHugePage - 1) / kHugePage * kHugePage : bytes;
  void* p = mmap(nullptr, a.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    throw ResourceError("cannot allocate " + std::to_string(bytes) +
                        " bytes: " + std::strerror(errno) +
                        " (free memory or use a smaller graph)");
  }
  a.data = p;
  a.pages = PageSize::k4K;
  if (want_huge && madvise(p, a.mapped, MADV_HUGEPAGE) == 0) a.pages = PageSize::kTHP;
  return a;
}

void release(const Allocation& allocation) {
  if (allocation.data != nullptr) munmap(allocation.data, allocation.mapped);
}

}  // namespace numagraph::numa
