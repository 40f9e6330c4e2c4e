// The work-queues BC kernel (brandes_work_queues.hpp, seed 000's Algorithm 2)
// against the serial verifier: hand-drawn graphs with known scores, random
// graphs directed and undirected, disconnected graphs, Kronecker graphs,
// 1 to 4 threads, synthetic multi-node thread maps, both schedules (nwq and
// dynamic) and several task sizes; the same bits whatever the schedule;
// dry threads steal from a loaded queue; the per-thread working set; the
// entry point's choices and refusals.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/bc/brandes_work_queues.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/parallel/work_queue.hpp"
#include "numagraph/verify/bc.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;
using numagraph::kernels::BcSchedule;
using numagraph::kernels::BrandesWqOptions;
using numagraph::test_graphs::Arc;
using numagraph::test_graphs::make_graph;
using numagraph::test_graphs::make_kron;

namespace {

// Restores the OpenMP thread count on leaving the scope.
class Threads {
 public:
  explicit Threads(int t) : before_(omp_get_max_threads()) { omp_set_num_threads(t); }
  ~Threads() { omp_set_num_threads(before_); }

 private:
  int before_;
};

template <typename V>
std::vector<V> all_vertices(std::int64_t n) {
  std::vector<V> s;
  for (std::int64_t v = 0; v < n; ++v) s.push_back(static_cast<V>(v));
  return s;
}

// A random graph of `n` vertices and `m` arcs; with `components` > 1 the
// arcs stay inside id blocks, so the graph falls apart (plus isolated ones).
AnyGraph random_graph(std::uint64_t n, std::size_t m, bool directed, int components, unsigned seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t block = n / static_cast<std::uint64_t>(components);
  std::vector<Arc> arcs;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t c = rng() % static_cast<std::uint64_t>(components);
    arcs.push_back({c * block + rng() % (block - 2), c * block + rng() % (block - 2)});
  }
  return make_graph(arcs, n, directed, false);
}

struct Schedule {
  BcSchedule schedule;
  std::int64_t task;
};
const Schedule kSchedules[] = {{BcSchedule::kNwq, 16}, {BcSchedule::kNwq, 1}, {BcSchedule::kDynamic, 16},
                               {BcSchedule::kDynamic, 3}};

// Every schedule and thread count gives serial Brandes' sums, and the same
// bits as each other (integer path counts, per-vertex sums in arc order).
template <typename V>
void expect_exact_everywhere(const CSRGraph<V>& g, const std::vector<V>& sources, const std::vector<int>& thread_node,
                             const char* what) {
  const auto expected = verify::serial_brandes(g, sources);
  NumaArray<double> first;
  for (int threads = 1; threads <= 4; ++threads) {
    Threads scope(threads);
    for (const auto& s : kSchedules) {
      BrandesWqOptions o;
      o.schedule = s.schedule;
      o.task_size = s.task;
      if (static_cast<int>(thread_node.size()) == threads) o.thread_node = thread_node;
      const auto raw = kernels::betweenness_brandes_work_queues(g, sources, o);
      for (std::size_t v = 0; v < expected.size(); ++v)
        ASSERT_NEAR(raw[v], expected[v], 1e-9 * std::max(1.0, std::fabs(expected[v])))
            << what << ": vertex " << v << ", " << threads << " threads, " << kernels::to_string(s.schedule)
            << " task " << s.task;
      if (first.size() == 0) {
        first = NumaArray<double>(raw.size());
        std::copy(raw.begin(), raw.end(), first.begin());
      }
      for (std::size_t v = 0; v < expected.size(); ++v)
        ASSERT_EQ(raw[v], first[v]) << what << ": not the same bits at vertex " << v << ", " << threads << " threads, "
                                    << kernels::to_string(s.schedule);
    }
  }
}

class BcWqIds : public ::testing::TestWithParam<bool> {};

