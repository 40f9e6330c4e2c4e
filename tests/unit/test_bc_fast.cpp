// The fast Brandes kernels (direction-optimizing, batched, source-parallel) against the serial
// verifier and the push-only kernel: hand-drawn graphs with known scores,
// Kronecker graphs directed and undirected with every direction rule (always
// push, always pull, the default switch), 32- and 64-bit ids, directed graphs
// without in-edges, reused workspaces, batches that do not divide the sources.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "numagraph/kernels/bc/brandes.hpp"
#include "numagraph/kernels/bc/brandes_batched.hpp"
#include "numagraph/kernels/bc/brandes_direction_optimizing.hpp"
#include "numagraph/kernels/bc/brandes_source_parallel.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/numa/machine_resources.hpp"
#include "numagraph/util/cancel.hpp"
#include "numagraph/verify/bc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

template <typename V>
std::vector<V> all_vertices(std::int64_t n) {
  std::vector<V> s;
  for (std::int64_t v = 0; v < n; ++v) s.push_back(static_cast<V>(v));
  return s;
}

template <typename V>
std::vector<V> spread_sources(std::int64_t n, int k) {
  std::vector<V> s;
  for (int i = 0; i < k; ++i) s.push_back(static_cast<V>((static_cast<std::int64_t>(i) * 7919) % n));
  return s;
}

template <typename G, typename V>
void expect_serial(const G& g, const std::vector<V>& sources, const NumaArray<double>& raw, const char* what) {
  const auto expected = verify::serial_brandes(g, sources);
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_NEAR(raw[v], expected[v], 1e-9 * std::max(1.0, std::fabs(expected[v]))) << what << ", vertex " << v;
}

const double kAlphas[] = {0.0, 4.0, 1e12};  // always push, the default switch, pull from level 1 on

// Calls check(g) on Kronecker graphs of 2^scale vertices, undirected and
// directed (and, with without_in_edges, directed without in-edges), with 32-
// and 64-bit ids.
template <typename F>
void for_each_kron(int scale, F check, bool without_in_edges = false) {
  for (const bool directed : {false, true})
    for (const bool in_edges : {true, false}) {
      if (!in_edges && !(directed && without_in_edges)) continue;
      for (const bool force64 : {false, true}) {
        const AnyGraph any = make_kron(scale, directed, force64, false, in_edges);
        numagraph::visit(check, any);
      }
    }
}

template <typename F>
void for_each_kron10(F check) {
  for_each_kron(10, check);
}

// The vertex with the most out-edges (the first of them).
template <typename G>
auto busiest_vertex(const G& g) {
  using V = typename G::vertex_type;
  V hub = 0;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (g.out_degree(static_cast<V>(v)) > g.out_degree(hub)) hub = static_cast<V>(v);
  return hub;
}

// The first vertex with `degree` out-edges (the test fails when there is none).
template <typename G>
auto first_vertex_of_degree(const G& g, eid_t degree) {
  using V = typename G::vertex_type;
  for (std::int64_t v = 0; v < g.num_vertices(); ++v)
    if (g.out_degree(static_cast<V>(v)) == degree) return static_cast<V>(v);
  ADD_FAILURE() << "no vertex of out-degree " << degree;
  return V{0};
}

// fn() on `threads` OpenMP threads; the previous count is restored after.
template <typename F>
void on_threads(int threads, F fn) {
  struct Restore {
    int threads = omp_get_max_threads();
    ~Restore() { omp_set_num_threads(threads); }
  } restore;
  omp_set_num_threads(threads);
  fn();
}

class BcFastIds : public ::testing::TestWithParam<bool> {};

TEST_P(BcFastIds, PathStarAndIsolatedVertex) {
  const AnyGraph any =
      make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 6}, {5, 7}, {5, 8}}, 10, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto sources = all_vertices<V>(g.num_vertices());
        const std::vector<double> expected = {0, 6, 8, 6, 0, 6, 0, 0, 0, 0};
        for (const double alpha : kAlphas) {
          auto raw = kernels::betweenness_brandes_do(g, sources, kernels::BrandesDoOptions{alpha});
          for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "alpha " << alpha;
        }
        for (const int batch : {1, 3, 4, 8}) {
          auto raw = kernels::betweenness_brandes_batched(g, sources, kernels::BrandesBatchedOptions{batch});
          for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "batch " << batch;
        }
      },
      any);
}

