// Fuzz target: edge lists (.el, .wel, SNAP .txt) through the reader and the
// builder. The first byte picks the format and the build options.
#include "fuzz_util.hpp"
#include "numagraph/graph/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t pick = data[0];
  static const char* const kSuffix[] = {".el", ".wel", ".txt"};
  const std::string path = numagraph::fuzz::input_file(data + 1, size - 1, kSuffix[pick % 3]);
  numagraph::fuzz::run([&] {
    numagraph::BuildOptions b;
    b.symmetrize = pick & 4;
    b.dedupe = pick & 8;
    b.drop_self_loops = pick & 16;
    b.relabel = (pick & 32) ? numagraph::Relabel::kOn : numagraph::Relabel::kAuto;
    numagraph::fuzz::check_any(numagraph::load_graph(path, {}, b));
  });
  return 0;
}
