// choose_delta (kernels/sssp/delta_rule.hpp): the rule's values on hand-made
// summaries and on generated graphs of each class, its floor at the lightest
// weight, equal-weight, unweighted and edgeless graphs, its widening with the
// thread count, the thread count numagraph::sssp gives it, and
// delta-stepping at the chosen delta against Dijkstra.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/verify/sssp.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// A 64 x 64 grid (d just under 4), weighted 1..255 or unweighted, ids as generated.
AnyGraph grid12(bool weighted) {
  GeneratorOptions o;
  o.scale = 12;
  o.weighted = weighted;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  return build_graph(generate_grid(o), b);
}

TEST(DeltaRule, SummaryFollowsThePowerOfTheDegree) {
  // Road-like (USA-road-d.NY: mean weight 1293, d 2.78): about 6 mean weights.
  EXPECT_NEAR(kernels::delta_from_summary(1293, 1, 2.78) / 1293, 87 / std::pow(2.78, 2.6), 1e-12);
  EXPECT_GT(kernels::delta_from_summary(1293, 1, 2.78), 4000);
  EXPECT_LT(kernels::delta_from_summary(1293, 1, 2.78), 16000);
  // Mesh (mean 128, d 4): between 1 and 4 mean weights.
  EXPECT_GT(kernels::delta_from_summary(128, 1, 4), 128);
  EXPECT_LT(kernels::delta_from_summary(128, 1, 4), 512);
  // Kronecker / uniform (mean 128, d 30-32): a few units.
  EXPECT_GT(kernels::delta_from_summary(128, 1, 30), 1);
  EXPECT_LT(kernels::delta_from_summary(128, 1, 30), 4);
  // Halving the degree widens the bucket by 2^2.6; doubling the weights doubles it.
  EXPECT_NEAR(kernels::delta_from_summary(100, 0.01, 8) / kernels::delta_from_summary(100, 0.01, 16),
              std::pow(2.0, 2.6), 1e-9);
  EXPECT_NEAR(kernels::delta_from_summary(200, 0.01, 8) / kernels::delta_from_summary(100, 0.01, 8), 2, 1e-12);
}

TEST(DeltaRule, FloorIsTheLightestWeight) {
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(1, 1, 50), 1);      // unit weights, dense
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(128, 7, 64), 7);    // rule below the lightest edge
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(128, 0, 64), 1);    // no positive weight seen: 1
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(3, 0.5, 0.1), 87 * 3.0);  // degree below 1 counts as 1
}

TEST(DeltaRule, GraphsOfEachClass) {
  // Unweighted graphs (searched with weight 1): 32 levels a bucket; edgeless ones: 1.
  const AnyGraph plain = make_kron(8, false, false);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(plain), 2), 32);
  const AnyGraph empty = make_graph({}, 5, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(empty), 2), 1);
  // Weighted Kronecker (weights 1..255, d about 14 at edge factor 8): a few mean weights' hundredths.
  const AnyGraph kron = make_kron(12, false, false, true);
  const double dk = kernels::choose_delta(std::get<Graph32>(kron), 2);
  EXPECT_GE(dk, 1);
  EXPECT_LT(dk, 20);
  // A weighted grid (d just under 4): wider than its mean weight.
  const AnyGraph grid = grid12(true);
  const auto& gg = std::get<Graph32>(grid);
  EXPECT_GT(kernels::choose_delta(gg, 2), kernels::default_delta(gg));
  // A path with weights 10, 20, 30 (directed, d = 0.75 -> 1): 87 * mean 20.
  const AnyGraph path = make_graph({{0, 1, 10}, {1, 2, 20}, {2, 3, 30}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(path), 2), 87 * 20.0);
  // Zero weights alongside positive ones: the floor is the lightest positive one.
  const AnyGraph zeros = make_graph({{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {0, 2, 4}}, 3, true, false, WeightKind::kInteger);
  EXPECT_GE(kernels::choose_delta(std::get<Graph32>(zeros), 2), 4);
  const AnyGraph all_zero = make_graph({{0, 1, 0}, {1, 2, 0}}, 3, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(all_zero), 2), 1);
}

TEST(DeltaRule, EqualWeightsGetThirtyTwoLevelsABucket) {
  // Every arc 5 (a cycle, d = 1): 32 * 5, where the fit would give 87 * 5.
  const AnyGraph fives = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(fives), 2), 32 * 5.0);
  // Real weights, all 0.25, on a denser graph (d 3 with both directions): 8.
  const AnyGraph quarters = make_graph({{0, 1, 0.25}, {0, 2, 0.25}, {0, 3, 0.25}, {1, 2, 0.25}, {1, 3, 0.25},
                                        {2, 3, 0.25}},
                                       4, false, false, WeightKind::kReal);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(quarters), 2), 8);
  // One arc off the common weight, or a zero beside it: the fit, as for any weights.
  const AnyGraph one_off = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 6}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(one_off), 2), 87 * 5.25);
  const AnyGraph with_zero = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 0}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(with_zero), 2), 87 * 3.75);
}