TEST_P(BcFastIds, DirectedDiamondSplitsPaths) {
  const AnyGraph any = make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}}, 5, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto sources = all_vertices<V>(g.num_vertices());
        for (const double alpha : kAlphas) {
          auto raw = kernels::betweenness_brandes_do(g, sources, kernels::BrandesDoOptions{alpha});
          expect_serial(g, sources, raw, "direction-optimizing");
          EXPECT_DOUBLE_EQ(raw[1], 1.0);  // 0 ~> 3 and 0 ~> 4 each half through 1
          EXPECT_DOUBLE_EQ(raw[3], 3.0);  // 0, 1, 2 ~> 4
        }
        auto batched = kernels::betweenness_brandes_batched(g, sources);
        expect_serial(g, sources, batched, "batched");
      },
      any);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BcFastIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Ids64" : "Ids32"; });

TEST(BcFast, KroneckerMatchesSerialBrandes) {
  for_each_kron10([](const auto& g) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    const auto sources = spread_sources<V>(g.num_vertices(), 21);
    for (const double alpha : kAlphas) {
      kernels::BrandesDoWorkspace<V> ws;
      NumaArray<double> raw;
      kernels::betweenness_brandes_do(g, sources, raw, ws, kernels::BrandesDoOptions{alpha});
      expect_serial(g, sources, raw, "direction-optimizing");
      // The counts are the last source's: make it the busiest vertex.
      const V hub = busiest_vertex(g);
      kernels::betweenness_brandes_do(g, std::vector<V>{hub}, raw, ws, kernels::BrandesDoOptions{alpha});
      if (alpha > 1e6) {
        EXPECT_GT(ws.pull_levels, 0);
      }
      if (alpha == 0) {
        EXPECT_EQ(ws.pull_levels, 0);
      }
    }
    for (const int batch : {1, 4, 8, 16}) {
      auto raw = kernels::betweenness_brandes_batched(g, sources, kernels::BrandesBatchedOptions{batch});
      expect_serial(g, sources, raw, "batched");
    }
  });
}

TEST(BcFast, KroneckerPullsFromAPackedFrontier) {
  // Every pull packs the frontier's sigma (1), none does (0): the same sums,
  // on team and one-thread levels, with 32- and 64-bit ids.
  for_each_kron10([](const auto& g) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    auto sources = spread_sources<V>(g.num_vertices(), 21);
    sources.push_back(busiest_vertex(g));  // the counts are the last source's
    for (const double alpha : {4.0, 1e12})
      for (const std::int64_t serial_edges : {std::int64_t{0}, std::int64_t{1} << 40})
        for (const int pack : {1, 0}) {
          kernels::BrandesDoOptions options{alpha, serial_edges};
          options.pack_frontier = pack;
          kernels::BrandesDoWorkspace<V> ws;
          NumaArray<double> raw;
          kernels::betweenness_brandes_do(g, sources, raw, ws, options);
          expect_serial(g, sources, raw, "direction-optimizing, packed frontier");
          if (!g.has_in_edges()) continue;
          EXPECT_EQ(ws.packed_pulls, pack == 1 ? ws.pull_levels : 0);
          if (alpha > 1e6) {
            EXPECT_GT(ws.pull_levels, 0);
          }
        }
  });
}

