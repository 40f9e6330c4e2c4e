// NUMA runtime on synthetic topologies with 1, 2, 4 and 8 nodes and an
// asymmetric distance matrix: thread -> node plans, steal orders computed
// from the topology, pinning checked with sched_getcpu, the default
// placement, first touch, replicated arrays and the page report.
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "numagraph/engine/replicated.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/replicated_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/numa/topology.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

namespace {

// Every test leaves the process as the CLI would: machine topology, defaults.
class NumaRuntime : public ::testing::Test {
 protected:
  void TearDown() override { numa::Runtime::get().configure(numa::RuntimeConfig{}); }
};

std::string synthetic(int nodes, int cores, int pus = 1) {
  return "pack:" + std::to_string(nodes) + " numa:1 core:" + std::to_string(cores) + " pu:" + std::to_string(pus);
}

// Thread t's steal order when every thread owns one queue.
std::vector<std::vector<int>> steal_orders(const numa::Topology& t, const numa::ThreadPlan& plan) {
  std::vector<int> owner(plan.node.size());
  for (std::size_t i = 0; i < owner.size(); ++i) owner[i] = static_cast<int>(i);
  return parallel::steal_order_by_distance(plan.node, owner, plan.node, t.distance);
}

}  // namespace

TEST(NumaThreadPlan, NodeMajorOnOneTwoFourEightNodes) {
  for (int nodes : {1, 2, 4, 8}) {
    const auto t = numa::Topology::from_synthetic(synthetic(nodes, 3, 2));
    for (bool smt : {false, true}) {
      const int per_node = smt ? 6 : 3;
      const auto plan = numa::plan_threads(t, 0, numa::Bind::kCompact, smt);
      ASSERT_EQ(plan.node.size(), static_cast<std::size_t>(nodes * per_node)) << nodes << " nodes";
      std::set<int> pus(plan.pu.begin(), plan.pu.end());
      EXPECT_EQ(pus.size(), plan.pu.size()) << "every thread has its own PU";
      for (std::size_t i = 0; i < plan.node.size(); ++i) {
        EXPECT_EQ(plan.node[i], static_cast<int>(i) / per_node) << nodes << " nodes, thread " << i;
        // The PU really belongs to the thread's node.
        bool mine = false;
        for (const auto& core : t.nodes[static_cast<std::size_t>(plan.node[i])].core_pus)
          for (int pu : core) mine = mine || pu == plan.pu[i];
        EXPECT_TRUE(mine) << "thread " << i;
      }
    }
    // Scatter with one thread per node puts one on each; ids stay node-major.
    const auto scatter = numa::plan_threads(t, nodes, numa::Bind::kScatter, false);
    for (int i = 0; i < nodes; ++i) EXPECT_EQ(scatter.node[static_cast<std::size_t>(i)], i);
    // Compact with half a node's cores stays on node 0.
    const auto compact = numa::plan_threads(t, 2, numa::Bind::kCompact, false);
    EXPECT_EQ(compact.node, (std::vector<int>{0, 0}));
  }
}

TEST(NumaTopology, DistanceOverrideAndDefaults) {
  // hwloc synthetic topologies carry no distances: 10 local, 20 remote.
  const auto plain = numa::Topology::select(synthetic(2, 1));
  EXPECT_EQ(plain.distance, (std::vector<std::vector<int>>{{10, 20}, {20, 10}}));
  const auto t = numa::Topology::select("pack:3 numa:1 core:2 distances=10,40,12/40,10,30/12,30,10");
  EXPECT_EQ(t.num_nodes(), 3);
  EXPECT_EQ(t.distance, (std::vector<std::vector<int>>{{10, 40, 12}, {40, 10, 30}, {12, 30, 10}}));
  // Asymmetric matrices are kept as given.
  const auto a = numa::Topology::select("pack:2 numa:1 core:1 distances=10,15/25,10");
  EXPECT_EQ(a.distance[0][1], 15);
  EXPECT_EQ(a.distance[1][0], 25);
  EXPECT_THROW(numa::Topology::select("pack:2 numa:1 core:1 distances=10,20"), UsageError);
  EXPECT_THROW(numa::Topology::select("pack:2 numa:1 core:1 distances=10,x/20,10"), UsageError);
  EXPECT_THROW(numa::Topology::select("pack:2 numa:1 core:1 distances=10,0/20,10"), UsageError);
}

