// NUMA layer on synthetic topologies (1, 2, 4, 8 nodes): thread plans,
// partition ranges, steal orders, pinning and page placement queries.
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/partition.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/numa/topology.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

TEST(Topology, SyntheticShapes) {
  for (int nodes : {1, 2, 4, 8}) {
    auto t = numa::Topology::from_synthetic("pack:" + std::to_string(nodes) + " numa:1 core:2 pu:2");
    EXPECT_EQ(t.num_nodes(), nodes);
    EXPECT_EQ(t.cores, 2 * nodes);
    EXPECT_EQ(t.pus, 4 * nodes);
    EXPECT_TRUE(t.synthetic);
    ASSERT_EQ(t.distance.size(), static_cast<std::size_t>(nodes));
    for (int i = 0; i < nodes; ++i) EXPECT_EQ(t.distance[i][i], 10);
  }
}

TEST(Topology, BadDescriptionIsAUsageError) {
  EXPECT_THROW(numa::Topology::from_synthetic("this is not hwloc"), UsageError);
  EXPECT_THROW(numa::Topology::from_xml("/no/such/topology.xml"), UsageError);
}

// More than 4096 PUs is refused before hwloc builds them (30720 took hwloc
// minutes under the fuzzer), however the levels are written: hwloc needs no
// space between them and reads hexadecimal. Digits inside attributes are not
// arities.
TEST(Topology, TooManyPusAreRefusedBeforeHwlocBuildsThem) {
  for (const char* d : {"pack:8 numa:32 core:60 pu:2", "pack:8 numa:32core:60 pu:2", "pAck:8 numa:32co\xd2" "e:20 pu:2",
                        "8 32 60 2", "pack:8\tnuma:32\tcore:60", "0x8686", "pack:0x1001", "22\n600602", "pack:99999999999999999999 pu:99999999999",
                        "packa(1 co061r2e:6020611"})
    EXPECT_THROW(numa::Topology::from_synthetic(d), UsageError) << d;
  const auto t = numa::Topology::from_synthetic("pack:2 numa:2(memory=1000000000) core:2 pu:1");
  EXPECT_EQ(t.pus, 8);
  EXPECT_EQ(numa::Topology::from_synthetic("pack:2 l2:2 core:2 pu:1").pus, 8);  // "l2" is a type, not an arity
}

TEST(Topology, MachineHasAtLeastOneNode) {
  auto t = numa::Topology::from_machine();
  EXPECT_GE(t.num_nodes(), 1);
  EXPECT_FALSE(t.synthetic);
}

TEST(ThreadPlan, NodeMajorCompactAndScatter) {
  auto t = numa::Topology::from_synthetic("pack:4 numa:1 core:2 pu:2");
  auto all = numa::plan_threads(t, 0, numa::Bind::kCompact, false);
  EXPECT_EQ(all.node, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
  auto smt = numa::plan_threads(t, 0, numa::Bind::kCompact, true);
  EXPECT_EQ(smt.node.size(), 16u);
  auto compact = numa::plan_threads(t, 4, numa::Bind::kCompact, false);
  EXPECT_EQ(compact.node, (std::vector<int>{0, 0, 1, 1}));
  auto scatter = numa::plan_threads(t, 4, numa::Bind::kScatter, false);
  EXPECT_EQ(scatter.node, (std::vector<int>{0, 1, 2, 3}));
  // Threads of one node get distinct cores (first PU of each core).
  EXPECT_NE(all.pu[0], all.pu[1]);
  for (std::size_t i = 1; i < all.node.size(); ++i) EXPECT_LE(all.node[i - 1], all.node[i]);
}

TEST(Partition, BalancedByWeightsAndCoversEverything) {
  // Vertex 0 is a hub holding half the edges.
  std::vector<std::int64_t> degree(1000, 1);
  degree[0] = 999;
  std::vector<std::int64_t> prefix(1001, 0);
  std::partial_sum(degree.begin(), degree.end(), prefix.begin() + 1);
  for (int parts : {1, 2, 4, 8}) {
    auto b = numa::partition_ranges(1000, parts, prefix.data());
    ASSERT_EQ(b.front(), 0);
    ASSERT_EQ(b.back(), 1000);
    for (int k = 0; k < parts; ++k) ASSERT_LE(b[k], b[k + 1]);
    // Each part costs (edges + vertices) within one vertex's cost of an even share.
    const double total = 1998 + 1000;
    for (int k = 0; k < parts; ++k) {
      const double cost = static_cast<double>(prefix[b[k + 1]] - prefix[b[k]] + b[k + 1] - b[k]);
      EXPECT_LE(std::abs(cost - total / parts), 1000.0) << parts << " parts, part " << k;
    }
    if (parts == 2) {
      EXPECT_LT(b[1], 300);  // the hub's half is a short range
    }
    for (std::int64_t i = 0; i < 1000; i += 37) {
      const int owner = numa::owner_of(b, i);
      EXPECT_GE(i, b[owner]);
      EXPECT_LT(i, b[owner + 1]);
    }
  }
}

TEST(StealOrder, AsymmetricDistancesNearestFirst) {
  // 3 nodes, one thread each: node 0 is near node 2 (12) and far from node 1 (40).
  std::vector<int> thread_node{0, 1, 2};
  std::vector<std::vector<int>> d{{10, 40, 12}, {40, 10, 30}, {12, 30, 10}};
  auto order = parallel::steal_order_by_distance(thread_node, {0, 1, 2}, thread_node, d);
  EXPECT_EQ(order[0], (std::vector<int>{2, 1}));
  EXPECT_EQ(order[1], (std::vector<int>{2, 0}));
  EXPECT_EQ(order[2], (std::vector<int>{0, 1}));
}

TEST(StealOrder, XorOnABinaryTree) {
  // 8 nodes on a complete binary tree: distance grows with the highest differing bit.
  std::vector<int> thread_node{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::vector<int>> d(8, std::vector<int>(8));
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) d[a][b] = a == b ? 10 : 10 + 10 * (32 - __builtin_clz(static_cast<unsigned>(a ^ b)));
  auto order = parallel::steal_order_by_distance(thread_node, thread_node, thread_node, d);
  for (int t = 0; t < 8; ++t)
    for (int i = 0; i < 7; ++i) EXPECT_EQ(order[t][i], t ^ (i + 1)) << "thread " << t;
}

TEST(Runtime, PinsThreadsToTheirCpus) {
  numa::RuntimeConfig c;
  c.threads = 2;
  numa::Runtime::get().configure(c);
  const auto& rt = numa::Runtime::get();
  std::vector<int> seen(2, -1);
#pragma omp parallel num_threads(2)
  seen[static_cast<std::size_t>(omp_get_thread_num())] = sched_getcpu();
  for (int t = 0; t < 2; ++t)
    if (rt.thread_cpu()[t] >= 0) {
      EXPECT_EQ(seen[t], rt.thread_cpu()[t]);
    }
}

TEST(Memory, ReportsWherePagesAreAndFallsBack) {
  NumaArray<char> a(std::size_t{4} << 20, numa::Placement::local(), numa::PageSize::k2M);
  for (std::size_t i = 0; i < a.size(); i += 4096) a[i] = 1;
  // No hugetlbfs pool here: 2m falls back and says so.
  EXPECT_NE(a.page_size(), numa::PageSize::k1G);
  auto r = numa::page_report(a.data(), a.size());
  EXPECT_EQ(r.sampled, 1024);
  std::int64_t present = 0;
  for (auto p : r.pages_per_node) present += p;
  EXPECT_EQ(present + r.not_present, r.sampled);
  EXPECT_GT(present, 0);
}