TEST(BcFast, PullsAgainAfterPushLevels) {
  // Two dense clusters joined by a 12-vertex path, and vertices no search
  // reaches: from cluster A the search pulls, pushes along the path, and
  // pulls again in cluster B, whose pull skips what the first pull left
  // unclaimed and the push levels claimed since. Undirected and directed
  // (both ways), packed and not, 32- and 64-bit ids.
  std::vector<test_graphs::Arc> arcs;
  const std::uint64_t cluster = 300, path = 12, unreached = 70;
  std::uint64_t state = 12345;
  auto next = [&state] { return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  for (const std::uint64_t base : {std::uint64_t{0}, cluster + path})
    for (std::uint64_t u = 0; u < cluster; ++u)
      for (int k = 0; k < 24; ++k) {
        const std::uint64_t v = next() % cluster;
        if (v != u) arcs.push_back({base + u, base + v}), arcs.push_back({base + v, base + u});
      }
  for (std::uint64_t i = 0; i <= path; ++i) {  // cluster vertex 0 - path - the other cluster's vertex 0
    const std::uint64_t u = i == 0 ? 0 : cluster + i - 1, v = i == path ? cluster + path : cluster + i;
    arcs.push_back({u, v}), arcs.push_back({v, u});
  }
  const std::uint64_t n = 2 * cluster + path + unreached;
  for (std::uint64_t u = n - unreached; u + 1 < n; u += 2) arcs.push_back({u, u + 1}), arcs.push_back({u + 1, u});
  for (const bool directed : {false, true})
    for (const bool force64 : {false, true}) {
      const AnyGraph any = make_graph(arcs, n, directed, force64);
      numagraph::visit(
          [](const auto& g) {
            using V = typename std::decay_t<decltype(g)>::vertex_type;
            const std::vector<V> sources = {7, 400, 5};  // the last source's counts are kept
            for (const int pack : {0, 1}) {
              kernels::BrandesDoOptions options;
              options.pack_frontier = pack;
              kernels::BrandesDoWorkspace<V> ws;
              NumaArray<double> raw;
              kernels::betweenness_brandes_do(g, sources, raw, ws, options);
              expect_serial(g, sources, raw, "direction-optimizing, two clusters");
              EXPECT_GE(ws.pull_levels, 2) << "pack " << pack;
              EXPECT_GE(ws.push_levels, 12) << "pack " << pack;
            }
          },
          any);
    }
}

TEST(BcFast, PackedFrontierRanksAndSums) {
  // 1000 ids (not a multiple of 64) with every third one and a run of 70 set;
  // values[v] = v + 1. A member's packed value sits at its rank, and the
  // packed sum over any id list is the in-place sum over its members.
  const std::size_t n = 1000, words = n / 64 + 1;
  std::vector<std::uint64_t> bits(words, 0);
  std::vector<double> values(n + 1, 0);
  std::vector<std::uint32_t> members;
  for (std::uint32_t v = 0; v < n; ++v) {
    values[v] = v + 1;
    if (v % 3 == 0 || (v >= 500 && v < 570)) {
      bits[v >> 6] |= std::uint64_t{1} << (v & 63);
      members.push_back(v);
    }
  }
  for (const int threads : {1, 3}) {
    std::vector<kernels::RankedWord> ranked(words);
    std::vector<double> packed(n + 1, 0);
    std::vector<std::int64_t> block_counts(static_cast<std::size_t>(threads) + 1);
    std::int64_t count = -1;
#pragma omp parallel num_threads(threads)
    {
      const std::int64_t c = kernels::bc_detail::pack_frontier(bits.data(), words, values.data(), ranked.data(),
                                                               packed.data(), block_counts.data());
#pragma omp single
      count = c;
    }
    ASSERT_EQ(count, static_cast<std::int64_t>(members.size())) << threads << " threads";
    for (std::size_t r = 0; r < members.size(); ++r)
      ASSERT_EQ(packed[r], values[members[r]]) << "rank " << r << ", " << threads << " threads";
    EXPECT_EQ(packed[n], 0);
    std::vector<std::uint32_t> ids;
    for (std::uint32_t v = 0; v < n; v += 7) ids.push_back(v);
    ids.push_back(569);
    ids.push_back(570);
    double expected = 0;
    for (const auto v : ids)
      if ((bits[v >> 6] >> (v & 63)) & 1) expected += values[v];
    EXPECT_EQ(kernels::bc_detail::packed_gather_sum(packed.data(), n, ranked.data(), ids.data(),
                                                    ids.data() + ids.size()),
              expected);
  }
}

TEST(BcFast, LargeKroneckerMixesTeamAndSerialLevels) {
  // Levels whose vertices have serial_edges out-edges or more run on the
  // team, smaller ones on one thread: all team (0), mixed, all one thread.
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(14, directed, false);
    const auto& g = std::get<Graph32>(any);
    const auto sources = spread_sources<std::uint32_t>(g.num_vertices(), 3);
    for (const double alpha : kAlphas)
      for (const std::int64_t serial_edges : {std::int64_t{0}, std::int64_t{64}, std::int64_t{512}, std::int64_t{1} << 40}) {
        kernels::BrandesDoWorkspace<std::uint32_t> ws;
        NumaArray<double> raw;
        kernels::betweenness_brandes_do(g, sources, raw, ws, kernels::BrandesDoOptions{alpha, serial_edges});
        expect_serial(g, sources, raw, "direction-optimizing");
      }
    // Backward levels that push (every one, the default rule, none) and
    // gathers with and without a branch per neighbour, on team levels.
    for (const double back_push_ratio : {1e-12, 4.0, 0.0})
      for (const int branch_free : {0, 1}) {
        kernels::BrandesDoWorkspace<std::uint32_t> ws;
        NumaArray<double> raw;
        // Pulls from a packed frontier with the branchy gathers, as on a
        // graph whose sigma misses the caches.
        kernels::betweenness_brandes_do(
            g, sources, raw, ws, kernels::BrandesDoOptions{4, 0, back_push_ratio, branch_free, branch_free == 0});
        expect_serial(g, sources, raw, "direction-optimizing");
        if (back_push_ratio == 0) {
          EXPECT_EQ(ws.back_push_levels, 0);
        } else if (back_push_ratio < 1e-6) {
          EXPECT_GT(ws.back_push_levels, 0);
        }
      }
    expect_serial(g, sources, kernels::betweenness_brandes_batched(g, sources), "batched");
    // The batched kernel's backward pushes too (every level, the rule, none),
    // on 16 sources so that big levels are swept in id order.
    std::vector<std::uint32_t> sixteen;  // vertices with edges, so that every lane searches
    for (std::uint32_t v = 0; sixteen.size() < 16; v = (v + 7919) % static_cast<std::uint32_t>(g.num_vertices()))
      if (g.out_degree(v) > 0) sixteen.push_back(v);
    for (const double back_push_ratio : {1e-12, kernels::BrandesBatchedOptions{}.back_push_ratio, 0.0}) {
      kernels::BrandesBatchedWorkspace<std::uint32_t> ws;
      NumaArray<double> raw;
      kernels::betweenness_brandes_batched(g, sixteen, raw, ws, kernels::BrandesBatchedOptions{16, 4, back_push_ratio});
      expect_serial(g, sixteen, raw, "batched");
      if (back_push_ratio == 0) {
        EXPECT_EQ(ws.back_push_levels, 0);
      } else if (back_push_ratio < 1e-6) {
        EXPECT_GT(ws.back_push_levels, 0);
      }
    }
  }
}

