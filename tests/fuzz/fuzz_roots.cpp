// Fuzz target: --roots files (one user id per line) resolved against a small
// relabelled graph and a small dense one, as bfs, sssp and bc read them.
#include "fuzz_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "roots_cli.hpp"

namespace {
numagraph::AnyGraph small_graph(bool relabel) {
  numagraph::EdgeList e;
  const std::uint64_t src[] = {3, 3, 70, 1000000007}, dst[] = {70, 9, 9, 3};
  e.src = numagraph::NumaArray<std::uint64_t>(4);
  e.dst = numagraph::NumaArray<std::uint64_t>(4);
  for (int i = 0; i < 4; ++i) e.src[i] = relabel ? src[i] : src[i] % 8, e.dst[i] = relabel ? dst[i] : dst[i] % 8;
  numagraph::BuildOptions b;
  b.relabel = relabel ? numagraph::Relabel::kOn : numagraph::Relabel::kOff;
  return numagraph::build_graph(std::move(e), b);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const numagraph::AnyGraph graphs[2] = {small_graph(false), small_graph(true)};
  const std::string path = numagraph::fuzz::input_file(data, size, ".roots");
  for (const auto& any : graphs) {
    numagraph::fuzz::run([&] {
      numagraph::cli::RootOptions r;
      r.roots_file = path;
      numagraph::cli::RunOptions run;
      numagraph::visit(
          [&](const auto& g) {
            for (auto v : numagraph::cli::resolve_roots(g, r, run))
              NUMAGRAPH_FUZZ_CHECK(static_cast<std::int64_t>(v) < g.num_vertices());
          },
          any);
    });
  }
  return 0;
}
