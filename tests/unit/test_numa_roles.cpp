// Per-array placement by role (numa/roles.hpp): parsing --place, the refusals
// (unknown role or policy, replicate of a written array, bind:N outside the
// topology), the resolution order (role policy, else the site's own choice),
// identical results whatever the placement, and the placement report of a
// kernel's own arrays under a synthetic 2-node topology.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/kernels/pr/pull_jacobi.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/error.hpp"
#include "traversal_test_graphs.hpp"

using namespace numagraph;

namespace {

// Every test leaves the process as the CLI would: machine topology, no roles, no report.
class NumaRoles : public ::testing::Test {
 protected:
  void TearDown() override {
    numa::set_role_placements({});
    numa::set_placement_report(false);
    numa::clear_placement_report();
    numa::Runtime::get().configure(numa::RuntimeConfig{});
  }
  static void configure(const std::string& topology) {
    numa::RuntimeConfig c;
    c.topology = topology;
    c.threads = 2;
    numa::Runtime::get().configure(c);
  }
};

std::string error_of(const std::string& place) {
  try {
    numa::parse_place(place);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST_F(NumaRoles, ParsesRolesAndPolicies) {
  const auto t = numa::parse_place("graph=interleave,ranks=partitioned,dist=bind:1,labels=local");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.at("graph").kind, numa::PlacementKind::kInterleave);
  EXPECT_EQ(t.at("ranks").kind, numa::PlacementKind::kPartitioned);
  EXPECT_EQ(t.at("dist").kind, numa::PlacementKind::kBind);
  EXPECT_EQ(t.at("dist").node, 1);
  EXPECT_EQ(t.at("dist").text(), "bind:1");
  EXPECT_EQ(t.at("labels").kind, numa::PlacementKind::kLocal);
  EXPECT_TRUE(numa::parse_place("").empty());
}

TEST_F(NumaRoles, RefusesWhatItCannotDoAndSaysWhatIsValid) {
  EXPECT_NE(error_of("rank=interleave").find("use one of: graph, ranks, contrib"), std::string::npos)
      << error_of("rank=interleave");
  EXPECT_NE(error_of("ranks=spread").find("local, interleave, partitioned, bind:N, replicate"), std::string::npos);
  EXPECT_NE(error_of("ranks=bind:").find("unknown --place policy"), std::string::npos);
  EXPECT_NE(error_of("ranks").find("ROLE=POLICY"), std::string::npos);
  EXPECT_NE(error_of("ranks=local,ranks=interleave").find("twice"), std::string::npos);
  EXPECT_NE(error_of("ranks=replicate").find("written by the kernel"), std::string::npos);
  EXPECT_NE(error_of("graph=replicate").find("per-node copies"), std::string::npos);
  configure("pack:2 numa:1 core:1 pu:1");
  EXPECT_THROW(numa::set_role_placements(numa::parse_place("dist=bind:2")), UsageError);
  EXPECT_NO_THROW(numa::set_role_placements(numa::parse_place("dist=bind:1")));
}

TEST_F(NumaRoles, ARolePolicyWinsElseTheSiteChooses) {
  numa::set_role_placements(numa::parse_place("ranks=interleave"));
  const numa::Placement ranks = numa::placement_for("ranks", numa::Placement::partitioned());
  EXPECT_EQ(ranks.kind, numa::PlacementKind::kInterleave);
  EXPECT_TRUE(ranks.by_role);
  const numa::Placement contrib = numa::placement_for("contrib", numa::Placement::partitioned());
  EXPECT_EQ(contrib.kind, numa::PlacementKind::kPartitioned);
  EXPECT_FALSE(contrib.by_role);
  EXPECT_STREQ(contrib.role, "contrib");
  EXPECT_EQ(numa::placement_for("dist").kind, numa::default_placement().kind);
  EXPECT_EQ(numa::role_placements_text(), "ranks=interleave");
}

std::vector<double> pagerank_scores(const AnyGraph& any) {
  std::vector<double> out;
  visit(
      [&](const auto& g) {
        kernels::PageRankOptions o;
        o.tolerance = 0;
        o.max_iterations = 10;
        const auto r = kernels::pagerank_pull_jacobi(g, o);
        out.assign(r.scores.begin(), r.scores.end());
      },
      any);
  return out;
}

TEST_F(NumaRoles, ResultsAreTheSameBitsWhateverThePlacement) {
  configure("pack:2 numa:1 core:1 pu:1");
  const std::vector<double> base = pagerank_scores(test_graphs::make_kron(10, false, false));
  for (const char* place : {"graph=interleave,ranks=partitioned,contrib=bind:1",
                            "graph=partitioned,ranks=bind:0,contrib=interleave", "graph=bind:1,ranks=local"}) {
    numa::set_role_placements(numa::parse_place(place));
    EXPECT_EQ(pagerank_scores(test_graphs::make_kron(10, false, false)), base) << place;
  }
}

TEST_F(NumaRoles, TheReportListsTheKernelsOwnArrays) {
  configure("pack:2 numa:1 core:1 pu:1");
  numa::set_role_placements(numa::parse_place("ranks=interleave,contrib=bind:0"));
  numa::set_placement_report(true);
  numa::clear_placement_report();
  const AnyGraph g = test_graphs::make_kron(10, false, false);
  const std::vector<double> scores = pagerank_scores(g);
  const auto report = numa::placement_report();
  std::vector<std::string> roles;
  for (const auto& r : report) roles.push_back(r.role);
  EXPECT_EQ(roles, (std::vector<std::string>{"graph", "ranks", "contrib"}));
  const numa::ArrayReport& ranks = report[1];
  EXPECT_EQ(ranks.bytes, scores.size() * sizeof(double));
  EXPECT_EQ(ranks.asked, "interleave");
  EXPECT_EQ(ranks.obtained.rfind("interleave", 0), 0u) << ranks.obtained;
  EXPECT_GT(ranks.sampled, 0);
  std::int64_t present = 0;
  for (auto p : ranks.pages_per_node) present += p;
  EXPECT_EQ(present + ranks.not_present, ranks.sampled);
  EXPECT_EQ(report[2].asked, "bind:0");
  EXPECT_EQ(report[2].obtained.rfind("bind:0", 0), 0u) << report[2].obtained;
  EXPECT_EQ(report[2].arrays, 2);  // the two contribution buffers
  EXPECT_EQ(report[0].asked, "default (local)");
  const std::string json = numa::placement_report_json(report);
  EXPECT_NE(json.find("\"role\": \"ranks\", \"bytes\": " + std::to_string(ranks.bytes) + ", \"asked\": \"interleave\""),
            std::string::npos)
      << json;
  EXPECT_NE(numa::placement_report_text(report).find("ranks"), std::string::npos);
}

}  // namespace
