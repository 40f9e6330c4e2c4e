// Shared pieces of the Python module: the graph handle Python holds, the
// zero-copy hand-over of NumaArray results to NumPy, and the executor that
// runs every long C++ call off the Python thread (GIL released, Ctrl-C
// answered within a polling interval).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/numa/numa_array.hpp"

namespace numagraph::py {

namespace nb = nanobind;

// What Python's numagraph._core.Graph holds. The graph sits behind a
// shared_ptr so a kernel abandoned on Ctrl-C (still running on the worker)
// keeps it alive after Python drops its last reference; so does the
// graph's KernelCache (the state kept between calls), which is touched only
// on the worker thread, where jobs run one at a time.
struct PyGraph {
  std::shared_ptr<const AnyGraph> graph;
  std::string name;
  BuildReport report;
  std::shared_ptr<KernelCache> cache = std::make_shared<KernelCache>();
  // Graphs made by Graph.reorder: what computing the order cost (seconds and
  // flat BFS runs), 0 otherwise.
  double reorder_s = 0;
  double reorder_bfs_equiv = 0;
};

// Result arrays whose NumPy owner died, kept for the next call of the same
// size (at most kMaxArrays arrays, kMaxBytes in all; the oldest go first).
// Why: a fresh result array is faulted in page by page on every call, which
// the CLI's trial loop does not pay (it reuses its arrays); for a BFS on a
// scale-20 graph that was about 10 % of the call. Kernels that accept an
// output array of the right size (BFS, SSSP) take one from here. A recycled
// array keeps the placement and page size it was made with, so config()
// empties the pool.
class ResultPool {
 public:
  static constexpr std::size_t kMaxArrays = 4;
  static constexpr std::size_t kMaxBytes = std::size_t{512} << 20;

  // Which recycled arrays take() may return: any, or only ones partitioned
  // by element count (the NUMA engine's results; see
  // Placement::partitioned_by_count: placed alike under the topology the
  // pool was filled in, and the pool is cleared when the topology changes).
  enum class Want { kAny, kPartitionedByCount };

  // A recycled array of exactly `n` elements (contents undefined), or an
  // empty one.
  template <typename T>
  NumaArray<T> take(std::size_t n, Want want = Want::kAny) {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->type == std::type_index(typeid(T)) && it->size == n &&
          (want == Want::kAny ||
           static_cast<NumaArray<T>*>(it->array.get())->placement().partitioned_by_count())) {
        NumaArray<T> a = std::move(*static_cast<NumaArray<T>*>(it->array.get()));
        bytes_ -= n * sizeof(T);
        entries_.erase(it);
        return a;
      }
    return {};
  }

  // Keeps `a` for a later take(); frees the oldest entries beyond the limits.
  template <typename T>
  void give(NumaArray<T>&& a) {
    const std::size_t bytes = a.size() * sizeof(T);
    // An array placed by role (place=) would carry that placement into a call that did not ask for it.
    if (a.is_view() || bytes == 0 || bytes > kMaxBytes || a.placement().by_role) return;
    std::vector<Entry> freed;  // released after the lock: munmap can be slow
    {
      std::lock_guard lock(mutex_);
      entries_.push_back({std::type_index(typeid(T)), a.size(), std::make_shared<NumaArray<T>>(std::move(a)), sizeof(T)});
      bytes_ += bytes;
      while (entries_.size() > kMaxArrays || bytes_ > kMaxBytes) {
        bytes_ -= entries_.front().bytes();
        freed.push_back(std::move(entries_.front()));
        entries_.erase(entries_.begin());
      }
    }
  }

  void clear() {
    std::vector<Entry> freed;
    std::lock_guard lock(mutex_);
    freed.swap(entries_);
    bytes_ = 0;
  }

 private:
  struct Entry {
    std::type_index type;
    std::size_t size;
    std::shared_ptr<void> array;  // NumaArray<T>
    std::size_t elem = 0;
    std::size_t bytes() const { return size * elem; }
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
  std::size_t bytes_ = 0;
};

ResultPool& result_pool();

// A 1-D NumPy array that takes over `a`: the NumaArray moves into a heap
// object owned by a capsule, so NumPy frees it (and its NUMA pages) when the
// last array referring to it dies -- or hands it to the ResultPool. No copy at
// any point.
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(NumaArray<T>&& a) {
  auto* owned = new NumaArray<T>(std::move(a));
  nb::capsule owner(owned, [](void* p) noexcept {
    auto* arr = static_cast<NumaArray<T>*>(p);
    try {
      result_pool().give(std::move(*arr));
    } catch (...) {  // out of memory for the bookkeeping: just free it
    }
    delete arr;
  });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner);
}

// A read-only 1-D NumPy view of graph memory; `owner` (the Python Graph)
// stays alive as long as the view does.
template <typename T>
nb::ndarray<nb::numpy, const T, nb::ndim<1>> view_numpy(const NumaArray<T>& a, nb::handle owner) {
  return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(a.data(), {a.size()}, owner);
}

// Runs `job` on the single long-lived worker thread with the GIL released
// and waits for it, checking for Python signals every few milliseconds. On
// Ctrl-C the cancel flag is raised (kernels that poll it stop at their next
// iteration); when `abandonable` the call returns to Python at once with
// KeyboardInterrupt even if the kernel does not poll, leaving it to finish in
// the background: such a job must own everything it touches (shared_ptrs,
// no Python memory). Jobs that read Python buffers pass abandonable = false
// and are waited for.
// One worker thread for every call: OpenMP keeps one thread pool per
// launching thread, so the pool, its pinning and its thread count
// (numagraph.config) persist from call to call.
void run_job(std::function<void()> job, bool abandonable = true);

// The graph inside a Python graph argument (raises on a moved-from handle).
inline std::shared_ptr<const AnyGraph> graph_of(const PyGraph& g) {
  if (!g.graph) throw nb::value_error("this Graph is empty (default-constructed): build it with a numagraph constructor");
  return g.graph;
}

// A library message in Python's words: CLI flags become argument names
// ("--engine flat" -> "engine='flat'", "-s (--symmetrize)" -> "directed=False").
std::string python_voice(std::string message);

void bind_graph(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_profile(nb::module_& m);
void bind_progress(nb::module_& m);
void bind_eigen(nb::module_& m);  // kernels_eigen.cpp
void bind_closeness(nb::module_& m);  // kernels_closeness.cpp
void bind_community(nb::module_& m);  // kernels_community.cpp
void bind_paths(nb::module_& m);  // kernels_paths.cpp

}  // namespace numagraph::py