TEST(BcFast, OwnerPushMatchesSerialBrandes) {
  // Hub frontiers pushed by owner (every such level, the default rule,
  // never), on 1, 2 and 3 threads (4 ranges each: 12 ranges do not divide
  // n), undirected, directed with and without in-edges, 32- and 64-bit ids.
  // The sources are the busiest vertex and its neighbours, whose first
  // levels are hub frontiers; every level runs on the team.
  for_each_kron(
      12,
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const V hub = busiest_vertex(g);
        std::vector<V> sources = {hub};
        for (const V v : g.out_neighbors(hub))
          if (sources.size() < 6) sources.push_back(v);
        for (const double ratio : {1e-12, kernels::BrandesDoOptions{}.owner_push_ratio, 0.0})
          for (const int threads : {1, 2, 3}) {
            kernels::BrandesDoOptions options{kernels::BrandesDoOptions{}.alpha, 0};
            options.owner_push_ratio = ratio;
            kernels::BrandesDoWorkspace<V> ws, hub_ws;
            NumaArray<double> raw, hub_raw;
            on_threads(threads, [&] {
              kernels::betweenness_brandes_do(g, sources, raw, ws, options);
              // The hub alone: its first level is a hub frontier.
              kernels::betweenness_brandes_do(g, std::vector<V>{hub}, hub_raw, hub_ws, options);
            });
            const std::string what =
                "owner push ratio " + std::to_string(ratio) + ", " + std::to_string(threads) + " threads";
            expect_serial(g, sources, raw, what.c_str());
            expect_serial(g, std::vector<V>{hub}, hub_raw, what.c_str());
            if (ratio == 0) {
              EXPECT_EQ(hub_ws.owner_push_levels, 0) << what;
            } else if (ratio < 1e-6) {
              EXPECT_GT(hub_ws.owner_push_levels, 0) << what;
            }
          }
      },
      /*without_in_edges=*/true);
}

