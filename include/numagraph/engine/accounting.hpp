// Access accounting: counts the vertex-data and edge reads/writes a kernel run
// makes, split local/remote (under the active Layout: the thread's node vs the
// node that owns the data) and random/sequential (a scan in index order is
// sequential; an access through an edge or a frontier entry is random).
//
// Kernels are templated on the policy: NoAccounting compiles to nothing, so
// the counting costs nothing unless `--account` asks for it.
#pragma once

#include <cstdint>

#include "numagraph/engine/layout.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/record.hpp"

namespace numagraph::engine {

enum class Pattern { kRandom, kSequential };

struct AccessCounts {
  std::int64_t local_random = 0;
  std::int64_t local_sequential = 0;
  std::int64_t remote_random = 0;
  std::int64_t remote_sequential = 0;

  AccessCounts& operator+=(const AccessCounts& o) {
    local_random += o.local_random;
    local_sequential += o.local_sequential;
    remote_random += o.remote_random;
    remote_sequential += o.remote_sequential;
    return *this;
  }
  std::int64_t total() const {
    return local_random + local_sequential + remote_random + remote_sequential;
  }
  profile::Record record() const {
    profile::Record r;
    r.set("local_random", local_random)
        .set("local_sequential", local_sequential)
        .set("remote_random", remote_random)
        .set("remote_sequential", remote_sequential);
    return r;
  }
};

struct NoAccounting {
  static constexpr bool enabled = false;
  void count(int, int, Pattern, std::int64_t = 1) {}
  void count_vertex(int, std::int64_t, Pattern, std::int64_t = 1) {}
};

class Accounting {
 public:
  static constexpr bool enabled = true;
  explicit Accounting(const Layout& layout) : layout_(&layout), counts_(layout.threads) {}

  // `tid` touched `n` items that live on `data_node`.
  void count(int tid, int data_node, Pattern p, std::int64_t n = 1) {
    AccessCounts& c = counts_[static_cast<std::size_t>(tid)];
    const bool local = data_node == layout_->thread_node[static_cast<std::size_t>(tid)];
    if (p == Pattern::kRandom)
      (local ? c.local_random : c.remote_random) += n;
    else
      (local ? c.local_sequential : c.remote_sequential) += n;
  }
  // Same, for vertex data of vertex v (partitioned by the layout's ranges).
  void count_vertex(int tid, std::int64_t v, Pattern p, std::int64_t n = 1) {
    count(tid, layout_->node_of_vertex(v), p, n);
  }

  AccessCounts total() const {
    AccessCounts t;
    for (std::size_t i = 0; i < counts_.size(); ++i) t += counts_[i];
    return t;
  }

 private:
  const Layout* layout_;
  parallel::PerThread<AccessCounts> counts_;
};

}  // namespace numagraph::engine
