// Every reader on good tiny files: the committed samples in tests/data (the
// .sg/.wsg ones written by gapbs's converter) and temp files for the corner
// cases of the text syntax (comments, CRLF, commas, no final newline, chunk
// boundaries under several threads).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <string>

#include "io_test_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/io.hpp"

using namespace numagraph;
using namespace numagraph::testing_io;

namespace {

template <typename G>
std::vector<std::uint32_t> out_of(const G& g, std::uint32_t v) {
  auto nb = g.out_neighbors(v);
  return {nb.begin(), nb.end()};
}

template <typename G>
std::vector<float> weights_of(const G& g, std::uint32_t v) {
  auto w = g.out_weights(v);
  return {w.begin(), w.end()};
}

}  // namespace

TEST(IoReaders, EdgeList) {
  auto g = std::get<Graph32>(load(data_file("tiny.el")));
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_arcs(), 5);
  EXPECT_EQ(g.num_self_loops(), 1);
  EXPECT_EQ(out_of(g, 0), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_FALSE(g.weighted());
}

TEST(IoReaders, GzipIsTransparent) {
  auto plain = std::get<Graph32>(load(data_file("tiny.el")));
  auto gz = std::get<Graph32>(load(data_file("tiny.el.gz")));
  expect_same(plain, gz);
}

TEST(IoReaders, WeightedEdgeListKeepsIntegerKind) {
  auto g = std::get<Graph32>(load(data_file("tiny.wel")));
  EXPECT_EQ(g.weight_kind(), WeightKind::kInteger);
  EXPECT_EQ(weights_of(g, 0), (std::vector<float>{4, 1}));
  auto r = std::get<Graph32>(load(write_file("real.wel", "0 1 0.5\n1 2 -2\n2 0 1e3\n")));
  EXPECT_EQ(r.weight_kind(), WeightKind::kReal);
  EXPECT_EQ(weights_of(r, 1), (std::vector<float>{-2}));
  EXPECT_EQ(weights_of(r, 2), (std::vector<float>{1000}));
}

TEST(IoReaders, SnapWithHeaderComments) {
  auto g = std::get<Graph32>(load(data_file("tiny_snap.txt")));
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_arcs(), 4);
  EXPECT_EQ(format_from_extension("x/y.txt.gz"), Format::kSnap);
}

TEST(IoReaders, MatrixMarketSymmetricRealIsUndirected) {
  auto g = std::get<Graph32>(load(data_file("tiny.mtx")));
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_edges(), 4);
  EXPECT_EQ(g.num_arcs(), 8);
  EXPECT_EQ(g.weight_kind(), WeightKind::kReal);
  EXPECT_EQ(out_of(g, 0), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(weights_of(g, 0), (std::vector<float>{0.5f, 1.25f}));
}

TEST(IoReaders, MatrixMarketPatternGeneralAndIntegerField) {
  auto g = std::get<Graph32>(load(write_file("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n")));
  EXPECT_TRUE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.num_edges(), 2);
  auto i = std::get<Graph32>(load(write_file("i.mtx", "%%MatrixMarket matrix coordinate integer general\n% c\n\n2 3 1\n2 3 -7\n")));
  EXPECT_EQ(i.num_vertices(), 3);
  EXPECT_EQ(i.weight_kind(), WeightKind::kInteger);
  EXPECT_EQ(weights_of(i, 1), (std::vector<float>{-7}));
}

TEST(IoReaders, DimacsIsDirectedOneBasedWeighted) {
  auto g = std::get<Graph32>(load(data_file("tiny.gr")));
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_arcs(), 5);
  EXPECT_EQ(g.weight_kind(), WeightKind::kInteger);
  EXPECT_EQ(out_of(g, 2), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(weights_of(g, 2), (std::vector<float>{2, 8}));
}

TEST(IoReaders, MetisWeightedEmitsEachEdgeOnce) {
  EdgeList e = read_edge_list(data_file("tiny.graph"));
  EXPECT_TRUE(e.undirected);
  EXPECT_EQ(e.size(), 5u);
  for (std::size_t k = 0; k < e.size(); ++k) EXPECT_LT(e.src[k], e.dst[k]);
  auto g = std::get<Graph32>(load(data_file("tiny.graph")));
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_edges(), 5);
  EXPECT_EQ(weights_of(g, 1), (std::vector<float>{3, 2, 5}));
}

