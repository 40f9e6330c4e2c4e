// The execution context: the engine choice, the machine picture a call
// reads (its CPU count taken before pinning), the kernel cache (one
// partitioned graph, rebuilt for another configuration, dropped for another
// graph), the phases a call reports, and refusals of what a problem cannot do.
#include <gtest/gtest.h>
#include <sched.h>

#include <limits>
#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

namespace {

class Execution_ : public ::testing::Test {
 protected:
  void TearDown() override { numa::Runtime::get().configure(numa::RuntimeConfig{}); }
};

Graph32 kron(int scale) { return engine_test::kron(scale, /*directed=*/false); }

int cpus_of_this_thread() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  return CPU_COUNT(&set);
}

// The process's CPUs, read before any test runs: a test that configures the
// runtime leaves the main thread pinned to one CPU for the tests after it.
const int kCpusAtStartup = cpus_of_this_thread();

// Records the call's own phases; the kernels' inner phases (levels,
// iterations: profile/current.hpp) nest inside them and are left out.
struct RecordingListener : PhaseListener {
  std::vector<std::string> events;
  int depth = 0;
  void begin(std::string_view p) override {
    if (depth++ == 0) events.push_back("+" + std::string(p));
  }
  void end(std::string_view p) override {
    if (--depth == 0) events.push_back("-" + std::string(p));
  }
};

}  // namespace

TEST(ExecutionEngine, ParsesTheThreeChoicesAndRefusesOthers) {
  EXPECT_EQ(parse_engine("auto"), EngineChoice::kAuto);
  EXPECT_EQ(parse_engine("flat"), EngineChoice::kFlat);
  EXPECT_EQ(parse_engine("numa"), EngineChoice::kNuma);
  EXPECT_THROW(parse_engine("polymer"), UsageError);
  Execution x;
  MachineView one, two;
  two.nodes = 2;
  EXPECT_FALSE(x.numa_engine(one));
  EXPECT_TRUE(x.numa_engine(two));
  x.engine = EngineChoice::kFlat;
  EXPECT_FALSE(x.numa_engine(two));
}

// The main thread is pinned to one CPU after configure(); the machine
// picture still counts the process's CPUs (cross-node stealing in BC was off
// in every pinned run while it read the pinned thread's mask).
TEST_F(Execution_, MachineViewCountsTheProcessCpusNotThePinnedThreads) {
  numa::RuntimeConfig c;
  c.threads = 2;
  c.bind = numa::Bind::kCompact;
  numa::Runtime::get().configure(c);
  const MachineView m = MachineView::current();
  EXPECT_EQ(m.process_cpus, kCpusAtStartup);
  if (kCpusAtStartup >= 2) {
    EXPECT_EQ(cpus_of_this_thread(), 1) << "configure() pins the calling thread";
    EXPECT_TRUE(m.threads_fit());
  }
}

TEST_F(Execution_, CacheKeepsOnePartitionedGraphPerConfiguration) {
  const Graph32 g = kron(8), other = kron(7);
  KernelCache cache;
  const MachineView m = MachineView::current();
  double built = 0;
  const auto* first = &cache.partitioned(g, {true, false}, m, built);
  EXPECT_GT(built, 0);
  const double after_first = built;
  EXPECT_EQ(&cache.partitioned(g, {true, false}, m, built), first);
  EXPECT_EQ(built, after_first) << "a cached copy costs nothing";
  const std::uint64_t id = first->id();
  EXPECT_NE(cache.partitioned(g, {false, false}, m, built).id(), id) << "other parts: rebuilt";
  const std::uint64_t pull_id = cache.partitioned(g, {false, false}, m, built).id();
  numa::Runtime::get().configure(numa::RuntimeConfig{});
  EXPECT_NE(cache.partitioned(g, {false, false}, MachineView::current(), built).id(), pull_id)
      << "a new runtime configuration: rebuilt";
  int& slot = cache.workspace<int>(g);
  slot = 42;
  EXPECT_EQ(cache.workspace<int>(g), 42);
  EXPECT_EQ(cache.workspace<int>(other), 0) << "another graph: the cache starts afresh";
}

TEST(ExecutionCall, ReportsSetupOnceAndItsPhases) {
  const Graph32 g = kron(9);
  KernelCache cache;
  RecordingListener listener;
  Execution x;
  x.engine = EngineChoice::kNuma;
  x.cache = &cache;
  x.listener = &listener;
  const auto first = bfs(g, 1u, {}, x);
  EXPECT_TRUE(first.ran.numa);
  EXPECT_GT(first.ran.setup_s, 0);
  const auto second = bfs(g, 1u, {}, x);
  EXPECT_EQ(second.ran.setup_s, 0) << "the partitioned graph came from the cache";
  EXPECT_EQ(listener.events, (std::vector<std::string>{"+setup", "-setup", "+bfs", "-bfs", "+setup", "-setup", "+bfs",
                                                       "-bfs"}));
  x.engine = EngineChoice::kFlat;
  EXPECT_FALSE(bfs(g, 1u, {}, x).ran.numa);
}

TEST(ExecutionCall, RefusesWhatAProblemCannotDo) {
  const Graph32 g = kron(6);
  Execution numa;
  numa.engine = EngineChoice::kNuma;
  EXPECT_THROW(triangles(g, {}, numa), UsageError) << "no engine version";
  engine::AccessCounts counts;
  Execution account;
  account.account = &counts;
  EXPECT_THROW(triangles(g, {}, account), UsageError) << "nothing to instrument";
  PageRankOptions gs;
  gs.variant = PageRankVariant::kGaussSeidel;
  EXPECT_THROW(pagerank(g, gs, numa), UsageError) << "the engine has Jacobi only";
  BfsOptions coarse;
  coarse.summary_bits = 1024;
  EXPECT_THROW(bfs(g, 0u, coarse, numa), UsageError) << "the engine's summary is fixed";
  EXPECT_NO_THROW(bfs(g, 0u, coarse, Execution{}));
  PageRankOptions nan_damping;
  nan_damping.damping = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(pagerank(g, nan_damping), UsageError);
}

// The NetworkX stopping rule (L1 change < n * tolerance) is the same on both
// engines: the engine once compared with the tolerance as given and ran to
// the iteration limit.
TEST(ExecutionCall, PageRankStopsAfterTheSameIterationsOnEveryEngine) {
  const Graph32 g = kron(10);
  PageRankOptions o;
  o.networkx = true;
  o.tolerance = 1e-6;
  o.max_iterations = 100;
  Execution flat, numa;
  flat.engine = EngineChoice::kFlat;
  numa.engine = EngineChoice::kNuma;
  const auto a = pagerank(g, o, flat), b = pagerank(g, o, numa);
  EXPECT_LT(a.iterations, 100);
  EXPECT_EQ(a.iterations, b.iterations);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) ASSERT_NEAR(a.scores[v], b.scores[v], 1e-12);
}