TEST_P(BcWqIds, PathStarIsolatedAndDiamond) {
  const AnyGraph any =
      make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 6}, {5, 7}, {5, 8}}, 10, false, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto sources = all_vertices<V>(g.num_vertices());
        const std::vector<double> expected = {0, 6, 8, 6, 0, 6, 0, 0, 0, 0};
        for (const auto schedule : {BcSchedule::kNwq, BcSchedule::kDynamic}) {
          Threads scope(2);
          BrandesWqOptions o;
          o.schedule = schedule;
          const auto raw = kernels::betweenness_brandes_work_queues(g, sources, o);
          for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "vertex " << v;
        }
      },
      any);
  const AnyGraph diamond = make_graph({{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}}, 5, true, GetParam());
  numagraph::visit(
      [](const auto& g) {
        using V = typename std::decay_t<decltype(g)>::vertex_type;
        const auto raw = kernels::betweenness_brandes_work_queues(g, all_vertices<V>(5));
        const std::vector<double> expected = {0, 1, 1, 3, 0};  // split path counts through 1 and 2
        for (std::size_t v = 0; v < expected.size(); ++v) EXPECT_DOUBLE_EQ(raw[v], expected[v]) << "vertex " << v;
      },
      diamond);
}

INSTANTIATE_TEST_SUITE_P(IdWidths, BcWqIds, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Ids64" : "Ids32"; });

TEST(BcWorkQueues, RandomAndDisconnectedGraphs) {
  for (const bool directed : {false, true})
    for (const int components : {1, 3}) {
      const AnyGraph any = random_graph(600, 2400, directed, components, 7 + components);
      const auto& g = std::get<Graph32>(any);
      std::vector<std::uint32_t> sources;
      for (std::uint32_t v = 0; v < 600; v += 97) sources.push_back(v);
      sources.push_back(599);  // isolated (outside every block)
      expect_exact_everywhere(g, sources, {}, directed ? "random directed" : "random undirected");
    }
}

TEST(BcWorkQueues, KroneckerWithMultiNodeThreadMaps) {
  for (const bool directed : {false, true}) {
    const AnyGraph any = make_kron(10, directed, false);
    const auto& g = std::get<Graph32>(any);
    const auto sources = kernels::pick_roots(g, 3, 3);
    // 4 threads on 2 nodes, and 3 threads on 3 nodes.
    expect_exact_everywhere(g, sources, {0, 0, 1, 1}, "kron, 2 nodes");
    expect_exact_everywhere(g, sources, {0, 1, 2}, "kron, 3 nodes");
  }
}

TEST(BcWorkQueues, ReusedWorkspaceAndAllSources) {
  const AnyGraph any = make_kron(8, true, false);
  const auto& g = std::get<Graph32>(any);
  kernels::BrandesWorkspace<std::uint32_t> ws;
  NumaArray<double> scores;
  const auto all = all_vertices<std::uint32_t>(g.num_vertices());
  const auto expected = verify::serial_brandes(g, all);
  for (int round = 0; round < 2; ++round) {
    // A brandes call in between shares the workspace.
    kernels::betweenness_brandes(g, kernels::pick_roots(g, 2, 9), scores, ws);
    kernels::betweenness_brandes_work_queues(g, all, scores, ws);
    for (std::size_t v = 0; v < expected.size(); ++v)
      ASSERT_NEAR(scores[v], expected[v], 1e-9 * std::max(1.0, expected[v])) << "vertex " << v;
  }
}

// WorkQueues::refill by the owner inside a region, and a dry thread steals
// from the loaded queue: thread 0 holds its first task until another thread
// has taken one from its queue (or 10 s pass).
TEST(BcWorkQueues, DryThreadStealsFromALoadedQueue) {
  const std::vector<int> owner{0, 1};
  parallel::WorkQueues q(owner, kernels::detail::wq_steal_order(2, {0, 0}, {}), 4);
  std::atomic<int> stolen_seen{0};
  std::vector<std::atomic<int>> seen(400);
#pragma omp parallel num_threads(2)
  {
    const int tid = omp_get_thread_num();
    q.refill(tid, tid == 0 ? 0 : 400, 400);  // thread 0: everything; thread 1: nothing
#pragma omp barrier
    bool first = true;
    q.drain(tid, [&](std::int64_t b, std::int64_t e, int queue) {
      if (tid != 0 && queue == 0) stolen_seen = 1;
      if (tid == 0 && first) {
        first = false;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!stolen_seen && std::chrono::steady_clock::now() < until) std::this_thread::yield();
      }
      for (auto i = b; i < e; ++i) seen[static_cast<std::size_t>(i)]++;
    });
  }
  EXPECT_EQ(stolen_seen.load(), 1);
  EXPECT_GT(q.stolen(1), 0);
  EXPECT_EQ(q.stolen(0), 0);
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
}

