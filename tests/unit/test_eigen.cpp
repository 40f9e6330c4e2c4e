// Eigenvector and Katz centrality: small graphs with known answers (32- and
// 64-bit ids), Kronecker graphs against a serial transcription of NetworkX's
// loops (same iterations, values to 1e-12), the tiled sweep against the
// plain one, non-convergence, the verifier rejecting corrupted results, and
// the engine variant equal to the flat kernel on 1, 2, 4 and 8 synthetic
// nodes, in both modes, with accounting (no remote random access in kNuma).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/engine/layout.hpp"
#include "numagraph/engine/partitioned_graph.hpp"
#include "numagraph/kernels/eigen/centrality.hpp"
#include "numagraph/verify/eigen.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// NetworkX's loops, serially: x[nbr] += xlast[n] * w over every arc n -> nbr.
struct Reference {
  std::vector<double> x;
  int iterations = 0;
};

template <typename G>
Reference networkx_loops(const G& g, const kernels::PowerIteration& p) {
  using V = typename G::vertex_type;
  const std::int64_t n = g.num_vertices();
  Reference r;
  r.x.assign(static_cast<std::size_t>(n), p.start(n));
  for (int it = 0; it < p.max_iterations; ++it) {
    const std::vector<double> last = r.x;
    const bool katz = p.rule == kernels::PowerRule::kKatz;
    if (katz) std::fill(r.x.begin(), r.x.end(), 0.0);
    for (std::int64_t u = 0; u < n; ++u) {
      const auto nb = g.out_neighbors(static_cast<V>(u));
      for (std::size_t j = 0; j < nb.size(); ++j)
        r.x[nb[j]] += last[u] * (p.weighted ? g.out_weights(static_cast<V>(u))[j] : 1.0);
    }
    double squares = 0;
    for (auto& v : r.x) {
      if (katz) v = p.alpha * v + p.beta;
      squares += v * v;
    }
    if (!katz)
      for (auto& v : r.x) v /= std::sqrt(squares);
    double change = 0;
    for (std::int64_t v = 0; v < n; ++v) change += std::fabs(r.x[v] - last[v]);
    r.iterations = it + 1;
    if (change < p.stop_limit(n)) break;
  }
  if (p.rule == kernels::PowerRule::kKatz && p.normalized) {
    double squares = 0;
    for (const double v : r.x) squares += v * v;
    for (auto& v : r.x) v /= std::sqrt(squares);
  }
  return r;
}

double max_difference(const NumaArray<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < b.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

double max_difference(const NumaArray<double>& a, const NumaArray<double>& b) {
  return max_difference(a, std::vector<double>(b.begin(), b.end()));
}

template <typename G>
engine::Layout layout_for(const G& g, int nodes, int threads) {
  return engine::Layout::make(nodes, engine::Layout::node_major(nodes, threads), g.num_vertices(),
                              g.in_arrays().offsets.data());
}

// Half of 1 / (largest in-weight sum), a bound on the spectral radius: Katz converges.
template <typename G>
double safe_alpha(const G& g, bool weighted) {
  double largest = 1;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    double sum = 0;
    const auto& in = g.in_arrays();
    for (eid_t j = in.offsets[v]; j < in.offsets[v + 1]; ++j) sum += weighted ? in.weights[j] : 1.0;
    largest = std::max(largest, sum);
  }
  return 0.5 / largest;
}

class EigenIds : public ::testing::TestWithParam<bool> {};

TEST_P(EigenIds, KnownAnswers) {
  // K4: every vertex 1/2.
  const AnyGraph k4 = make_graph({{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, 4, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        const auto r = eigenvector_centrality(g);
        for (std::size_t v = 0; v < 4; ++v) EXPECT_NEAR(r.values[v], 0.5, 1e-9);
        EXPECT_TRUE(r.converged);
        EXPECT_NEAR(r.eigenvalue, 3.0, 1e-6);
      },
      k4);
  // Directed path 0 -> 1 -> 2, Katz unnormalized: 1, 1 + a, 1 + a + a^2.
  const AnyGraph path = make_graph({{0, 1}, {1, 2}}, 3, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        KatzOptions o;
        o.normalized = false;
        const auto r = katz_centrality(g, o);
        EXPECT_DOUBLE_EQ(r.values[0], 1.0);
        EXPECT_DOUBLE_EQ(r.values[1], 1.1);
        EXPECT_NEAR(r.values[2], 1.11, 1e-15);
        EXPECT_EQ(r.iterations, 4);  // the fourth moves nothing
      },
      path);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, EigenIds, ::testing::Values(false, true));

