// Phases inside calls: the fan-out listener, the current and default
// listeners (profile/current.hpp), and the inner phases kernels mark
// (PageRank iterations, BFS levels, BC forward/backward per source).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/profile/current.hpp"
#include "numagraph/profile/fan_out.hpp"

namespace numagraph {
namespace {

// Writes "+name" on begin and "-name" on end, with a tag.
class Recorder final : public PhaseListener {
 public:
  explicit Recorder(std::vector<std::string>* log, std::string tag = {}) : log_(log), tag_(std::move(tag)) {}
  void begin(std::string_view p) override { log_->push_back(tag_ + "+" + std::string(p)); }
  void end(std::string_view p) override { log_->push_back(tag_ + "-" + std::string(p)); }

 private:
  std::vector<std::string>* log_;
  std::string tag_;
};

int count(const std::vector<std::string>& log, const std::string& what) {
  int k = 0;
  for (const auto& x : log) k += x == what;
  return k;
}

// Every end matches the last open begin of the same name (well nested).
bool nested(const std::vector<std::string>& log) {
  std::vector<std::string> open;
  for (const auto& x : log) {
    if (x[0] == '+') open.push_back(x.substr(1));
    else if (open.empty() || open.back() != x.substr(1)) return false;
    else open.pop_back();
  }
  return open.empty();
}

TEST(FanOutListener, BeginsInOrderEndsInReverse) {
  std::vector<std::string> log;
  Recorder a(&log, "a"), b(&log, "b");
  profile::FanOutListener f({&a, nullptr, &b, &a});  // null and repeats ignored
  EXPECT_EQ(f.size(), 2u);
  f.begin("x");
  f.end("x");
  EXPECT_EQ(log, (std::vector<std::string>{"a+x", "b+x", "b-x", "a-x"}));
}

TEST(FanOutListener, GetIsNullOneOrItself) {
  std::vector<std::string> log;
  Recorder a(&log), b(&log);
  profile::FanOutListener f;
  EXPECT_EQ(f.get(), nullptr);
  f.add(&a);
  EXPECT_EQ(f.get(), &a);
  f.add(&b);
  EXPECT_EQ(f.get(), &f);
  f.add(&f);  // itself: ignored (it would recurse)
  EXPECT_EQ(f.size(), 2u);
}

TEST(CurrentListener, ScopesNestAndRestore) {
  std::vector<std::string> log;
  Recorder a(&log, "a"), b(&log, "b");
  EXPECT_EQ(profile::current_listener(), nullptr);
  { profile::InnerPhase none("ignored"); }  // no listener: nothing recorded
  {
    profile::ListenerScope sa(&a);
    {
      profile::ListenerScope sb(&b);
      profile::InnerPhase p("x");
    }
    profile::InnerPhase p("y");
  }
  EXPECT_EQ(profile::current_listener(), nullptr);
  EXPECT_EQ(log, (std::vector<std::string>{"b+x", "b-x", "a+y", "a-y"}));
}

class PageRankPhases : public ::testing::TestWithParam<EngineChoice> {};

// One "iteration" phase per iteration, inside the "pagerank" phase, reached
// through the default listener (an Execution without one, as Python's).
TEST_P(PageRankPhases, OneIterationPhasePerIteration) {
  const Graph32 g = engine_test::kron(10, false);
  std::vector<std::string> log;
  Recorder rec(&log);
  profile::set_default_listener(&rec);
  Execution x;
  x.engine = GetParam();
  PageRankOptions o;
  o.tolerance = 0;
  o.max_iterations = 7;
  const PageRankResult r = pagerank(g, o, x);
  profile::set_default_listener(nullptr);
  EXPECT_EQ(r.iterations, 7);
  EXPECT_EQ(count(log, "+iteration"), r.iterations);
  EXPECT_EQ(count(log, "+pagerank"), 1);
  EXPECT_TRUE(nested(log));
  // Iterations lie inside the kernel's phase.
  std::size_t first = 0;
  while (log[first] != "+pagerank") ++first;
  for (std::size_t i = 0; i < first; ++i) EXPECT_NE(log[i], "+iteration");
  EXPECT_EQ(profile::current_listener(), nullptr) << "the call's listener is not left behind";
}

INSTANTIATE_TEST_SUITE_P(Engines, PageRankPhases, ::testing::Values(EngineChoice::kFlat, EngineChoice::kNuma));

TEST(InnerPhases, BfsLevelsNameTheirDirection) {
  const Graph32 g = engine_test::kron(12, false);
  for (EngineChoice e : {EngineChoice::kFlat, EngineChoice::kNuma}) {
    std::vector<std::string> log;
    Recorder rec(&log);
    Execution x;
    x.engine = e;
    x.listener = &rec;
    const auto root = engine_test::first_vertex_with_edges(g);
    bfs(g, root, BfsOptions{}, x);
    const int td = count(log, "+level top-down"), bu = count(log, "+level bottom-up");
    EXPECT_GT(td + bu, 1) << to_string(e);
    EXPECT_TRUE(nested(log)) << to_string(e);
  }
}

TEST(InnerPhases, BcForwardAndBackwardPerSourceOrBatch) {
  const Graph32 g = engine_test::kron(9, false);
  std::vector<std::uint32_t> sources;
  for (std::uint32_t s = 0; s < 5; ++s) sources.push_back(engine_test::first_vertex_with_edges(g) + s);
  struct Case {
    EngineChoice engine;
    BcVariant variant;
    int phases;  // forward (and backward) phases: one per source, or per batch (16 sources)
  };
  for (const Case c : {Case{EngineChoice::kFlat, BcVariant::kBrandes, 5},
                       Case{EngineChoice::kFlat, BcVariant::kDirectionOptimizing, 5},
                       Case{EngineChoice::kFlat, BcVariant::kWorkQueues, 5},
                       Case{EngineChoice::kFlat, BcVariant::kBatched, 1}, Case{EngineChoice::kNuma, BcVariant::kAuto, 5}}) {
    std::vector<std::string> log;
    Recorder rec(&log);
    Execution x;
    x.engine = c.engine;
    x.listener = &rec;
    BcOptions o;
    o.variant = c.variant;
    BcResult r;
    betweenness(g, sources, o, x, r);
    const std::string what = std::string(to_string(c.engine)) + " " + kernels::to_string(c.variant);
    EXPECT_EQ(count(log, "+forward"), c.phases) << what;
    EXPECT_EQ(count(log, "+backward"), c.phases) << what;
    EXPECT_TRUE(nested(log)) << what;
  }
}

}  // namespace
}  // namespace numagraph
