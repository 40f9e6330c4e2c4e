// Runs inside the emulated NUMA machine (../shared/tools/numa-vm): the
// profiler's numastat source sees the pages each placement puts on other
// nodes. For PageRank on a Kronecker graph (graph built and kernel run
// while sampling): first touch with the flat engine (pages land on the
// toucher's node: other_node small), interleave (pages round-robin over the
// nodes: about (nodes-1)/nodes of them other_node), and the NUMA engine over
// partitioned storage, reported per phase without a check: numastat's
// other_node counts pages allocated on a node other than the allocating
// thread's, so under bind-style placement it measures who wrote the pages
// first, not where they lie (move_pages checks that: placement_check.cpp).
// Prints the shares per phase, PASS/FAIL lines, and exits non-zero on a
// failure.
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>

#include "numagraph/execution.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/profile/numastat.hpp"
#include "numagraph/profile/sampler.hpp"

using namespace numagraph;

namespace {

int failed = 0;

void check(bool ok, const std::string& what) {
  std::printf("  %s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  failed += !ok;
}

// The other-node share of the pages allocated while building the graph and
// running PageRank under `placement`, on `engine`.
double other_share(numa::PlacementKind placement, EngineChoice engine, const char* label) {
  numa::RuntimeConfig config;
  config.pages = numa::PageSize::k4K;  // one numastat count per 4 KiB page
  config.placement = placement;
  numa::Runtime::get().configure(config);
  std::vector<std::unique_ptr<profile::Source>> sources;
  sources.push_back(std::make_unique<profile::NumastatSource>());
  profile::Sampler sampler(std::move(sources), {.interval_ms = 10});
  Execution x;
  x.engine = engine;
  x.listener = &sampler;
  sampler.start();
  sampler.begin("build");
  GeneratorOptions gen;
  gen.scale = 15;
  gen.edge_factor = 16;
  EdgeList edges = generate_kronecker(gen);
  edges.undirected = true;
  BuildOptions build;
  build.dedupe = true;
  const Graph32 g = std::get<Graph32>(build_graph(std::move(edges), build));
  sampler.end("build");
  PageRankOptions o;
  o.tolerance = 0;
  o.max_iterations = 5;
  pagerank(g, o, x);
  const profile::Profile p = sampler.stop();
  // Per phase: graph build, engine setup (partitioned copy), the kernel.
  double share = 0;
  std::printf("%s: %zu samples\n", label, p.samples());
  for (std::size_t q = 0; q < p.phases.size(); ++q) {
    const auto totals = p.phase_totals(q);
    double local = 0, other = 0;
    for (std::size_t j = 0; j < p.metrics.size(); ++j) {
      const bool is_local = p.metrics[j].name.ends_with(".local_node");
      const bool is_other = p.metrics[j].name.ends_with(".other_node");
      if ((is_local || is_other) && !std::isnan(totals[j])) (is_local ? local : other) += totals[j];
    }
    const double s = local + other > 0 ? other / (local + other) : 0;
    if (q == 0) share = s;
    std::printf("  %-9s local %6.0f  other %6.0f pages  other-node share %.3f\n", p.phases[q].name.c_str(), local,
                other, s);
  }
  return share;
}

}  // namespace

int main() {
  numa::Runtime::get().configure({});
  const int nodes = numa::Runtime::get().topology().num_nodes();
  std::printf("topology: %s, %d threads\n", numa::Runtime::get().topology().summary().c_str(),
              numa::Runtime::get().threads());
  check(nodes >= 2, "several NUMA nodes (" + std::to_string(nodes) + ")");
  const double first_touch = other_share(numa::PlacementKind::kLocal, EngineChoice::kFlat, "flat, first touch");
  const double interleave = other_share(numa::PlacementKind::kInterleave, EngineChoice::kFlat, "flat, interleave");
  const double engine = other_share(numa::PlacementKind::kPartitioned, EngineChoice::kNuma, "numa engine, partitioned");
  const double spread = static_cast<double>(nodes - 1) / nodes;
  check(interleave > 0.8 * spread, "interleave: other-node share near (nodes-1)/nodes = " + std::to_string(spread));
  check(first_touch < 0.5 * interleave, "first touch: other-node share well below interleave's");
  std::printf("  NOTE NUMA engine, partitioned: other-node share %.3f (pages first written by a thread of "
              "another node)\n", engine);
  std::printf("%d failed\n", failed);
  return failed ? 1 : 0;
}
