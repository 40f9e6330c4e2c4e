// A renumbering of a graph's vertices: old_of_new[i] is the id, in the graph
// it was made from, of vertex i of the renumbered graph; new_of_old is its
// inverse. Empty arrays mean the identity.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::reorder {

template <typename V>
struct Permutation {
  NumaArray<V> old_of_new;
  NumaArray<V> new_of_old;

  bool identity() const { return old_of_new.empty(); }
  std::size_t size() const { return old_of_new.size(); }
  V to_new(V old_id) const { return identity() ? old_id : new_of_old[old_id]; }
  V to_old(V new_id) const { return identity() ? new_id : old_of_new[new_id]; }

  // Takes old_of_new and computes the inverse; refuses (InputError naming
  // `source`) an array that is not a permutation of 0..n-1. `serial`: no
  // parallel region (the serial orders; on a busy machine a region waits for
  // descheduled threads longer than the whole serial inverse takes).
  static Permutation from_old_of_new(NumaArray<V> old_of_new, const std::string& source = "permutation",
                                     bool serial = false) {
    Permutation p;
    const std::size_t n = old_of_new.size();
    p.new_of_old = NumaArray<V>::for_overwrite(n);
    if (serial) std::fill(p.new_of_old.begin(), p.new_of_old.end(), static_cast<V>(n));
    else parallel::for_static(std::size_t{0}, n, [&](std::size_t i) { p.new_of_old[i] = static_cast<V>(n); });
    for (std::size_t i = 0; i < n; ++i) {
      const V o = old_of_new[i];
      if (static_cast<std::size_t>(o) >= n || p.new_of_old[o] != static_cast<V>(n))
        throw InputError(source, 0,
                         "not a permutation of 0.." + std::to_string(n == 0 ? 0 : n - 1) + " (entry " +
                             std::to_string(i) + " is " + std::to_string(o) + "): regenerate it");
      p.new_of_old[o] = static_cast<V>(i);
    }
    p.old_of_new = std::move(old_of_new);
    return p;
  }

  Permutation clone() const {
    Permutation p;
    p.old_of_new = old_of_new.clone();
    p.new_of_old = new_of_old.clone();
    return p;
  }
};

}  // namespace numagraph::reorder
