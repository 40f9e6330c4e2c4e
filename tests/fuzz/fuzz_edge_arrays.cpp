// Fuzz target: the builder behind the Python array constructors
// (Graph.from_edges, from_scipy, from_networkx all end in build_graph). The
// input is decoded into what Python hands over: a flags byte (directed,
// self-loops, dedupe, relabel mode, weights, declared count), an optional
// declared vertex count, then edges as (src, dst[, weight]) records whose ids
// are mostly small and sometimes anywhere in 0..2^64-1.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_util.hpp"
#include "numagraph/graph/builder.hpp"

namespace {

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  bool done() const { return p_ >= end_; }
  std::uint8_t byte() { return done() ? 0 : *p_++; }
  template <typename T>
  T raw() {
    T v{};
    const std::size_t k = std::min<std::size_t>(sizeof(T), static_cast<std::size_t>(end_ - p_));
    std::memcpy(&v, p_, k);
    p_ += k;
    return v;
  }
  // A vertex id: one byte (0..127) most of the time, else a full 64-bit value.
  std::uint64_t id() {
    const std::uint8_t b = byte();
    return b & 0x80 ? raw<std::uint64_t>() : b;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Declared counts are cheap to write and costly to build: a smaller memory
  // budget than the readers' keeps each input fast and still hits the guard.
  static const bool budget = [] { return setenv("NUMAGRAPH_MEMORY_LIMIT", "16M", 0) == 0; }();
  (void)budget;
  if (size < 1) return 0;
  Reader in(data, size);
  const std::uint8_t flags = in.byte();
  numagraph::BuildOptions build;
  build.symmetrize = !(flags & 1);  // Python: directed=False symmetrizes
  build.drop_self_loops = flags & 2;
  build.dedupe = flags & 4;
  build.relabel = (flags >> 3 & 3) == 0   ? numagraph::Relabel::kOff
                  : (flags >> 3 & 3) == 1 ? numagraph::Relabel::kOn
                                          : numagraph::Relabel::kAuto;
  const bool weighted = flags & 0x20, integer = flags & 0x40, declared = flags & 0x80;
  std::optional<std::uint64_t> num_vertices;
  if (declared) num_vertices = in.id();

  std::vector<std::uint64_t> src, dst;
  std::vector<float> w;
  while (!in.done() && src.size() < 4096) {
    src.push_back(in.id());
    dst.push_back(in.id());
    if (weighted) w.push_back(in.raw<float>());
  }
  numagraph::EdgeList e;
  e.src = numagraph::NumaArray<std::uint64_t>(src.size());
  e.dst = numagraph::NumaArray<std::uint64_t>(dst.size());
  std::copy(src.begin(), src.end(), e.src.begin());
  std::copy(dst.begin(), dst.end(), e.dst.begin());
  if (weighted) {
    e.weights = numagraph::NumaArray<numagraph::weight_t>(w.size());
    std::copy(w.begin(), w.end(), e.weights.begin());
    e.weight_kind = integer ? numagraph::WeightKind::kInteger : numagraph::WeightKind::kReal;
  }
  e.num_vertices = num_vertices;
  e.source_name = "arrays";
  numagraph::fuzz::run([&] {
    numagraph::BuildReport report;
    const numagraph::AnyGraph g = numagraph::build_graph(std::move(e), build, &report);
    numagraph::fuzz::check_any(g);
    numagraph::visit(
        [&](const auto& graph) {
          if (num_vertices && build.relabel == numagraph::Relabel::kOff)
            NUMAGRAPH_FUZZ_CHECK(static_cast<std::uint64_t>(graph.num_vertices()) == *num_vertices);
        },
        g);
  });
  return 0;
}