TEST(BcFast, BatchedOwnerPushAndLineSkipsMatchSerialBrandes) {
  // 16 sources whose out-neighbours are mostly hubs, in one batch, with and
  // without owner pushes (every level pushing, or the default rule), with
  // and without gathers that skip a row's empty lines, on 1 and 3 threads;
  // undirected, directed with and without in-edges, 32- and 64-bit ids.
  for_each_kron(
      14,
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        std::vector<V> hubs = all_vertices<V>(g.num_vertices());
        std::stable_sort(hubs.begin(), hubs.end(), [&](V a, V b) { return g.out_degree(a) > g.out_degree(b); });
        hubs.resize(16);
        // Sources whose out-neighbours are mostly hubs: their first level is
        // a hub frontier with several hubs per lane, whose counts add up.
        std::vector<char> is_hub(static_cast<std::size_t>(g.num_vertices()), 0);
        for (const V h : hubs) is_hub[h] = 1;
        std::vector<V> sources;
        for (int want = 8; sources.size() < 16 && want > 0; want /= 2)
          for (std::int64_t v = 0; v < g.num_vertices() && sources.size() < 16; ++v) {
            int hub_neighbours = 0;
            for (const V u : g.out_neighbors(static_cast<V>(v))) hub_neighbours += is_hub[u];
            if (!is_hub[v] && hub_neighbours >= want && 2 * hub_neighbours >= g.out_degree(static_cast<V>(v)) &&
                std::find(sources.begin(), sources.end(), static_cast<V>(v)) == sources.end())
              sources.push_back(static_cast<V>(v));
          }
        ASSERT_EQ(sources.size(), 16u);
        for (const double alpha : {0.0, kernels::BrandesBatchedOptions{}.alpha})
          for (const bool owner_push : {true, false})
            for (const int skip : {1, 0})
              for (const int threads : {1, 3}) {
                kernels::BrandesBatchedOptions options;
                options.alpha = alpha;  // 0: every level pushes, so the hub frontier is pushed by owner
                options.owner_push = owner_push;
                options.skip_empty_lines = skip;
                kernels::BrandesBatchedWorkspace<V> ws;
                NumaArray<double> raw;
                on_threads(threads, [&] { kernels::betweenness_brandes_batched(g, sources, raw, ws, options); });
                const std::string what = std::string("batched, alpha ") + std::to_string(alpha) + ", owner push " +
                                         (owner_push ? "on" : "off") + ", skip " + std::to_string(skip) + ", " +
                                         std::to_string(threads) + " threads";
                expect_serial(g, sources, raw, what.c_str());
                if (alpha == 0 || !owner_push) {
                  EXPECT_EQ(ws.owner_push_levels > 0, owner_push) << what;
                }
                EXPECT_EQ(ws.line_skip_levels > 0, skip == 1) << what;
              }
      },
      /*without_in_edges=*/true);
}