TEST(EigenFlat, MatchesNetworkXLoopsOnKronecker) {
  for (const bool directed : {false, true})
    for (const bool weighted : {false, true}) {
      const AnyGraph any = make_kron(10, directed, false, weighted);
      const auto& g = std::get<Graph32>(any);
      EigenvectorOptions eo;
      eo.use_weights = weighted;
      eo.max_iterations = 1000;
      KatzOptions ko;
      ko.alpha = safe_alpha(g, weighted);
      ko.use_weights = weighted;
      for (const bool katz : {false, true}) {
        const auto p = katz ? kernels::power_iteration_of(g, ko) : kernels::power_iteration_of(g, eo);
        const Reference ref = networkx_loops(g, p);
        const auto r = katz ? katz_centrality(g, ko) : eigenvector_centrality(g, eo);
        const std::string what = std::string(katz ? "katz" : "eigenvector") + (directed ? " directed" : "") +
                                 (weighted ? " weighted" : "");
        EXPECT_EQ(r.iterations, ref.iterations) << what;
        EXPECT_LT(max_difference(r.values, ref.x), 1e-12) << what;
        const auto v = katz ? verify::katz_centrality(g, ko, r.values.data())
                            : verify::eigenvector_centrality(g, eo, r.values.data());
        EXPECT_TRUE(v.ok) << what << ": " << v.message;
      }
    }
}

TEST(EigenFlat, TiledSweepEqualsPlainSweep) {
  const AnyGraph any = make_kron(12, false, false);
  const auto& g = std::get<Graph32>(any);
  EigenvectorOptions plain, tiled;
  plain.cache_block_bytes = 0;
  tiled.cache_block_bytes = 4096;  // 512 values per column range
  const auto a = eigenvector_centrality(g, plain), b = eigenvector_centrality(g, tiled);
  EXPECT_EQ(a.cache_segments, 1);
  EXPECT_GT(b.cache_segments, 1);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_LT(max_difference(a.values, b.values), 1e-12);
}

TEST(EigenFlat, NonConvergenceThrowsOrReports) {
  const AnyGraph any = make_kron(8, false, false);
  const auto& g = std::get<Graph32>(any);
  KatzOptions o;
  o.alpha = 0.5;  // far above 1 / largest eigenvalue: diverges
  try {
    katz_centrality(g, o);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("raise --max-iterations or --tolerance"), std::string::npos) << e.what();
  }
  o.require_convergence = false;
  EXPECT_FALSE(katz_centrality(g, o).converged);
  EigenvectorOptions eo;
  eo.max_iterations = 1;
  EXPECT_THROW(eigenvector_centrality(g, eo), UsageError);
  eo.max_iterations = -1;
  EXPECT_THROW(eigenvector_centrality(g, eo), UsageError);
}