TEST(NumaTopology, FromEnvironment) {
  setenv("NUMAGRAPH_TOPOLOGY", "pack:8 numa:1 core:1", 1);
  const auto t = numa::Topology::select("");
  unsetenv("NUMAGRAPH_TOPOLOGY");
  EXPECT_EQ(t.num_nodes(), 8);
  EXPECT_TRUE(t.synthetic);
  // An explicit spec wins over the environment.
  setenv("NUMAGRAPH_TOPOLOGY", "pack:8 numa:1 core:1", 1);
  EXPECT_EQ(numa::Topology::select(synthetic(2, 1)).num_nodes(), 2);
  unsetenv("NUMAGRAPH_TOPOLOGY");
}

TEST(NumaStealOrder, AsymmetricTopologyNearestNodeFirst) {
  const auto t = numa::Topology::select("pack:3 numa:1 core:2 distances=10,40,12/40,10,30/12,30,10");
  const auto plan = numa::plan_threads(t, 0, numa::Bind::kCompact, false);
  ASSERT_EQ(plan.node, (std::vector<int>{0, 0, 1, 1, 2, 2}));
  const auto order = steal_orders(t, plan);
  // Node 0: its partner, then node 2 (12), then node 1 (40).
  EXPECT_EQ(order[0], (std::vector<int>{1, 4, 5, 2, 3}));
  // Node 1 reads row 1: node 2 (30) before node 0 (40), unlike node 0's view.
  EXPECT_EQ(order[2], (std::vector<int>{3, 4, 5, 0, 1}));
  EXPECT_EQ(order[5], (std::vector<int>{4, 1, 0, 3, 2}));  // ties by 5 XOR victim
}

TEST(NumaStealOrder, EqualDistancesTieByXor) {
  for (int nodes : {2, 4, 8}) {
    const auto t = numa::Topology::from_synthetic(synthetic(nodes, 2));
    const auto plan = numa::plan_threads(t, 0, numa::Bind::kCompact, false);
    const auto order = steal_orders(t, plan);
    const int threads = 2 * nodes;
    for (int tid = 0; tid < threads; ++tid) {
      ASSERT_EQ(order[static_cast<std::size_t>(tid)].size(), static_cast<std::size_t>(threads - 1));
      // Same node first (distance 10), then all others (20) by tid XOR victim.
      EXPECT_EQ(order[static_cast<std::size_t>(tid)][0], tid ^ 1);
      for (int i = 1; i < threads - 1; ++i) EXPECT_EQ(order[static_cast<std::size_t>(tid)][i], tid ^ (i + 1));
    }
  }
}

TEST_F(NumaRuntime, PinnedThreadsRunOnTheirCpus) {
  numa::RuntimeConfig c;
  numa::Runtime::get().configure(c);
  const auto& rt = numa::Runtime::get();
  std::vector<int> seen(static_cast<std::size_t>(rt.threads()), -1);
#pragma omp parallel num_threads(rt.threads())
  seen[static_cast<std::size_t>(omp_get_thread_num())] = sched_getcpu();
  for (int t = 0; t < rt.threads(); ++t) {
    ASSERT_GE(rt.thread_cpu()[static_cast<std::size_t>(t)], 0) << "pinning failed";
    EXPECT_EQ(seen[static_cast<std::size_t>(t)], rt.thread_cpu()[static_cast<std::size_t>(t)]) << "thread " << t;
    EXPECT_EQ(rt.thread_node(t), 0);
  }
}

