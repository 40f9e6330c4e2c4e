// Fuzz target: synthetic topology strings ("pack:4 numa:1 core:2 pu:1
// distances=10,20/20,10"), as --topology and NUMAGRAPH_TOPOLOGY take them.
#include <string>

#include "fuzz_util.hpp"
#include "numagraph/numa/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 256) return 0;  // descriptions are short; long ones only cost time
  const std::string spec(reinterpret_cast<const char*>(data), size);
  if (spec.find(".xml") != std::string::npos) return 0;  // a file name, not a description
  numagraph::fuzz::run([&] {
    const numagraph::numa::Topology t = numagraph::numa::Topology::select(spec.empty() ? std::string("pu:1") : spec);
    NUMAGRAPH_FUZZ_CHECK(t.num_nodes() >= 1);
    (void)t.summary();
  });
  return 0;
}
