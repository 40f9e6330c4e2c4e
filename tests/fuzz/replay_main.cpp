// A main() for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput
// on every file named on the command line or found in a named directory, so
// ctest replays the committed corpus (seeds and every crash found) in the
// ordinary build. Prints PASS when all inputs ran.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
int run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) inputs += run_file(e.path());
    } else {
      inputs += run_file(p);
    }
  }
  std::printf("PASS: %d inputs\n", inputs);
  return 0;
}