TEST(BcFast, AlignedStartsDelayLanesThatSpreadSooner) {
  // A star of 100 leaves around hub 0 and the path 0 - 101 - 102 - 103;
  // 109 is isolated. 206 arcs: a lane spreads on the hop whose out-edges,
  // counted with repeats, reach 206 / 16. Leaf 1 and vertex 101 see the hub's
  // 101 out-edges on hop 1, 102 on hop 2 (through 101), 103 not by hop 2.
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t leaf = 1; leaf <= 100; ++leaf) arcs.push_back({0, leaf});
  arcs.insert(arcs.end(), {{0, 101}, {101, 102}, {102, 103}});
  for (const bool force64 : {false, true}) {
    const AnyGraph any = make_graph(arcs, 110, false, force64);
    numagraph::visit(
        [](const auto& g) {
          using V = typename std::decay_t<decltype(g)>::vertex_type;
          const std::vector<V> sources = {1, 101, 102, 103, 109};
          int start[5];
          kernels::aligned_start_levels(g, sources.data(), 5, start);
          EXPECT_EQ(std::vector<int>(start, start + 5), (std::vector<int>{2, 2, 1, 0, 0}));
          kernels::BrandesBatchedWorkspace<V> ws;
          NumaArray<double> raw;
          kernels::betweenness_brandes_batched(g, sources, raw, ws);
          EXPECT_EQ(ws.late_lanes, 3);
          expect_serial(g, sources, raw, "aligned starts");
          kernels::BrandesBatchedOptions level0;
          level0.align_starts = false;
          kernels::betweenness_brandes_batched(g, sources, raw, ws, level0);
          EXPECT_EQ(ws.late_lanes, 0);
          expect_serial(g, sources, raw, "every lane on level 0");
        },
        any);
  }
}

TEST(BcFast, BatchedLanesStartingOnLaterLevelsMatchSerialBrandes) {
  // Lanes that join the batch on levels 1, 2 and 9 (past the last level of
  // the others: the batch runs on through empty levels), every lane late (an
  // empty level 0), and a source in two lanes on different levels; the hub,
  // a vertex of degree 1 and an isolated one among the sources.
  for_each_kron(
      12,
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        std::vector<V> sources = spread_sources<V>(g.num_vertices(), 12);
        sources.push_back(busiest_vertex(g));
        sources.push_back(first_vertex_of_degree(g, 1));
        sources.push_back(first_vertex_of_degree(g, 0));
        sources.push_back(sources[0]);
        ASSERT_EQ(sources.size(), 16u);
        const std::vector<std::vector<int>> patterns = {
            {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0, 2},
            {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
            {0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0}};
        for (const auto& starts : patterns)
          for (const int threads : {1, 3}) {
            kernels::BrandesBatchedOptions options;
            options.start_levels = starts;
            kernels::BrandesBatchedWorkspace<V> ws;
            NumaArray<double> raw;
            on_threads(threads, [&] { kernels::betweenness_brandes_batched(g, sources, raw, ws, options); });
            const auto late = std::count_if(starts.begin(), starts.end(), [](int s) { return s > 0; });
            EXPECT_EQ(ws.late_lanes, late);
            const std::string what = "starts from lane 0 on level " + std::to_string(starts[0]) + ", lane 3 on " +
                                     std::to_string(starts[3]) + ", " + std::to_string(threads) + " threads";
            expect_serial(g, sources, raw, what.c_str());
          }
        kernels::BrandesBatchedOptions too_late;
        too_late.start_levels = {0, kernels::kMaxStartLevel + 1};
        EXPECT_THROW(kernels::betweenness_brandes_batched(g, sources, too_late), UsageError);
      },
      /*without_in_edges=*/true);
}

TEST(BcFast, DirectedWithoutInEdgesPushes) {
  const AnyGraph any = make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 0}}, 6, true, false,
                                  WeightKind::kNone, /*in_edges=*/false);
  const auto& g = std::get<Graph32>(any);
  ASSERT_FALSE(g.has_in_edges());
  const auto sources = all_vertices<std::uint32_t>(g.num_vertices());
  kernels::BrandesDoWorkspace<std::uint32_t> ws;
  NumaArray<double> raw;
  kernels::betweenness_brandes_do(g, sources, raw, ws, kernels::BrandesDoOptions{1e12});
  EXPECT_EQ(ws.pull_levels, 0);
  expect_serial(g, sources, raw, "direction-optimizing");
  auto batched = kernels::betweenness_brandes_batched(g, sources);
  expect_serial(g, sources, batched, "batched");
}

