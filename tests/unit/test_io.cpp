// Readers and writers: every format on good tiny files, every bad-input case
// (exception type, file and line in the message), round trips through .ngr.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;

namespace {

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "numagraph_io_" + std::to_string(::getpid()) + "_" + name;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Expects `f` to throw E whose message contains every string in `parts`.
template <typename E, typename F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    FAIL() << "no exception; expected one mentioning " << parts.front();
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
  } catch (const std::exception& e) {
    FAIL() << "wrong exception type: " << e.what();
  }
}

AnyGraph load(const std::string& path, BuildOptions b = {}) { return load_graph(path, {}, b); }

template <typename G>
void expect_same(const G& a, const G& b) {
  ASSERT_EQ(a.num_vertices(), b.num_vertices());
  ASSERT_EQ(a.num_arcs(), b.num_arcs());
  ASSERT_EQ(a.directed(), b.directed());
  ASSERT_EQ(a.weight_kind(), b.weight_kind());
  ASSERT_EQ(a.num_self_loops(), b.num_self_loops());
  for (std::int64_t v = 0; v <= a.num_vertices(); ++v) ASSERT_EQ(a.out().offsets[v], b.out().offsets[v]);
  for (std::int64_t i = 0; i < a.num_arcs(); ++i) {
    ASSERT_EQ(a.out().neighbors[i], b.out().neighbors[i]);
    if (a.weighted()) {
      ASSERT_EQ(a.out().weights[i], b.out().weights[i]);
    }
  }
  if (a.directed()) {
    for (std::int64_t i = 0; i < a.num_arcs(); ++i) ASSERT_EQ(a.in_arrays().neighbors[i], b.in_arrays().neighbors[i]);
  }
  ASSERT_EQ(a.relabelled(), b.relabelled());
  for (std::int64_t v = 0; v < a.num_vertices(); ++v) ASSERT_EQ(a.label(static_cast<typename G::vertex_type>(v)), b.label(static_cast<typename G::vertex_type>(v)));
}

void expect_same_any(const AnyGraph& a, const AnyGraph& b) {
  ASSERT_EQ(a.index(), b.index());
  if (a.index() == 0) expect_same(std::get<Graph32>(a), std::get<Graph32>(b));
  else expect_same(std::get<Graph64>(a), std::get<Graph64>(b));
}

}  // namespace

TEST(Readers, EdgeListWithCommentsAndBlanks) {
  auto path = write_file("a.el", "# comment\n% other comment\n0 1\n\n1\t2\n  2   0  \r\n");
  auto g = std::get<Graph32>(load(path));
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.num_edges(), 3);
  EXPECT_TRUE(g.directed());
}

TEST(Readers, WeightedEdgeListKeepsIntegerKind) {
  auto g = std::get<Graph32>(load(write_file("a.wel", "0 1 5\n1 2 7\n")));
  EXPECT_EQ(g.weight_kind(), WeightKind::kInteger);
  EXPECT_EQ(g.out_weights(1)[0], 7.0f);
  auto r = std::get<Graph32>(load(write_file("b.wel", "0 1 0.5\n1 2 -2\n")));
  EXPECT_EQ(r.weight_kind(), WeightKind::kReal);
}

TEST(Readers, MatrixMarketSymmetricIsUndirected) {
  auto g = std::get<Graph32>(load(write_file("a.mtx",
      "%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 3\n2 1 1.5\n3 2 2\n4 4 1\n")));
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_edges(), 3);
  EXPECT_EQ(g.num_self_loops(), 1);
  EXPECT_EQ(g.out_weights(0)[0], 1.5f);
}

TEST(Readers, MatrixMarketPatternGeneral) {
  auto g = std::get<Graph32>(load(write_file("b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n")));
  EXPECT_TRUE(g.directed());
  EXPECT_FALSE(g.weighted());
  EXPECT_EQ(g.num_edges(), 2);
}

TEST(Readers, DimacsIsDirectedAndOneBased) {
  auto g = std::get<Graph32>(load(write_file("a.gr", "c road\np sp 3 2\na 1 2 10\nc mid\na 3 1 4\n")));
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_EQ(g.out_neighbors(2)[0], 0u);
  EXPECT_EQ(g.out_weights(0)[0], 10.0f);
}