// The steal order follows the thread map: same node first, then by distance;
// with across_nodes off a thread steals only on its own node.
TEST(BcWorkQueues, StealOrderFollowsTheThreadMap) {
  const kernels::StealPolicy near{{{10, 12, 30}, {12, 10, 30}, {30, 30, 10}}, true};
  auto order = kernels::detail::wq_steal_order(6, {0, 0, 1, 1, 2, 2}, near);
  EXPECT_EQ(order[0], (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(order[4], (std::vector<int>{5, 0, 1, 2, 3}));
  auto local = kernels::detail::wq_steal_order(6, {0, 0, 1, 1, 2, 2}, {near.node_distance, false});
  EXPECT_EQ(local[3], (std::vector<int>{2}));
  // A thread map of the wrong size: one node.
  EXPECT_EQ(kernels::detail::wq_steal_order(2, {0, 1, 2}, {})[1], (std::vector<int>{0}));
}

// A hub's level is one thread's discovery, which the others may steal from
// under nwq: whether they do depends on the scheduler (on a loaded host one
// thread can drain its queue before the others wake), so the scores are
// checked here and the stealing itself, deterministically, by
// DryThreadStealsFromALoadedQueue. Under dynamic nobody steals.
TEST(BcWorkQueues, UnbalancedQueuesGiveBrandesScores) {
  std::vector<Arc> arcs;
  for (std::uint64_t leaf = 1; leaf <= 4000; ++leaf) {
    arcs.push_back({0, leaf});
    arcs.push_back({leaf, 4000 + leaf});  // a tail per leaf: work at level 1
  }
  const AnyGraph any = make_graph(arcs, 8001, false, false);
  const auto& g = std::get<Graph32>(any);
  const std::vector<std::uint32_t> sources(20, 0);
  Threads scope(4);
  NumaArray<double> scores;
  kernels::BrandesWorkspace<std::uint32_t> ws;
  BrandesWqOptions o;
  kernels::betweenness_brandes_work_queues(g, sources, scores, ws, o);
  // From the hub, each leaf lies on the one path to its tail; the source scores nothing.
  EXPECT_DOUBLE_EQ(scores[1], 20.0);
  EXPECT_DOUBLE_EQ(scores[0], 0.0);
  o.schedule = BcSchedule::kDynamic;
  EXPECT_EQ(kernels::betweenness_brandes_work_queues(g, sources, scores, ws, o).stolen_tasks, 0);
}

// Working set: with one thread, every vertex of the source's component
// (each expanded, each read as a neighbour); with several, each thread at
// most that and all together at least that.
TEST(BcWorkQueues, WorkingSetCountsDistinctVerticesPerSource) {
  const AnyGraph any = make_graph({{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 6, false, false);
  const auto& g = std::get<Graph32>(any);
  NumaArray<double> scores;
  kernels::BrandesWorkspace<std::uint32_t> ws;
  BrandesWqOptions o;
  o.measure_working_set = true;
  {
    Threads scope(1);
    const auto st = kernels::betweenness_brandes_work_queues(g, std::vector<std::uint32_t>{0, 5}, scores, ws, o);
    ASSERT_EQ(st.working_set.size(), 1u);
    EXPECT_DOUBLE_EQ(st.working_set[0], (5.0 + 1.0) / 2);  // the path, then the isolated vertex
  }
  const AnyGraph kron_any = make_kron(10, false, false);
  const auto& kg = std::get<Graph32>(kron_any);
  const auto sources = kernels::pick_roots(kg, 3, 1);
  const auto depth = test_graphs::queue_bfs(kg, sources[0]);
  std::int64_t reached = 0;
  for (auto d : depth) reached += d >= 0;
  Threads scope(3);
  for (const auto schedule : {BcSchedule::kNwq, BcSchedule::kDynamic}) {
    o.schedule = schedule;
    const auto st =
        kernels::betweenness_brandes_work_queues(kg, std::vector<std::uint32_t>{sources[0]}, scores, ws, o);
    ASSERT_EQ(st.working_set.size(), 3u);
    double sum = 0;
    for (double w : st.working_set) {
      EXPECT_LE(w, static_cast<double>(reached));
      sum += w;
    }
    EXPECT_GE(sum, static_cast<double>(reached));
  }
}

TEST(BcWorkQueues, EntryPointRunsItAndRefusesMisplacedOptions) {
  const AnyGraph any = make_kron(9, false, false);
  const auto& g = std::get<Graph32>(any);
  const auto sources = kernels::pick_roots(g, 4, 2);
  const auto expected = verify::serial_brandes(g, sources);
  Execution flat;
  flat.engine = EngineChoice::kFlat;
  BcOptions o;
  o.variant = BcVariant::kWorkQueues;
  o.schedule = BcSchedule::kDynamic;
  o.task_size = 8;
  o.measure_working_set = true;
  const BcResult r = numagraph::betweenness(g, sources, o, flat);
  EXPECT_EQ(r.variant, BcVariant::kWorkQueues);
  EXPECT_EQ(r.working_set.size(), static_cast<std::size_t>(omp_get_max_threads()));
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_NEAR(r.scores[v], expected[v], 1e-9 * std::max(1.0, expected[v]));
  EXPECT_EQ(kernels::parse_bc_variant("work-queues"), BcVariant::kWorkQueues);
  EXPECT_EQ(kernels::parse_bc_schedule("dynamic"), BcSchedule::kDynamic);
  EXPECT_THROW(kernels::parse_bc_schedule("static"), UsageError);
  // Options of the work-queues variant on another one, or on the engine.
  BcOptions bad;
  bad.schedule = BcSchedule::kDynamic;
  EXPECT_THROW(numagraph::betweenness(g, sources, bad, flat), UsageError);
  bad = {};
  bad.measure_working_set = true;
  EXPECT_THROW(numagraph::betweenness(g, sources, bad, flat), UsageError);
  bad = {};
  bad.variant = BcVariant::kBrandes;
  bad.task_size = 4;
  EXPECT_THROW(numagraph::betweenness(g, sources, bad, flat), UsageError);
  Execution numa;
  numa.engine = EngineChoice::kNuma;
  bad = {};
  bad.variant = BcVariant::kWorkQueues;
  bad.schedule = BcSchedule::kDynamic;
  EXPECT_THROW(numagraph::betweenness(g, sources, bad, numa), UsageError);
  // On the engine, work-queues names the engine's kernel.
  BcOptions engine_wq;
  engine_wq.variant = BcVariant::kWorkQueues;
  const BcResult e = numagraph::betweenness(g, sources, engine_wq, numa);
  EXPECT_TRUE(e.ran.numa);
  for (std::size_t v = 0; v < expected.size(); ++v)
    ASSERT_NEAR(e.scores[v], expected[v], 1e-9 * std::max(1.0, expected[v]));
}

}  // namespace