TEST(EigenVerify, RejectsCorruptedResults) {
  const AnyGraph any = make_kron(9, false, false);
  const auto& g = std::get<Graph32>(any);
  const EigenvectorOptions eo;
  auto r = eigenvector_centrality(g, eo);
  ASSERT_TRUE(verify::eigenvector_centrality(g, eo, r.values.data()).ok);
  const auto x = std::vector<double>(r.values.begin(), r.values.end());
  auto negative = x;
  negative[3] = -negative[3];
  EXPECT_NE(verify::eigenvector_centrality(g, eo, negative.data()).message.find("has centrality"), std::string::npos);
  auto longer = x;
  longer[3] *= 1.5;
  EXPECT_NE(verify::eigenvector_centrality(g, eo, longer.data()).message.find("L2 norm"), std::string::npos);
  auto swapped = x;  // norm 1, but the largest and smallest entries exchanged
  std::iter_swap(std::max_element(swapped.begin(), swapped.end()), std::min_element(swapped.begin(), swapped.end()));
  const auto bad = verify::eigenvector_centrality(g, eo, swapped.data());
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("lambda"), std::string::npos) << bad.message;

  for (const bool normalized : {false, true}) {
    KatzOptions ko;
    ko.alpha = 0.01;
    ko.normalized = normalized;
    const auto k = katz_centrality(g, ko);
    ASSERT_TRUE(verify::katz_centrality(g, ko, k.values.data()).ok);
    auto y = std::vector<double>(k.values.begin(), k.values.end());
    std::iter_swap(std::max_element(y.begin(), y.end()), std::min_element(y.begin(), y.end()));
    const auto v = verify::katz_centrality(g, ko, y.data());
    EXPECT_FALSE(v.ok) << normalized;
    EXPECT_NE(v.message.find("alpha A^T x"), std::string::npos) << v.message;
  }
}

TEST(EigenEngine, EqualsFlatOnSyntheticNodes) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(12, directed, false, directed);
    const auto& g = std::get<Graph32>(any);
    EigenvectorOptions eo;
    eo.max_iterations = 1000;
    KatzOptions ko;
    ko.alpha = safe_alpha(g, directed);
    for (const bool katz : {false, true}) {
      const auto p = katz ? kernels::power_iteration_of(g, ko) : kernels::power_iteration_of(g, eo);
      const auto flat = kernels::power_iteration_pull(g, p);
      ASSERT_TRUE(flat.converged);
      for (int nodes : {1, 2, 4, 8}) {
        const int threads = std::max(nodes, 2);
        const engine::PartitionedGraph<std::uint32_t> pg(g, layout_for(g, nodes, threads),
                                                         {.push = false, .out = false});
        for (const auto mode : {engine::EngineMode::kNuma, engine::EngineMode::kShared}) {
          const std::string what = std::string(katz ? "katz " : "eigenvector ") + (directed ? "directed " : "") +
                                   std::to_string(nodes) + " nodes, " + engine::to_string(mode);
          engine::NoAccounting none;
          const auto r = kernels::power_iteration_numa(pg, p, mode, none);
          EXPECT_EQ(r.iterations, flat.iterations) << what;
          EXPECT_LE(max_difference(r.values, flat.values), 1e-9) << what;
          engine::Accounting acc(pg.layout());
          const auto counted = kernels::power_iteration_numa(pg, p, mode, acc);
          EXPECT_LE(max_difference(counted.values, flat.values), 1e-9) << what;
          const auto t = acc.total();
          EXPECT_GT(t.total(), 0);
          // Every random read is of the node's own replica in kNuma mode.
          if (mode == engine::EngineMode::kNuma) {
            EXPECT_EQ(t.remote_random, 0) << what;
          } else if (nodes > 1) {
            EXPECT_GT(t.remote_random, 0) << what;
          }
        }
      }
    }
  }
}

TEST(EigenEntry, RefusalsEmptyGraphAndEngineChoice) {
  const AnyGraph no_in_edges = make_graph({{0, 1}, {1, 2}}, 3, true, false, WeightKind::kNone, false);
  EXPECT_THROW(eigenvector_centrality(std::get<Graph32>(no_in_edges)), UsageError);
  const AnyGraph empty = make_graph({}, 0, false, false);
  EXPECT_EQ(eigenvector_centrality(std::get<Graph32>(empty)).values.size(), 0u);
  const AnyGraph any = make_kron(9, false, false);
  const auto& g = std::get<Graph32>(any);
  Execution numa;
  numa.engine = EngineChoice::kNuma;
  const auto a = katz_centrality(g, KatzOptions{.alpha = 0.01}), b = katz_centrality(g, KatzOptions{.alpha = 0.01}, numa);
  EXPECT_TRUE(b.ran.numa);
  EXPECT_LE(max_difference(a.values, b.values), 1e-9);
}

}  // namespace
