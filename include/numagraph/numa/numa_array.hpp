// NumaArray<T>: a fixed-size array whose pages have an explicit placement and
// page size. It either owns anonymous memory (zero-filled, placed on first
// touch or by policy; for_overwrite: contents unspecified) or is a read-only
// view into memory someone else keeps alive (an mmap'ed .ngr file).
// Move-only: big arrays are never copied by accident. T must be trivially
// copyable (the memory starts as zero bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/placement.hpp"

namespace numagraph {

template <typename T>
class NumaArray {
  static_assert(std::is_trivially_copyable_v<T>, "NumaArray holds plain data only");

 public:
  NumaArray() = default;

  // `n` zero-initialised elements. Without a placement: the --placement
  // default (numa::default_placement(), "local" unless changed).
  explicit NumaArray(std::size_t n, numa::Placement placement = numa::default_placement(),
                     numa::PageSize pages = numa::default_page_size())
      : NumaArray(n, std::move(placement), pages, numa::Fill::kZero) {}

  // `n` elements the caller will write before reading any (contents
  // unspecified): may reuse memory an earlier array released
  // (numa::Fill::kAny), so a kernel called repeatedly skips faulting in and
  // zeroing fresh pages.
  static NumaArray for_overwrite(std::size_t n, numa::Placement placement = numa::default_placement(),
                                 numa::PageSize pages = numa::default_page_size()) {
    return NumaArray(n, std::move(placement), pages, numa::Fill::kAny);
  }

  // A view of `n` elements at `data`, kept valid by `keep_alive`.
  static NumaArray view(const T* data, std::size_t n, std::shared_ptr<const void> keep_alive) {
    NumaArray a;
    a.data_ = const_cast<T*>(data);
    a.size_ = n;
    a.keep_alive_ = std::move(keep_alive);
    return a;
  }

  NumaArray(NumaArray&& other) noexcept { swap(other); }
  NumaArray& operator=(NumaArray&& other) noexcept {
    if (this != &other) {
      NumaArray tmp(std::move(other));
      swap(tmp);
    }
    return *this;
  }
  NumaArray(const NumaArray&) = delete;
  NumaArray& operator=(const NumaArray&) = delete;
  ~NumaArray() { numa::release(alloc_); }

  // A deep copy with the same placement (explicit, because it is expensive).
  NumaArray clone() const {
    NumaArray c(size_, placement_);
    if (size_ > 0) std::memcpy(c.data_, data_, size_ * sizeof(T));
    return c;
  }

  // Writes zeros with OpenMP's static schedule, so element block t is first
  // touched by thread t: under the local placement each page then lands on
  // the node of the thread whose `parallel::for_static` block covers it.
  // Call it right after construction, before any other write.
  void first_touch() {
    if (is_view()) return;
    T* p = data_;
    const std::int64_t n = static_cast<std::int64_t>(size_);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) p[i] = T{};
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::span<T> span() { return {data_, size_}; }
  std::span<const T> span() const { return {data_, size_}; }

  bool is_view() const { return keep_alive_ != nullptr; }
  const numa::Placement& placement() const { return placement_; }
  numa::PageSize page_size() const { return alloc_.pages; }

  void swap(NumaArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(placement_, other.placement_);
    std::swap(alloc_, other.alloc_);
    std::swap(keep_alive_, other.keep_alive_);
  }

 private:
  // Owned memory for `n` elements: zero-filled (kZero) or possibly recycled (kAny).
  NumaArray(std::size_t n, numa::Placement placement, numa::PageSize pages, numa::Fill fill)
      : size_(n), placement_(std::move(placement)) {
    alloc_ = numa::allocate(n * sizeof(T), placement_, pages, sizeof(T), fill);
    data_ = static_cast<T*>(alloc_.data);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  numa::Placement placement_{};
  numa::Allocation alloc_{};
  std::shared_ptr<const void> keep_alive_;
};

}  // namespace numagraph
