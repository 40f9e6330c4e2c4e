// Fuzz target: numagraph's .ngr, loaded without the checksum (a fuzzer cannot
// forge it, an attacker can): the structural validation alone must stop every
// graph a kernel would trip on. Loaded graphs are walked arc by arc and
// written back out.
#include "fuzz_util.hpp"
#include "numagraph/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = numagraph::fuzz::input_file(data, size, ".ngr");
  numagraph::fuzz::run([&] {
    numagraph::ReadOptions ro;
    ro.verify_checksum = false;
    numagraph::AnyGraph g = numagraph::load_graph(path, ro);
    numagraph::fuzz::check_any(g);
    numagraph::write_graph(g, path + ".out.ngr");
    numagraph::fuzz::check_any(numagraph::load_graph(path + ".out.ngr"));
  });
  return 0;
}
