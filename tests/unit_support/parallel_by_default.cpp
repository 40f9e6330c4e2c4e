// Linked into every unit_tests build, whichever test files a filter selects
// (NUMAGRAPH_UNIT_FILTER): the tests run their kernels on every thread of the
// pool, however small the graph, unless a test sets NUMAGRAPH_SERIAL_BELOW
// itself. Without this, a test of a parallel variant on a small graph would
// silently run on one thread (kernels/thread_budget.hpp).
#include <cstdlib>

namespace {
[[maybe_unused]] const bool kSerialCutoffsOff = [] {
  return ::setenv("NUMAGRAPH_SERIAL_BELOW", "0", /*overwrite=*/0) == 0;
}();
}  // namespace