TEST(Readers, MetisWithEdgeWeightsAndIsolatedVertex) {
  auto g = std::get<Graph32>(load(write_file("a.graph", "% metis\n4 1 001\n2 3\n1 3\n\n\n")));
  EXPECT_FALSE(g.directed());
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.num_edges(), 1);  // "2 3" in line 1: neighbour 2 with weight 3
  EXPECT_EQ(g.out_weights(0)[0], 3.0f);
  auto h = std::get<Graph32>(load(write_file("b.graph", "3 2\n2\n1 3\n2\n")));
  EXPECT_EQ(h.num_edges(), 2);
}

TEST(Readers, GzipIsTransparent) {
  const std::string plain = write_file("z.el", "0 1\n1 2\n");
  ASSERT_EQ(std::system(("gzip -kf " + plain).c_str()), 0);
  auto g = std::get<Graph32>(load(plain + ".gz"));
  EXPECT_EQ(g.num_edges(), 2);
}

TEST(Readers, ContentSniffingWithoutExtension) {
  auto g = std::get<Graph32>(load(write_file("noext", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")));
  EXPECT_EQ(g.num_edges(), 1);
  auto h = std::get<Graph32>(load(write_file("noext2", "0 1 3\n")));
  EXPECT_TRUE(h.weighted());
}

// ---- bad input: one test per case, each naming the file and line ----------

TEST(BadInput, NonNumericToken) {
  auto path = write_file("bad1.el", "0 1\n1 x\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "target id"});
}

TEST(BadInput, MissingColumn) {
  auto path = write_file("bad2.el", "0 1\n2 3\n4\n");
  expect_error<InputError>([&] { load(path); }, {path + ":3", "missing target id"});
}

TEST(BadInput, ExtraColumnInEdgeList) {
  auto path = write_file("bad3.el", "0 1 2\n");
  expect_error<InputError>([&] { load(path, {}); }, {path + ":1", "extra text"});
}

TEST(BadInput, NegativeId) {
  auto path = write_file("bad4.el", "0 1\n-1 2\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "negative"});
}

TEST(BadInput, HugeId) {
  auto path = write_file("bad5.el", "0 99999999999999999999\n");
  expect_error<InputError>([&] { load(path); }, {path + ":1", "too large"});
}

TEST(BadInput, NanWeight) {
  auto path = write_file("bad6.wel", "0 1 1\n1 2 nan\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "weight"});
}

TEST(BadInput, NegativeDimacsWeight) {
  auto path = write_file("bad7.gr", "p sp 2 1\na 1 2 -5\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "negative weight"});
}

TEST(BadInput, EmptyFile) {
  auto path = write_file("empty.el", "");
  expect_error<InputError>([&] { load(path); }, {path, "no edges"});
  auto comments = write_file("comments.el", "# nothing\n");
  expect_error<InputError>([&] { load(comments); }, {comments, "no edges"});
}

TEST(BadInput, MtxIdBeyondDeclaredRange) {
  auto path = write_file("bad8.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 4\n");
  expect_error<InputError>([&] { load(path); }, {path + ":4", "out of range 1..3"});
}

TEST(BadInput, MtxHeaderCountMismatch) {
  auto path = write_file("bad9.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n");
  expect_error<InputError>([&] { load(path); }, {path, "declares 5 entries", "has 1"});
}

TEST(BadInput, MtxMissingBanner) {
  auto path = write_file("bad10.mtx", "3 3 1\n1 2\n");
  expect_error<InputError>([&] { load(path); }, {path + ":1", "%%MatrixMarket"});
}

TEST(BadInput, DimacsIdBeyondDeclaredRange) {
  auto path = write_file("bad11.gr", "c x\np sp 2 1\na 1 3 1\n");
  expect_error<InputError>([&] { load(path); }, {path + ":3", "out of range 1..2"});
}

TEST(BadInput, DimacsTruncated) {
  auto path = write_file("bad12.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n");
  expect_error<InputError>([&] { load(path); }, {path, "declares 3 arcs", "truncated"});
}

TEST(BadInput, MetisIdBeyondRange) {
  auto path = write_file("bad13.graph", "2 1\n3\n1\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "out of range 1..2"});
}

TEST(BadInput, MetisHeaderCountMismatch) {
  auto path = write_file("bad14.graph", "3 5\n2\n1 3\n2\n");
  expect_error<InputError>([&] { load(path); }, {path, "declares 5 edges"});
}

TEST(BadInput, MetisAsymmetric) {
  auto path = write_file("bad15.graph", "3 2\n2 3\n1\n2\n");
  expect_error<InputError>([&] { load(path); }, {path, "not symmetric"});
}

TEST(BadInput, MetisTruncated) {
  auto path = write_file("bad16.graph", "4 1\n2\n1\n");
  expect_error<InputError>([&] { load(path); }, {path, "only 2 vertex lines"});
}

TEST(BadInput, UnreadablePath) {
  expect_error<IoError>([&] { load("/nonexistent/dir/graph.el"); }, {"/nonexistent/dir/graph.el", "No such file"});
}

TEST(BadInput, IntegerWeightBeyondExactRange) {
  auto path = write_file("bad17.gr", "p sp 2 1\na 1 2 99999999\n");
  expect_error<InputError>([&] { load(path); }, {path + ":2", "2^24"});
}

TEST(BadInput, NgrBadMagicVersionChecksumTruncation) {
  GeneratorOptions o;
  o.scale = 8;
  AnyGraph g = build_graph(generate_kronecker(o), {});
  const std::string path = temp_path("good.ngr");
  write_graph(g, path);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto variant = [&](const std::string& name, std::string b) { return write_file(name, b); };
  std::string bad = bytes;
  bad[0] = 'X';
  auto magic = variant("magic.ngr", bad);
  expect_error<InputError>([&] { load(magic); }, {magic, "bad magic"});
  bad = bytes;
  bad[8] = 9;  // version
  auto version = variant("version.ngr", bad);
  expect_error<InputError>([&] { load(version); }, {version, "unsupported .ngr version 9"});
  bad = bytes;
  bad[bad.size() / 2] ^= 0x5a;
  auto sum = variant("sum.ngr", bad);
  expect_error<InputError>([&] { load(sum); }, {sum, "checksum mismatch"});
  auto cut = variant("cut.ngr", bytes.substr(0, bytes.size() / 3));
  expect_error<InputError>([&] { load(cut); }, {cut});
  auto tiny = variant("tiny.ngr", bytes.substr(0, 50));
  expect_error<InputError>([&] { load(tiny); }, {tiny, "truncated"});
}

TEST(BadInput, TruncatedGapbsFile) {
  GeneratorOptions o;
  o.scale = 8;
  AnyGraph g = build_graph(generate_kronecker(o), {});
  const std::string path = temp_path("g.sg");
  write_graph(g, path);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto cut = write_file("cut.sg", bytes.substr(0, bytes.size() - 10));
  expect_error<InputError>([&] { load(cut); }, {cut, "truncated"});
}

// ---- round trips -------------------------------------------------------------

TEST(RoundTrip, EveryFormatThroughNgrIsIdentical) {
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
    for (const char* ext : {"el", "wel", "mtx", "sg", "wsg", "ngr"}) {
      const std::string path = temp_path(std::string("rt.") + ext);
      write_graph(g, path);
      BuildOptions b;
      b.symmetrize = !directed && (std::string(ext) == "el" || std::string(ext) == "wel");
      b.relabel = Relabel::kOff;
      AnyGraph back = load(path, b);
      const std::string ngr = temp_path(std::string("rt2_") + ext + ".ngr");
      write_graph(back, ngr);
      AnyGraph again = load(ngr, b);
      expect_same_any(back, again);
      // Edge lists lose trailing isolated vertices, .el and .sg lose weights:
      // for those compare the edge count; the other formats keep everything.
      const std::string x = ext;
      const bool keeps_everything = x == "mtx" || x == "wsg" || x == "ngr";
      if (keeps_everything) expect_same_any(g, back);
      else EXPECT_EQ(std::get<Graph32>(back).num_edges(), std::get<Graph32>(g).num_edges()) << ext;
    }
  }
}

TEST(RoundTrip, HugeIdsRelabelAndKeepTheirLabels) {
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
  // .ngr keeps the labels; .el writes them back out.
  const std::string ngr = temp_path("huge.ngr"), el = temp_path("huge_out.el");
  write_graph(g, ngr);
  AnyGraph back_any = load(ngr);
  const auto& back = std::get<Graph32>(back_any);
  EXPECT_TRUE(back.relabelled());
  EXPECT_EQ(back.label(0), base);
  write_graph(g, el);
  std::ifstream in(el);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, std::to_string(base) + " " + std::to_string(base + 5));
}
