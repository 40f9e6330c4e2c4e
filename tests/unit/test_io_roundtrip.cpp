// Round trips: every format -> CSR -> .ngr -> CSR gives identical arrays;
// writers and readers agree; huge ids relabel and keep their labels.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "io_test_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"

using namespace numagraph;
using namespace numagraph::testing_io;

namespace {

// file -> CSR -> .ngr -> CSR: identical arrays.
void expect_ngr_round_trip(const std::string& path, const std::string& tag) {
  SCOPED_TRACE(path);
  AnyGraph g = load(path);
  const std::string ngr = temp_path("rt_" + tag + ".ngr");
  write_graph(g, ngr);
  expect_same_any(g, load(ngr));
}

}  // namespace

TEST(IoRoundTrip, EveryCommittedSampleThroughNgr) {
  for (const char* name : {"tiny.el", "tiny.el.gz", "tiny.wel", "tiny_snap.txt", "tiny.mtx", "tiny.gr", "tiny.graph",
                           "tiny.sg", "tiny.wsg", "tiny_sym.wsg"})
    expect_ngr_round_trip(data_file(name), name);
}

TEST(IoRoundTrip, EveryWriterThroughNgrIsIdentical) {
  GeneratorOptions o;
  o.scale = 9;
  o.weighted = true;
  BuildOptions clean;
  clean.dedupe = true;
  clean.drop_self_loops = true;
  for (bool directed : {false, true}) {
    EdgeList e = generate_kronecker(o);
    e.undirected = !directed;
    AnyGraph g = build_graph(std::move(e), clean);
    for (const std::string ext : {"el", "wel", "mtx", "sg", "wsg", "ngr"}) {
      SCOPED_TRACE(ext + (directed ? " directed" : " undirected"));
      const std::string path = temp_path("rt." + ext);
      write_graph(g, path);
      BuildOptions b;
      b.symmetrize = !directed && (ext == "el" || ext == "wel");
      b.relabel = Relabel::kOff;
      AnyGraph back = load(path, b);
      const std::string ngr = temp_path("rt2_" + ext + ".ngr");
      write_graph(back, ngr);
      expect_same_any(back, load(ngr, b));
      // Edge lists lose trailing isolated vertices, .el and .sg lose weights:
      // for those compare the edge count; the other formats keep everything.
      if (ext == "mtx" || ext == "wsg" || ext == "ngr") {
        expect_same_any(g, back);
      } else {
        EXPECT_EQ(std::get<Graph32>(back).num_edges(), std::get<Graph32>(g).num_edges());
      }
    }
  }
}

TEST(IoRoundTrip, UndirectedEdgeListWritesEachEdgeOnce) {
  AnyGraph g = load(data_file("tiny.mtx"));
  const std::string path = temp_path("once.wel");
  write_graph(g, path);
  EdgeList e = read_edge_list(path);
  ASSERT_EQ(e.size(), 4u);
  for (std::size_t k = 0; k < e.size(); ++k) EXPECT_LE(e.src[k], e.dst[k]);
  EXPECT_EQ(e.weight_kind, WeightKind::kReal);
}

TEST(IoRoundTrip, HugeIdsRelabelAndKeepTheirLabels) {
  const std::uint64_t base = (1ULL << 40) - 3;
  auto path = write_file("huge.el", std::to_string(base) + " " + std::to_string(base + 5) + "\n" +
                                        std::to_string(base + 5) + " " + std::to_string(base + 1000000) + "\n");
  BuildReport report;
  AnyGraph g = load_graph(path, {}, {}, &report);
  EXPECT_TRUE(report.relabelled);
  EXPECT_FALSE(report.notice.empty());
  const auto& g32 = std::get<Graph32>(g);
  EXPECT_EQ(g32.num_vertices(), 3);
  EXPECT_EQ(g32.label(2), base + 1000000);
  // .ngr keeps the labels; .el writes them back out and reads back the same.
  const std::string ngr = temp_path("huge.ngr"), el = temp_path("huge_out.el");
  write_graph(g, ngr);
  AnyGraph from_ngr = load(ngr);
  expect_same_any(g, from_ngr);
  EXPECT_EQ(std::get<Graph32>(from_ngr).label(0), base);
  write_graph(g, el);
  std::ifstream in(el);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, std::to_string(base) + " " + std::to_string(base + 5));
  expect_same_any(g, load(el));
  // Rebuilding a relabelled .ngr (here: symmetrize) keeps the original ids.
  BuildOptions sym;
  sym.symmetrize = true;
  auto s = std::get<Graph32>(load(ngr, sym));
  EXPECT_FALSE(s.directed());
  EXPECT_EQ(s.label(2), base + 1000000);
}

TEST(IoRoundTrip, CsrFilesRebuildWhenOptionsAskForIt) {
  // tiny.el has a self-loop: loading its .ngr with drop_self_loops rebuilds.
  AnyGraph g = load(data_file("tiny.el"));
  const std::string ngr = temp_path("loops.ngr");
  write_graph(g, ngr);
  BuildOptions drop;
  drop.drop_self_loops = true;
  auto clean = std::get<Graph32>(load(ngr, drop));
  EXPECT_EQ(clean.num_self_loops(), 0);
  EXPECT_EQ(clean.num_arcs(), 4);
}
