// Fuzz target: the gzip decoder (incremental inflate, multi-member streams,
// the ratio and memory guards), read as a gzip-compressed edge list. Inputs
// that do not start with the gzip magic are not gzip: skipped.
#include "fuzz_util.hpp"
#include "numagraph/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) return 0;
  const std::string path = numagraph::fuzz::input_file(data, size, ".el.gz");
  numagraph::fuzz::run([&] { numagraph::fuzz::check_any(numagraph::load_graph(path)); });
  return 0;
}
