// Serial cut-offs (kernels/thread_budget.hpp): a flat call on a graph below
// its problem's cut-off runs on one thread, NUMAGRAPH_SERIAL_BELOW overrides
// every cut-off, and a bad value is refused. The unit tests' graphs are small
// and exist to exercise the parallel code, so this file turns the cut-offs
// off for the whole binary (unless the environment already sets them); the
// tests here set the variable themselves.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <string>

#include "engine_test_util.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/kernels/thread_budget.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

namespace {

const bool kParallelTests = [] { return ::setenv("NUMAGRAPH_SERIAL_BELOW", "0", /*overwrite=*/0) == 0; }();

// Sets NUMAGRAPH_SERIAL_BELOW for a scope and puts the previous value back.
class SerialBelow {
 public:
  explicit SerialBelow(const char* value) {
    if (const char* old = std::getenv("NUMAGRAPH_SERIAL_BELOW")) previous_ = old, had_ = true;
    if (value) ::setenv("NUMAGRAPH_SERIAL_BELOW", value, 1);
    else ::unsetenv("NUMAGRAPH_SERIAL_BELOW");
  }
  ~SerialBelow() {
    if (had_) ::setenv("NUMAGRAPH_SERIAL_BELOW", previous_.c_str(), 1);
    else ::unsetenv("NUMAGRAPH_SERIAL_BELOW");
  }

 private:
  std::string previous_;
  bool had_ = false;
};

}  // namespace

TEST(ThreadBudget, TheTableAppliesWithoutTheVariable) {
  ASSERT_TRUE(kParallelTests);
  SerialBelow unset(nullptr);
  const eid_t cut = kernels::serial_below_arcs("pagerank");
  EXPECT_GT(cut, 0);
  EXPECT_EQ(kernels::call_threads("pagerank", cut - 1, 8), 1);
  EXPECT_EQ(kernels::call_threads("pagerank", cut, 8), 8);
  EXPECT_EQ(kernels::call_threads("no_such_problem", 1, 8), 8);  // problems without a cut-off keep the pool
}

TEST(ThreadBudget, TheVariableOverridesAndZeroTurnsItOff) {
  {
    SerialBelow zero("0");
    EXPECT_EQ(kernels::call_threads("bfs", 1, 4), 4);
  }
  {
    SerialBelow big("1000000000");
    EXPECT_EQ(kernels::call_threads("bfs", 999999999, 4), 1);
    EXPECT_EQ(kernels::call_threads("bfs", 1000000000, 4), 4);
  }
  for (const char* bad : {"-1", "many", "12x", "1e6"}) {
    SerialBelow b(bad);
    EXPECT_THROW(kernels::serial_below_arcs("bfs"), UsageError) << bad;
  }
}

TEST(ThreadBudget, ASmallGraphRunsOnOneThreadAndThePoolIsRestored) {
  const Graph32 g = engine_test::kron(10, /*directed=*/false);
  omp_set_num_threads(2);
  Execution flat;
  flat.engine = EngineChoice::kFlat;
  PageRankOptions o;
  {
    SerialBelow cut(std::to_string(g.num_arcs() + 1).c_str());
    EXPECT_EQ(pagerank(g, o, flat).ran.threads, 1);
    EXPECT_EQ(omp_get_max_threads(), 2);
  }
  {
    SerialBelow off("0");
    EXPECT_EQ(pagerank(g, o, flat).ran.threads, 2);
    const BfsResult<std::uint32_t> r = bfs(g, std::uint32_t{1}, BfsOptions{}, flat);
    EXPECT_EQ(r.ran.threads, 2);
  }
}

TEST(ThreadBudget, OneOrTwoThreadsGiveTheSameBfsDepths) {
  const Graph32 g = engine_test::kron(11, /*directed=*/false);
  omp_set_num_threads(2);
  Execution flat;
  flat.engine = EngineChoice::kFlat;
  BfsOptions o;
  o.compute_depth = true;
  NumaArray<std::int32_t> serial, parallel;
  {
    SerialBelow cut("1000000000");
    auto r = bfs(g, std::uint32_t{0}, o, flat);
    ASSERT_EQ(r.ran.threads, 1);
    serial = std::move(r.depth);
  }
  {
    SerialBelow off("0");
    auto r = bfs(g, std::uint32_t{0}, o, flat);
    ASSERT_EQ(r.ran.threads, 2);
    parallel = std::move(r.depth);
  }
  ASSERT_EQ(serial.size(), parallel.size());
  for (std::size_t v = 0; v < serial.size(); ++v) EXPECT_EQ(serial[v], parallel[v]) << v;
}

TEST(ThreadBudget, BetweennessCountsEverySourceAsASweep) {
  const Graph32 g = engine_test::kron(10, /*directed=*/false);
  omp_set_num_threads(2);
  Execution flat;
  flat.engine = EngineChoice::kFlat;
  SerialBelow cut(std::to_string(2 * g.num_arcs()).c_str());
  EXPECT_EQ(betweenness(g, std::vector<std::uint32_t>{1}, BcOptions{}, flat).ran.threads, 1);
  EXPECT_EQ(betweenness(g, std::vector<std::uint32_t>{1, 2, 3}, BcOptions{}, flat).ran.threads, 2);
}
