// Shortest-path predecessors (kernels/sssp/predecessors.hpp), BFS predecessor
// lists (kernels/bfs/all_predecessors.hpp) and their verifier
// (verify/paths.hpp): hand-drawn graphs with ties and zero-weight plateaus,
// the same array on every engine, topology and vertex order, and each check
// of the verifier catching its corruption.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "numagraph/kernels/bfs/all_predecessors.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/sssp/predecessors.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/verify/paths.hpp"
#include "numagraph/verify/sssp.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

std::vector<std::int64_t> as_vector(const NumaArray<std::int64_t>& a) { return {a.begin(), a.end()}; }

SsspResult sssp_with_paths(const auto& g, auto source, const Execution& x = {}) {
  SsspOptions o;
  o.predecessors = true;
  return numagraph::sssp(g, source, o, x);
}

class PathIds : public ::testing::TestWithParam<bool> {};

// 0 -> 1 (2), 0 -> 2 (1), 2 -> 1 (1): 1 is reached at 2 through 0 and 2; the
// smaller id wins. 3 is reached only through 1; 4 is unreachable.
TEST_P(PathIds, TiesGoToTheSmallestPredecessor) {
  const AnyGraph any = make_graph({{0, 1, 2}, {0, 2, 1}, {2, 1, 1}, {1, 3, 5}, {4, 0, 1}}, 5, true, GetParam(),
                                  WeightKind::kInteger);
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto r = sssp_with_paths(g, V{0});
        EXPECT_EQ(as_vector(r.predecessor), (std::vector<std::int64_t>{0, 0, 0, 1, -1}));
        const auto ok = verify::predecessors(g, V{0}, r.dist.data(), r.predecessor.data(), true);
        EXPECT_TRUE(ok.ok) << ok.message;
        EXPECT_EQ(kernels::path_to(r.predecessor.data(), 3), (std::vector<std::int64_t>{0, 1, 3}));
        EXPECT_TRUE(kernels::path_to(r.predecessor.data(), 4).empty());
        EXPECT_EQ(kernels::path_to(r.predecessor.data(), 0), (std::vector<std::int64_t>{0}));
        EXPECT_EQ(numagraph::sssp(g, V{0}).predecessor.size(), 0u) << "not asked: not computed";
      },
      any);
  // Without in-edges the arcs push their tails with an atomic min: the same answer.
  const AnyGraph out_only = make_graph({{0, 1, 2}, {0, 2, 1}, {2, 1, 1}, {1, 3, 5}, {4, 0, 1}}, 5, true, GetParam(),
                                       WeightKind::kInteger, false);
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        ASSERT_FALSE(g.has_in_edges());
        EXPECT_EQ(as_vector(sssp_with_paths(g, V{0}).predecessor), (std::vector<std::int64_t>{0, 0, 0, 1, -1}));
      },
      out_only);
}

// Zero weights: 1 and 2 are at the same distance and tight to each other both
// ways; 1 < 2, but 1 must not take 2 while 2 takes 1. 2 is settled first
// (through 3), then 1 through 2. The source's zero-weight neighbour 5 too.
TEST_P(PathIds, ZeroWeightPlateausNeverCycle) {
  const AnyGraph any = make_graph({{0, 3, 1}, {3, 2, 0}, {2, 1, 0}, {1, 2, 0}, {0, 5, 0}, {5, 4, 0}, {4, 0, 0}}, 6,
                                  true, GetParam(), WeightKind::kInteger);
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto r = sssp_with_paths(g, V{0});
        EXPECT_EQ(as_vector(r.predecessor), (std::vector<std::int64_t>{0, 2, 3, 0, 5, 0}));
        const auto ok = verify::predecessors(g, V{0}, r.dist.data(), r.predecessor.data(), true);
        EXPECT_TRUE(ok.ok) << ok.message;
      },
      any);
}