TEST(IoReaders, MetisIsolatedVerticesVertexWeightsAndLoops) {
  auto g = std::get<Graph32>(load(write_file("iso.graph", "% metis\n4 1\n2\n1\n\n\n")));
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_edges(), 1);
  // fmt 110 with ncon 2: a size and two weights lead each line.
  auto w = std::get<Graph32>(load(write_file("vw.graph", "2 1 110 2\n1 5 6 2\n1 7 8 1\n")));
  EXPECT_EQ(w.num_edges(), 1);
  EXPECT_FALSE(w.weighted());
  // A self-loop is listed once and counts as one edge.
  EdgeList loops = read_edge_list(write_file("loop.graph", "2 2\n1 2\n1\n"));
  EXPECT_EQ(loops.size(), 2u);
}

TEST(IoReaders, GapbsFilesWrittenByGapbs) {
  auto sg = std::get<Graph32>(load(data_file("tiny.sg")));
  EXPECT_TRUE(sg.directed());
  EXPECT_TRUE(sg.has_in_edges());
  EXPECT_EQ(sg.num_vertices(), 4);
  EXPECT_EQ(sg.num_arcs(), 4);  // gapbs dropped the self-loop 3->3
  EXPECT_EQ(out_of(sg, 0), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(sg.in_degree(2), 2);
  auto wsg = std::get<Graph32>(load(data_file("tiny.wsg")));
  EXPECT_EQ(wsg.weight_kind(), WeightKind::kInteger);
  EXPECT_EQ(weights_of(wsg, 0), (std::vector<float>{4, 1}));
  auto sym = std::get<Graph32>(load(data_file("tiny_sym.wsg")));
  EXPECT_FALSE(sym.directed());
  EXPECT_EQ(sym.num_edges(), 4);
  EXPECT_EQ(weights_of(sym, 2), (std::vector<float>{1, 2, 7}));
}

TEST(IoReaders, TextSyntaxCornerCases) {
  // Comments of both kinds, indentation, tabs, commas, '+', CRLF, blank
  // lines and no final newline.
  EdgeList e = read_edge_list(write_file("odd.el", "# c\n% c\n  0 1\n\n1\t2\r\n+2,3\n   \n3 0  \r\n4 5"));
  ASSERT_EQ(e.size(), 5u);
  const std::uint64_t src[] = {0, 1, 2, 3, 4}, dst[] = {1, 2, 3, 0, 5};
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(e.src[k], src[k]);
    EXPECT_EQ(e.dst[k], dst[k]);
  }
  // 19-digit ids below 2^63 go through the checked path and are accepted.
  EdgeList big = read_edge_list(write_file("big.el", "9223372036854775807 1000000000000000000\n"));
  EXPECT_EQ(big.src[0], 9223372036854775807ULL);
  EXPECT_EQ(big.dst[0], 1000000000000000000ULL);
}

TEST(IoReaders, ParallelChunksKeepOrderAndCounts) {
  // 50k lines with comments every 997 lines: every thread count gives the
  // same arrays in file order.
  std::string text;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> expect;
  for (int i = 0; i < 50000; ++i) {
    if (i % 997 == 0) text += "# comment " + std::to_string(i) + "\n";
    expect.emplace_back(i, (i * 7919) % 50000);
    text += std::to_string(i) + " " + std::to_string((i * 7919) % 50000) + "\n";
  }
  const std::string path = write_file("many.el", text);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3, 8}) {
    omp_set_num_threads(threads);
    EdgeList e = read_edge_list(path);
    ASSERT_EQ(e.size(), expect.size());
    for (std::size_t k = 0; k < e.size(); ++k) {
      ASSERT_EQ(e.src[k], expect[k].first);
      ASSERT_EQ(e.dst[k], expect[k].second);
    }
  }
  omp_set_num_threads(saved);
}

TEST(IoReaders, FormatFromContentAndForced) {
  auto g = std::get<Graph32>(load(write_file("noext", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")));
  EXPECT_EQ(g.num_edges(), 1);
  auto h = std::get<Graph32>(load(write_file("noext2", "# c\n0 1 3\n")));
  EXPECT_TRUE(h.weighted());
  auto d = std::get<Graph32>(load(write_file("noext3", "c x\np sp 2 1\na 1 2 3\n")));
  EXPECT_EQ(d.num_vertices(), 2);
  ReadOptions forced;
  forced.format = Format::kEdgeList;
  auto f = std::get<Graph32>(load_graph(write_file("edges.dat", "0 1\n1 2\n"), forced));
  EXPECT_EQ(f.num_edges(), 2);
  EXPECT_EQ(parse_format("wsg"), Format::kGapbsWeighted);
  EXPECT_THROW(parse_format("xyz"), UsageError);
}