TEST_F(NumaRuntime, ReconfiguringKeepsEveryCpu) {
  // A first configure pins thread 0 to one CPU; the next one must still see
  // all the CPUs the process started with.
  numa::RuntimeConfig one;
  one.threads = 1;
  numa::Runtime::get().configure(one);
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  const auto& cpus = numa::Runtime::get().thread_cpu();
  const std::set<int> distinct(cpus.begin(), cpus.end());
  EXPECT_EQ(distinct.size(), cpus.size()) << "threads share a CPU after reconfiguring";
  // --bind none hands every thread all CPUs back.
  numa::RuntimeConfig none;
  none.bind = numa::Bind::kNone;
  numa::Runtime::get().configure(none);
  int min_cpus = 1 << 20;
#pragma omp parallel num_threads(numa::Runtime::get().threads()) reduction(min : min_cpus)
  {
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    min_cpus = CPU_COUNT(&set);
  }
  EXPECT_EQ(min_cpus, static_cast<int>(cpus.size()));
}

TEST_F(NumaRuntime, SyntheticPusMapRoundRobinOntoRealCpus) {
  numa::RuntimeConfig c;
  c.topology = synthetic(4, 2);
  numa::Runtime::get().configure(c);
  const auto& rt = numa::Runtime::get();
  ASSERT_EQ(rt.threads(), 8);
  cpu_set_t all;
  sched_getaffinity(0, sizeof all, &all);
  std::vector<int> seen(8, -1);
#pragma omp parallel num_threads(8)
  seen[static_cast<std::size_t>(omp_get_thread_num())] = sched_getcpu();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(rt.thread_node(t), t / 2);
    EXPECT_EQ(seen[static_cast<std::size_t>(t)], rt.thread_cpu()[static_cast<std::size_t>(t)]);
  }
  // Placement on the missing nodes is a no-op: a bound array still works.
  NumaArray<int> a(1 << 16, numa::Placement::bind(3));
  a.first_touch();
  a[12345] = 7;
  EXPECT_EQ(a[12345], 7);
}

TEST_F(NumaRuntime, DefaultPlacementFollowsTheRuntime) {
  numa::RuntimeConfig c;
  c.placement = numa::PlacementKind::kInterleave;
  numa::Runtime::get().configure(c);
  NumaArray<double> a(1000);
  EXPECT_EQ(a.placement().kind, numa::PlacementKind::kInterleave);
  NumaArray<double> explicit_local(1000, numa::Placement::local());
  EXPECT_EQ(explicit_local.placement().kind, numa::PlacementKind::kLocal);
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  EXPECT_EQ(NumaArray<double>(10).placement().kind, numa::PlacementKind::kLocal);
  EXPECT_THROW(numa::set_default_placement(numa::PlacementKind::kBind), UsageError);
}

TEST_F(NumaRuntime, FirstTouchZeroesAndMaterialisesEveryPage) {
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  NumaArray<std::int64_t> a(std::size_t{1} << 20, numa::Placement::local(), numa::PageSize::k4K);
  auto before = numa::page_report(a.data(), a.bytes());
  EXPECT_EQ(before.not_present, before.sampled) << "fresh pages are not yet touched";
  a.first_touch();
  auto after = numa::page_report(a.data(), a.bytes());
  EXPECT_EQ(after.not_present, 0);
  EXPECT_EQ(after.on(0), after.sampled);
  for (std::size_t i = 0; i < a.size(); i += 4099) ASSERT_EQ(a[i], 0);
}

TEST_F(NumaRuntime, ReplicatedArrayGivesEveryNodeTheData) {
  std::vector<int> src(10000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int>(i * 3);
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  {
    numa::ReplicatedArray<int> r(src);
    EXPECT_EQ(r.nodes(), numa::Runtime::get().topology().num_nodes());
    EXPECT_EQ(r.local_copy()[9999], 29997);
  }
  numa::RuntimeConfig c;
  c.topology = synthetic(4, 1);
  numa::Runtime::get().configure(c);
  numa::ReplicatedArray<int> r(src);
  EXPECT_EQ(r.nodes(), 4);
  // The four synthetic nodes do not exist here: they share one copy.
  if (numa::physical_nodes() < 4) {
    EXPECT_EQ(r.copies(), 1);
  }
  std::vector<const int*> local(4, nullptr);
#pragma omp parallel num_threads(4)
  local[static_cast<std::size_t>(omp_get_thread_num())] = r.local_copy();
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(local[static_cast<std::size_t>(k)], r.copy(k));
    EXPECT_EQ(r.copy(k)[1234], 3702);
  }
}

