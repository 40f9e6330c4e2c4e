// Fuzz target: DIMACS shortest-path files (.gr) through the reader and the builder.
#include "fuzz_util.hpp"
#include "numagraph/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = numagraph::fuzz::input_file(data, size, ".gr");
  numagraph::fuzz::run([&] { numagraph::fuzz::check_any(numagraph::load_graph(path)); });
  return 0;
}