TEST(BcFast, LongPathManyLevels) {
  // A path of 3000 vertices with a chord: thousands of levels, sparse throughout.
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t v = 0; v + 1 < 3000; ++v) arcs.push_back({v, v + 1});
  arcs.push_back({10, 2000});
  const AnyGraph any = make_graph(arcs, 3000, false, false);
  const auto& g = std::get<Graph32>(any);
  const std::vector<std::uint32_t> sources = {0, 1500, 2999, 5, 17};
  expect_serial(g, sources, kernels::betweenness_brandes_do(g, sources), "direction-optimizing");
  expect_serial(g, sources, kernels::betweenness_brandes_batched(g, sources), "batched");
}

TEST(BcFast, ReusedWorkspacesGiveFreshResults) {
  const AnyGraph big_any = make_kron(10, false, false);
  const AnyGraph small_any = make_kron(8, true, false);
  const auto& big = std::get<Graph32>(big_any);
  const auto& small = std::get<Graph32>(small_any);
  kernels::BrandesDoWorkspace<std::uint32_t> ws;
  kernels::BrandesBatchedWorkspace<std::uint32_t> bws;
  NumaArray<double> raw;
  for (int round = 0; round < 2; ++round) {
    for (const auto* g : {&big, &small, &big}) {
      const auto sources = spread_sources<std::uint32_t>(g->num_vertices(), 11);
      kernels::betweenness_brandes_do(*g, sources, raw, ws);
      expect_serial(*g, sources, raw, "direction-optimizing, reused");
      kernels::betweenness_brandes_batched(*g, sources, raw, bws);
      expect_serial(*g, sources, raw, "batched, reused");
    }
  }
}

TEST(BcFast, BatchedCountsPastThirtyTwoBitsRunAgainWide) {
  // A chain of 40 diamonds (2^40 shortest paths end to end) and, apart, a
  // path of 20 vertices. The first batch (16 sources on the path) keeps its
  // 32-bit counts; the second (the chain's end) passes 2^32, runs again with
  // double counts, and the workspace stays wide.
  constexpr std::uint64_t kDiamonds = 40, kHubs = kDiamonds + 1, kPath = 20;
  std::vector<test_graphs::Arc> arcs;
  for (std::uint64_t i = 0; i < kDiamonds; ++i)
    for (const std::uint64_t middle : {kHubs + 2 * i, kHubs + 2 * i + 1}) {
      arcs.push_back({i, middle});
      arcs.push_back({middle, i + 1});
    }
  const std::uint64_t path0 = kHubs + 2 * kDiamonds;
  for (std::uint64_t v = 0; v + 1 < kPath; ++v) arcs.push_back({path0 + v, path0 + v + 1});
  const AnyGraph any = make_graph(arcs, path0 + kPath, false, false);
  const auto& g = std::get<Graph32>(any);
  std::vector<std::uint32_t> sources;
  for (std::uint32_t v = 0; v < 16; ++v) sources.push_back(static_cast<std::uint32_t>(path0) + v);
  sources.push_back(0);
  for (const double alpha : kAlphas) {
    kernels::BrandesBatchedWorkspace<std::uint32_t> ws;
    NumaArray<double> raw;
    kernels::betweenness_brandes_batched(g, {sources.begin(), sources.begin() + 16}, raw, ws,
                                         kernels::BrandesBatchedOptions{16, alpha});
    EXPECT_TRUE(ws.narrow_counts) << "alpha " << alpha;
    kernels::betweenness_brandes_batched(g, sources, raw, ws, kernels::BrandesBatchedOptions{16, alpha});
    EXPECT_FALSE(ws.narrow_counts) << "alpha " << alpha;
    expect_serial(g, sources, raw, "batched, 2^40 paths");
    // The wide workspace stays correct for the next call.
    kernels::betweenness_brandes_batched(g, sources, raw, ws, kernels::BrandesBatchedOptions{16, alpha});
    expect_serial(g, sources, raw, "batched, wide workspace reused");
  }
}

TEST(BcFast, RepeatedSourcesCountTwice) {
  const AnyGraph any = make_kron(8, false, false);
  const auto& g = std::get<Graph32>(any);
  const std::vector<std::uint32_t> sources = {3, 3, 9, 3};
  expect_serial(g, sources, kernels::betweenness_brandes_do(g, sources), "direction-optimizing");
  expect_serial(g, sources, kernels::betweenness_brandes_batched(g, sources), "batched");
}

