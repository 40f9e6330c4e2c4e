// Returning the pages of a large array to the system while a pass reads it
// front to back, so that the array being consumed and the one being filled
// are not both held whole (the distributed loader's peak memory).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace numagraph::dist {

// Gives the pages of an array back to the system as a front-to-back pass
// consumes it (the array keeps its size; nothing before `upto` is read
// again). Whole huge pages only, so no transparent huge page is split.
class ConsumedPages {
 public:
  ConsumedPages() = default;
  ConsumedPages(const void* data, std::size_t bytes)
      : base_(reinterpret_cast<std::uintptr_t>(data)), freed_(align_up(base_)), end_(base_ + bytes) {}

  void upto(std::size_t bytes) {
    if (base_ == 0) return;
    const std::uintptr_t to = bytes >= end_ - base_ ? end_ : align_down(base_ + bytes);
    const std::uintptr_t whole = align_down(to);
    if (whole > freed_) {
      madvise(reinterpret_cast<void*>(freed_), whole - freed_, MADV_DONTNEED);
      freed_ = whole;
    }
  }

 private:
  static constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  static std::uintptr_t align_up(std::uintptr_t a) { return (a + kHuge - 1) & ~(kHuge - 1); }
  static std::uintptr_t align_down(std::uintptr_t a) { return a & ~(kHuge - 1); }
  std::uintptr_t base_ = 0, freed_ = 0, end_ = 0;
};

}  // namespace numagraph::dist