// The engine's per-node copies follow the same rule: nodes of a synthetic
// topology larger than this machine share copy 0 (a copy there would only
// double the cache footprint), every node still reads and writes "its" copy,
// and without a configured runtime (hand-built layouts) each node gets one.
TEST_F(NumaRuntime, EngineReplicasShareOneCopyWhereNodesHaveNoMemory) {
  numa::RuntimeConfig c;
  c.topology = synthetic(4, 1);
  numa::Runtime::get().configure(c);
  engine::Replicas<double> r(4, 1000);
  EXPECT_EQ(r.nodes(), 4);
  const bool missing = numa::Runtime::get().os_node(1) < 0;
  EXPECT_EQ(r.distinct_copies(), missing ? 1 : 4);
  r.set(17, 2.5);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(r.copy(k)[17], 2.5) << "node " << k;
    if (missing) {
      EXPECT_EQ(r.copy(k), r.copy(0));
    }
  }
  EXPECT_EQ(r.bytes(), static_cast<std::size_t>(r.distinct_copies()) * 1000 * sizeof(double));
  // A layout with another node count than the runtime's: one copy per node.
  engine::Replicas<double> other(3, 10);
  EXPECT_EQ(other.distinct_copies(), 3);
  // The machine's own topology: its nodes are real, so one copy each.
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  const int nodes = numa::Runtime::get().topology().num_nodes();
  engine::Replicas<double> real(nodes, 10);
  EXPECT_EQ(real.distinct_copies(), nodes);
  EXPECT_EQ(engine::replica_copies(engine::EngineMode::kNuma, 1), 0) << "no copies on one node";
}

TEST_F(NumaRuntime, PageReportSaysWhichPageSizeItGot) {
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  NumaArray<char> small(std::size_t{4} << 20, numa::Placement::local(), numa::PageSize::k4K);
  small.first_touch();
  const auto r4 = numa::page_report(small.data(), small.bytes());
  EXPECT_EQ(r4.kernel_page_size, 4096);
  EXPECT_EQ(r4.page_size(), "4k") << r4.describe();
  NumaArray<char> thp(std::size_t{8} << 20, numa::Placement::local(), numa::PageSize::kTHP);
  thp.first_touch();
  const auto rt = numa::page_report(thp.data(), thp.bytes());
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(f, mode);
  if (mode.find("[never]") == std::string::npos) {
    EXPECT_EQ(thp.page_size(), numa::PageSize::kTHP);
    // The kernel may still refuse (fragmented memory): then the report says 4k.
    EXPECT_TRUE(rt.page_size() == "thp" || rt.page_size() == "4k") << rt.describe();
  }
  // Interleaving over a chosen node set works on any machine.
  NumaArray<char> inter(std::size_t{1} << 20, numa::Placement::interleave({0}), numa::PageSize::k4K);
  inter.first_touch();
  EXPECT_EQ(numa::page_report(inter.data(), inter.bytes()).on(0), 256);
}

// A description of more PUs than --threads accepts is refused before hwloc
// builds it (hwloc took 6.5 s for 6060 PUs and did not finish 60602).
TEST(NumaTopology, RefusesMoreThan4096SyntheticPus) {
  EXPECT_THROW(numa::Topology::from_synthetic("60602"), UsageError);
  EXPECT_THROW(numa::Topology::from_synthetic("pack:64 numa:1 core:128"), UsageError);
  EXPECT_EQ(numa::Topology::from_synthetic("pack:4 numa:1 core:1024").num_nodes(), 4);
}
