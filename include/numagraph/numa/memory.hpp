// Raw page allocation with a placement and a page size. NumaArray is built on
// these; kernels never call them directly.
#pragma once

#include <cstddef>

#include "numagraph/numa/placement.hpp"

namespace numagraph::numa {

// What an allocation actually got (a request for 2 MB pages may fall back).
struct Allocation {
  void* data = nullptr;
  std::size_t bytes = 0;     // bytes requested by the caller
  std::size_t mapped = 0;    // bytes actually mapped (rounded to the page size)
  PageSize pages = PageSize::k4K;
};

// Page size used when a caller does not ask for one (set by --pages).
PageSize default_page_size();
void set_default_page_size(PageSize size);

// Maps `bytes` of zeroed memory. The pages are not touched here: with kLocal
// the first thread to write a page places it. Throws ResourceError.
Allocation allocate(std::size_t bytes, const Placement& placement, PageSize pages);
void release(const Allocation& allocation);

}  // namespace numagraph::numa
