// The one adapter between numagraph and its threading runtime (OpenMP).
// Kernels call these helpers instead of writing pragmas for the common
// patterns, so a change of runtime touches one file. Kernels may still use
// `#pragma omp` directly for loops whose schedule matters.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace numagraph::parallel {

inline constexpr std::size_t kCacheLine = 64;

inline int max_threads() { return omp_get_max_threads(); }
inline int thread_id() { return omp_get_thread_num(); }
inline int num_threads_in_region() { return omp_get_num_threads(); }

// Sets the number of threads later parallel regions use (0 = leave as is).
inline void set_threads(int threads) {
  if (threads > 0) omp_set_num_threads(threads);
}

// Static block schedule: thread t gets one contiguous range. Use for loops of
// even cost over arrays that were first-touched with the same schedule.
template <typename I, typename F>
void for_static(I begin, I end, F&& body) {
#pragma omp parallel for schedule(static)
  for (I i = begin; i < end; ++i) body(i);
}

// Dynamic schedule in chunks: loops whose per-iteration cost varies (degree).
template <typename I, typename F>
void for_dynamic(I begin, I end, F&& body, I chunk = 64) {
#pragma omp parallel for schedule(dynamic, chunk)
  for (I i = begin; i < end; ++i) body(i);
}

template <typename T, typename I, typename F>
T sum(I begin, I end, F&& value) {
  T total{};
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (I i = begin; i < end; ++i) total += value(i);
  return total;
}

// Atomics on plain array elements (std::atomic_ref: works for integers and
// floating point alike; relaxed order, as graph kernels synchronise at barriers).
template <typename T>
bool compare_and_swap(T& target, T expected, T desired) {
  return std::atomic_ref<T>(target).compare_exchange_strong(expected, desired,
                                                            std::memory_order_relaxed);
}

// A relaxed atomic read of an element other threads may be writing with the
// atomics above (a plain load on x86; without it the read is a data race).
template <typename T>
[[gnu::always_inline]] inline T load_relaxed(const T& source) {
  return std::atomic_ref<T>(const_cast<T&>(source)).load(std::memory_order_relaxed);
}

template <typename T>
T fetch_add(T& target, T delta) {
  return std::atomic_ref<T>(target).fetch_add(delta, std::memory_order_relaxed);
}

// Atomically lowers `target` to `value` if smaller; returns true if it did.
// Always inlined: it sits in the innermost loop of delta-stepping.
template <typename T>
[[gnu::always_inline]] inline bool write_min(T& target, T value) {
  std::atomic_ref<T> ref(target);
  T current = ref.load(std::memory_order_relaxed);
  while (value < current) {
    if (ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) return true;
  }
  return false;
}

// A value padded to its own cache line so per-thread counters do not share lines.
template <typename T>
struct alignas(kCacheLine) Padded {
  T value{};
};

// One padded slot per thread (sized for max_threads() at construction).
template <typename T>
class PerThread {
 public:
  PerThread() : slots_(static_cast<std::size_t>(max_threads())) {}
  explicit PerThread(int threads) : slots_(static_cast<std::size_t>(threads)) {}
  T& local() { return slots_[static_cast<std::size_t>(thread_id())].value; }
  T& operator[](std::size_t i) { return slots_[i].value; }
  const T& operator[](std::size_t i) const { return slots_[i].value; }
  std::size_t size() const { return slots_.size(); }

 private:
  std::vector<Padded<T>> slots_;
};

// Exclusive prefix sum of `in[0..n)` into `out[0..n]` (out[n] = total), in
// parallel with two passes over per-thread blocks. `out` may alias `in`.
template <typename In, typename Out>
void exclusive_prefix_sum(const In* in, Out* out, std::int64_t n) {
  const int threads = max_threads();
  std::vector<Out> block_sums(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = thread_id();
    const int nt = num_threads_in_region();
    const std::int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    Out local = 0;
    for (std::int64_t i = lo; i < hi; ++i) local += static_cast<Out>(in[i]);
    block_sums[static_cast<std::size_t>(t) + 1] = local;
#pragma omp barrier
#pragma omp single
    for (int i = 1; i <= nt; ++i) block_sums[i] += block_sums[i - 1];
    Out running = block_sums[static_cast<std::size_t>(t)];
    for (std::int64_t i = lo; i < hi; ++i) {
      const Out v = static_cast<Out>(in[i]);
      out[i] = running;
      running += v;
    }
    if (t == nt - 1) out[n] = running;
  }
  if (n == 0) out[0] = 0;
}

}  // namespace numagraph::parallel
