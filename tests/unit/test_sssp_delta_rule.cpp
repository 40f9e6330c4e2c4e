// choose_delta (kernels/sssp/delta_rule.hpp): the rule's values on hand-made
// summaries and on generated graphs of each class, its floor at the lightest
// weight, equal-weight, unweighted and edgeless graphs, and delta-stepping at
// the chosen delta against Dijkstra.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernels/sssp/delta_rule.hpp"
#include "numagraph/kernels/sssp/delta_stepping.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/verify/sssp.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

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
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(plain)), 32);
  const AnyGraph empty = make_graph({}, 5, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(empty)), 1);
  // Weighted Kronecker (weights 1..255, d about 14 at edge factor 8): a few mean weights' hundredths.
  const AnyGraph kron = make_kron(12, false, false, true);
  const double dk = kernels::choose_delta(std::get<Graph32>(kron));
  EXPECT_GE(dk, 1);
  EXPECT_LT(dk, 20);
  // A weighted grid (d just under 4): wider than its mean weight.
  GeneratorOptions o;
  o.scale = 12;
  o.weighted = true;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  const AnyGraph grid = build_graph(generate_grid(o), b);
  const auto& gg = std::get<Graph32>(grid);
  EXPECT_GT(kernels::choose_delta(gg), kernels::default_delta(gg));
  // A path with weights 10, 20, 30 (directed, d = 0.75 -> 1): 87 * mean 20.
  const AnyGraph path = make_graph({{0, 1, 10}, {1, 2, 20}, {2, 3, 30}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(path)), 87 * 20.0);
  // Zero weights alongside positive ones: the floor is the lightest positive one.
  const AnyGraph zeros = make_graph({{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {0, 2, 4}}, 3, true, false, WeightKind::kInteger);
  EXPECT_GE(kernels::choose_delta(std::get<Graph32>(zeros)), 4);
  const AnyGraph all_zero = make_graph({{0, 1, 0}, {1, 2, 0}}, 3, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(all_zero)), 1);
}

TEST(DeltaRule, EqualWeightsGetThirtyTwoLevelsABucket) {
  // Every arc 5 (a cycle, d = 1): 32 * 5, where the fit would give 87 * 5.
  const AnyGraph fives = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(fives)), 32 * 5.0);
  // Real weights, all 0.25, on a denser graph (d 3 with both directions): 8.
  const AnyGraph quarters = make_graph({{0, 1, 0.25}, {0, 2, 0.25}, {0, 3, 0.25}, {1, 2, 0.25}, {1, 3, 0.25},
                                        {2, 3, 0.25}},
                                       4, false, false, WeightKind::kReal);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(quarters)), 8);
  // One arc off the common weight, or a zero beside it: the fit, as for any weights.
  const AnyGraph one_off = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 5}, {3, 0, 6}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(one_off)), 87 * 5.25);
  const AnyGraph with_zero = make_graph({{0, 1, 5}, {1, 2, 5}, {2, 3, 0}, {3, 0, 5}}, 4, true, false, WeightKind::kInteger);
  EXPECT_DOUBLE_EQ(kernels::choose_delta(std::get<Graph32>(with_zero)), 87 * 3.75);
}

TEST(DeltaRule, SearchAtTheChosenDeltaIsExact) {
  // Weighted Kronecker graphs (the fit) and unweighted ones (32 levels a bucket).
  for (const bool weighted : {true, false})
    for (const bool directed : {false, true}) {
      const AnyGraph any = make_kron(11, directed, false, weighted);
      const auto& g = std::get<Graph32>(any);
      const double delta = kernels::choose_delta(g);
      for (const std::uint32_t root : {0u, 17u, 1000u}) {
        const auto dist = kernels::sssp_delta_stepping(g, root, delta);
        EXPECT_TRUE(verify::sssp(g, root, dist.data()).ok) << "root " << root << ", delta " << delta;
      }
    }
  // An unweighted grid: hundreds of levels, 32 to a bucket, on 1 to 3 threads.
  GeneratorOptions o;
  o.scale = 12;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  const AnyGraph any = build_graph(generate_grid(o), b);
  const auto& g = std::get<Graph32>(any);
  const double delta = kernels::choose_delta(g);
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