// Hop counts from a BFS (a weighted graph searched unweighted) and the
// predecessor lists: every in-neighbour one level above.
TEST_P(PathIds, HopPredecessorsAndListsFromBfsDepths) {
  const AnyGraph any = make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {5, 3}}, 7, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto b = numagraph::bfs(g, V{0});
        const auto pred = kernels::hop_predecessors(g, V{0}, b.depth.data());
        EXPECT_EQ(as_vector(pred), (std::vector<std::int64_t>{0, 0, 0, 1, 3, -1, -1}));
        EXPECT_TRUE(verify::predecessors(g, V{0}, b.depth.data(), pred.data(), false).ok);
        const auto lists = kernels::bfs_all_predecessors(g, b.depth.data());
        EXPECT_EQ(std::vector<eid_t>(lists.offsets.begin(), lists.offsets.end()),
                  (std::vector<eid_t>{0, 0, 1, 2, 4, 5, 5, 5}));
        EXPECT_EQ(as_vector(lists.sources), (std::vector<std::int64_t>{0, 0, 1, 2, 3}));
        const auto ok = verify::predecessor_lists(g, b.depth.data(), lists.offsets.data(), lists.sources.data());
        EXPECT_TRUE(ok.ok) << ok.message;
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(Widths, PathIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? std::string("Ids64") : std::string("Ids32"); });

// A weighted Kronecker graph with weights 0..3 (many ties and zero-weight
// plateaus), undirected.
Graph32 tied_kron(int scale) {
  const AnyGraph any = make_kron(scale, false, false, true);
  const auto& k = std::get<Graph32>(any);
  std::vector<test_graphs::Arc> arcs;
  std::mt19937 rng(7);
  for (std::int64_t u = 0; u < k.num_vertices(); ++u)
    for (std::uint32_t v : k.out_neighbors(static_cast<std::uint32_t>(u)))
      if (static_cast<std::uint32_t>(u) < v) arcs.push_back({static_cast<std::uint64_t>(u), v, static_cast<float>(rng() % 4)});
  return std::get<Graph32>(make_graph(arcs, static_cast<std::uint64_t>(k.num_vertices()), false, false, WeightKind::kInteger));
}

class PathEngines : public ::testing::Test {
 protected:
  void TearDown() override { numa::Runtime::get().configure(numa::RuntimeConfig{}); }
};

// The same predecessors on the flat kernel, the engine on 1, 2, 4 and 8
// synthetic nodes, and a renumbered copy of the graph.
TEST_F(PathEngines, SameArrayOnEveryEngineTopologyAndOrder) {
  const Graph32 g = tied_kron(10);
  std::uint32_t source = 0;
  while (g.out_degree(source) == 0) ++source;
  Execution flat;
  flat.engine = EngineChoice::kFlat;
  const auto base = sssp_with_paths(g, source, flat);
  const auto ok = verify::predecessors(g, source, base.dist.data(), base.predecessor.data(), true);
  ASSERT_TRUE(ok.ok) << ok.message;
  ASSERT_TRUE(verify::sssp(g, source, base.dist.data()).ok);
  for (const int nodes : {1, 2, 4, 8}) {
    numa::RuntimeConfig c;
    c.topology = "pack:" + std::to_string(nodes) + " numa:1 core:2 pu:1";
    numa::Runtime::get().configure(c);
    Execution numa;
    numa.engine = EngineChoice::kNuma;
    EXPECT_EQ(as_vector(sssp_with_paths(g, source, numa).predecessor), as_vector(base.predecessor)) << nodes << " nodes";
  }
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  const auto n = static_cast<std::size_t>(g.num_vertices());
  NumaArray<std::uint32_t> old_of_new(n);
  for (std::size_t i = 0; i < n; ++i) old_of_new[i] = static_cast<std::uint32_t>(n - 1 - i);
  const Graph32 reversed =
      reorder::apply_permutation(g, reorder::Permutation<std::uint32_t>::from_old_of_new(std::move(old_of_new)));
  EXPECT_EQ(as_vector(sssp_with_paths(reversed, source, flat).predecessor), as_vector(base.predecessor))
      << "a renumbered graph answers in the caller's ids";
}