TEST(DeltaRule, WideBucketsWidenWithTheThreads) {
  // Roads (d 2.78) and grids (d 4): buckets of several mean edges, (threads / 2)^(1/6) wider.
  for (const double d : {2.78, 4.0}) {
    const double two = kernels::delta_from_summary(1293, 1, d, 2);
    EXPECT_DOUBLE_EQ(kernels::delta_from_summary(1293, 1, d), two);
    EXPECT_DOUBLE_EQ(kernels::delta_from_summary(1293, 1, d, 1), two);  // never narrower than the fit
    EXPECT_NEAR(kernels::delta_from_summary(1293, 1, d, 16) / two, std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(kernels::delta_from_summary(1293, 1, d, 8) / two, std::cbrt(2.0), 1e-12);
  }
  // Kronecker and uniform degrees: buckets of a fraction of a mean edge stay as fitted.
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(128, 1, 30, 16), kernels::delta_from_summary(128, 1, 30, 2));
  // Degree 6 (fit 0.83 mean edges) stays too; the floor is not widened.
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(128, 1, 6, 64), kernels::delta_from_summary(128, 1, 6, 2));
  EXPECT_DOUBLE_EQ(kernels::delta_from_summary(1, 1, 50, 64), 1);
  // On graphs: a weighted grid widens, equal weights do not.
  const AnyGraph grid = grid12(true);
  const auto& gg = std::get<Graph32>(grid);
  EXPECT_NEAR(kernels::choose_delta(gg, 16) / kernels::choose_delta(gg, 2), std::sqrt(2.0), 1e-12);
  const AnyGraph fives = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(fives), 16), 32 * 5.0);
}

// numagraph::sssp gives the rule the team's size, or one thread for a search
// that starts alone (below SSSP's cut-off), and the search stays exact.
TEST(DeltaRule, EntryPointUsesTheSearchsThreads) {
  const AnyGraph grid = grid12(true);
  const auto& g = std::get<Graph32>(grid);
  const char* old = std::getenv("NUMAGRAPH_SERIAL_BELOW");
  const std::string previous = old ? old : "";
  for (const char* cutoff : {"0", ""}) {  // the team throughout; the table's cut-off (this grid starts alone)
    if (*cutoff) ::setenv("NUMAGRAPH_SERIAL_BELOW", cutoff, 1);
    else ::unsetenv("NUMAGRAPH_SERIAL_BELOW");
    for (const int threads : {2, 8}) {
      const kernels::ThreadLimit limit(threads);
      const auto r = numagraph::sssp(g, std::uint32_t{5});
      EXPECT_DOUBLE_EQ(r.delta, kernels::choose_delta(g, *cutoff ? threads : 1)) << threads << " threads";
      EXPECT_TRUE(verify::sssp(g, std::uint32_t{5}, r.dist.data()).ok) << threads << " threads";
    }
  }
  if (old) ::setenv("NUMAGRAPH_SERIAL_BELOW", previous.c_str(), 1);
  else ::unsetenv("NUMAGRAPH_SERIAL_BELOW");
  EXPECT_GT(kernels::choose_delta(g, 8), kernels::choose_delta(g, 1));
}

// SsspWorkspace::auto_delta reads the weights once per graph and answers
// each thread count as choose_delta does.
TEST(DeltaRule, WorkspaceKeepsTheWeightsFigures) {
  const AnyGraph grid = grid12(true);
  const auto& g = std::get<Graph32>(grid);
  kernels::SsspWorkspace ws;
  EXPECT_FALSE(ws.delta_rule.has_value());
  for (const int threads : {1, 2, 8, 16}) EXPECT_DOUBLE_EQ(ws.auto_delta(g, threads), kernels::choose_delta(g, threads));
  ASSERT_TRUE(ws.delta_rule.has_value());
  EXPECT_DOUBLE_EQ(ws.delta_rule->mean_weight * static_cast<double>(g.num_arcs()),
                   parallel::sum<double>(eid_t{0}, g.num_arcs(), [&](eid_t i) { return double(g.out().weights[i]); }));
  const AnyGraph fives = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  kernels::SsspWorkspace equal;
  EXPECT_DOUBLE_EQ(equal.auto_delta(std::get<Graph32>(fives), 16), 32 * 5.0);
  EXPECT_DOUBLE_EQ(equal.delta_rule->fixed, 32 * 5.0);
}

TEST(DeltaRule, SearchAtTheChosenDeltaIsExact) {
  // Weighted Kronecker graphs (the fit) and unweighted ones (32 levels a bucket).
  for (const bool weighted : {true, false})
    for (const bool directed : {false, true}) {
      const AnyGraph any = make_kron(11, directed, false, weighted);
      const auto& g = std::get<Graph32>(any);
      const double delta = kernels::choose_delta(g, 2);
      for (const std::uint32_t root : {0u, 17u, 1000u}) {
        const auto dist = kernels::sssp_delta_stepping(g, root, delta);
        EXPECT_TRUE(verify::sssp(g, root, dist.data()).ok) << "root " << root << ", delta " << delta;
      }
    }
  // An unweighted grid: hundreds of levels, 32 to a bucket, on 1 to 3 threads.
  const AnyGraph any = grid12(false);
  const auto& g = std::get<Graph32>(any);
  const double delta = kernels::choose_delta(g, 2);
  EXPECT_DOUBLE_EQ(delta, 32);
  for (const int threads : {1, 2, 3}) {
    const kernels::ThreadLimit limit(threads);
    for (const std::uint32_t root : {0u, 2047u}) {
      const auto dist = kernels::sssp_delta_stepping(g, root, delta);
      EXPECT_TRUE(verify::sssp(g, root, dist.data()).ok) << "root " << root << ", " << threads << " threads";
    }
  }
}

}  // namespace