template <typename V>
NumaArray<double> source_parallel(const CSRGraph<V>& g, const std::vector<V>& sources, int threads) {
  NumaArray<double> raw;
  on_threads(threads, [&] { kernels::betweenness_brandes_source_parallel(g, sources, raw); });
  return raw;
}

TEST(BcFast, SourceParallelMatchesSerialBrandesOnAnyThreadCount) {
  // Fewer, as many and more sources than threads; repeated sources; 32- and 64-bit ids.
  for_each_kron10([](const auto& g) {
    using V = typename std::decay_t<decltype(g)>::vertex_type;
    auto sources = spread_sources<V>(g.num_vertices(), 13);
    sources.push_back(sources.front());
    for (const int threads : {1, 2, 3, 32})
      expect_serial(g, sources, source_parallel(g, sources, threads), "source-parallel");
  });
  std::vector<test_graphs::Arc> arcs;  // a long path: thousands of levels
  for (std::uint64_t v = 0; v + 1 < 3000; ++v) arcs.push_back({v, v + 1});
  const AnyGraph path_any = make_graph(arcs, 3001, false, false);  // vertex 3000 is isolated
  const auto& path = std::get<Graph32>(path_any);
  const std::vector<std::uint32_t> sources = {0, 1500, 2999, 3000, 5};
  expect_serial(path, sources, source_parallel(path, sources, 2), "source-parallel, path");
}

TEST(BcFast, SourceParallelStopsOnCancel) {
  const AnyGraph any = make_kron(8, false, false);
  const auto& g = std::get<Graph32>(any);
  request_cancel();
  EXPECT_THROW(source_parallel(g, spread_sources<std::uint32_t>(g.num_vertices(), 8), 2), Cancelled);
  clear_cancel();
  const auto sources = spread_sources<std::uint32_t>(g.num_vertices(), 8);
  expect_serial(g, sources, source_parallel(g, sources, 2), "source-parallel after a cancel");
}

}  // namespace

TEST(BcFast, AutoBatchesFromEightSourcesWhileTheLanesFitTheBudget) {
  // Dense graphs (average degree 8 or more): batched for 8+ sources when its
  // workspace fits the scratch budget, the direction-optimizing search in
  // turn otherwise; sparse ones never batch.
  const AnyGraph small_any = make_kron(10, false, false);
  const auto& small = std::get<Graph32>(small_any);
  ASSERT_GE(small.num_arcs(), 8 * small.num_vertices());
  EXPECT_EQ(kernels::flat_bc_variant(small, 8, BcVariant::kAuto, 2), BcVariant::kBatched);
  EXPECT_EQ(kernels::flat_bc_variant(small, 7, BcVariant::kAuto, 2), BcVariant::kDirectionOptimizing);
  EXPECT_EQ(kernels::flat_bc_variant(small, 8, BcVariant::kBrandes, 2), BcVariant::kBrandes);
  // 16 lanes of 32-bit ids: 16 * (8 + 8 + 4 + 2) + 3 * 2 bytes per vertex.
  const std::uint64_t need = kernels::batched_workspace_bytes<std::uint32_t>(small.num_vertices(), 16);
  EXPECT_EQ(need, static_cast<std::uint64_t>(small.num_vertices()) * 358);
  EXPECT_EQ(kernels::flat_bc_variant(small, 16, BcVariant::kAuto, 2, need), BcVariant::kBatched);
  EXPECT_EQ(kernels::flat_bc_variant(small, 16, BcVariant::kAuto, 2, need - 1), BcVariant::kDirectionOptimizing);
  const AnyGraph path_any = make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 5, false, false);
  EXPECT_NE(kernels::flat_bc_variant(std::get<Graph32>(path_any), 16, BcVariant::kAuto, 2), BcVariant::kBatched);
}

TEST(BcFast, BatchLanes) {
  EXPECT_EQ(kernels::batched_lanes(1), 4);
  EXPECT_EQ(kernels::batched_lanes(4), 4);
  EXPECT_EQ(kernels::batched_lanes(5), 8);
  EXPECT_EQ(kernels::batched_lanes(9), 16);
  EXPECT_EQ(kernels::batched_lanes(16), 16);
}