// --- The verifier: one corruption per check ---

struct Corrupted : ::testing::Test {
  // 0 -> 1 (1), 1 -> 2 (1), 0 -> 2 (5), 2 -> 3 (1); 4 unreachable.
  AnyGraph any = make_graph({{0, 1, 1}, {1, 2, 1}, {0, 2, 5}, {2, 3, 1}}, 5, true, false, WeightKind::kInteger);
  const Graph32& g = std::get<Graph32>(any);
  std::vector<double> dist{0, 1, 2, 3, kernels::kUnreachable};
  std::vector<std::int64_t> pred{0, 0, 1, 2, -1};
  std::string check() {
    const auto r = verify::predecessors(g, 0u, dist.data(), pred.data(), true);
    return r.ok ? "ok" : r.message;
  }
};

TEST_F(Corrupted, AcceptsTheTruth) { EXPECT_EQ(check(), "ok"); }

TEST_F(Corrupted, SourceNotItsOwn) {
  pred[0] = 1;
  EXPECT_NE(check().find("must be its own predecessor"), std::string::npos) << check();
}

TEST_F(Corrupted, PredecessorWithoutDistance) {
  pred[4] = 3;
  EXPECT_NE(check().find("has a predecessor but no distance"), std::string::npos) << check();
}

TEST_F(Corrupted, DistanceWithoutPredecessor) {
  pred[3] = -1;
  EXPECT_NE(check().find("has a distance but no predecessor"), std::string::npos) << check();
}

TEST_F(Corrupted, ArcThatIsNotTight) {
  pred[2] = 0;  // 0 -> 2 weighs 5
  EXPECT_NE(check().find("predecessor arc 0 -> 2"), std::string::npos) << check();
}

TEST_F(Corrupted, ArcThatDoesNotExist) {
  pred[3] = 1;  // no arc 1 -> 3
  EXPECT_NE(check().find("predecessor arc 1 -> 3"), std::string::npos) << check();
}

TEST_F(Corrupted, OwnPredecessor) {
  pred[2] = 2;
  EXPECT_NE(check().find("is its own predecessor but is not the source"), std::string::npos) << check();
}

TEST_F(Corrupted, Cycle) {
  // 1 <-> 2 at equal distance with zero weights: tight both ways, a cycle.
  AnyGraph z = make_graph({{0, 1, 1}, {1, 2, 0}, {2, 1, 0}}, 3, true, false, WeightKind::kInteger);
  const auto& zg = std::get<Graph32>(z);
  const std::vector<double> d{0, 1, 1};
  const std::vector<std::int64_t> p{0, 2, 1};
  const auto r = verify::predecessors(zg, 0u, d.data(), p.data(), true);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("cycles"), std::string::npos) << r.message;
}

TEST_F(Corrupted, ListsMissingOrWrong) {
  const std::vector<std::int32_t> depth{0, 1, 2, 3, -1};
  const std::vector<eid_t> offsets{0, 0, 1, 2, 3, 3};
  std::vector<std::int64_t> sources{0, 1, 2};
  auto check_lists = [&](const std::vector<eid_t>& off) {
    const auto r = verify::predecessor_lists(g, depth.data(), off.data(), sources.data());
    return r.ok ? std::string("ok") : r.message;
  };
  // depth 2 at vertex 2 has in-neighbours 1 (depth 1) and 0 (depth 0): only 1 is listed.
  EXPECT_EQ(check_lists(offsets), "ok");
  sources[1] = 0;
  EXPECT_NE(check_lists(offsets).find("is listed as a predecessor of 2"), std::string::npos);
  sources[1] = 1;
  EXPECT_NE(check_lists({0, 0, 1, 1, 2, 2}).find("predecessors listed but 1"), std::string::npos);
}

}  // namespace
