// The vertex orders and the renumbering, instantiated once for both id
// widths; the headers declare these instances extern so that the commands,
// bindings and tests that include them do not compile them again.
#include <cstdint>

#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"

namespace numagraph::reorder {

template Permutation<std::uint32_t> compute_order(const CSRGraph<std::uint32_t>&, const Spec&, OrderStats*);
template Permutation<std::uint64_t> compute_order(const CSRGraph<std::uint64_t>&, const Spec&, OrderStats*);
template CSRGraph<std::uint32_t> apply_permutation(const CSRGraph<std::uint32_t>&, const Permutation<std::uint32_t>&);
template CSRGraph<std::uint64_t> apply_permutation(const CSRGraph<std::uint64_t>&, const Permutation<std::uint64_t>&);

}  // namespace numagraph::reorder
