// Fuzz target: gapbs serialized graphs (.sg, .wsg). The first byte picks one.
#include "fuzz_util.hpp"
#include "numagraph/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string path = numagraph::fuzz::input_file(data + 1, size - 1, data[0] & 1 ? ".wsg" : ".sg");
  numagraph::fuzz::run([&] { numagraph::fuzz::check_any(numagraph::load_graph(path)); });
  return 0;
}
