// CSV/TSV reader and writer: header detection, vertex names (numbered in
// order of first appearance, carried by the graph through renumbering),
// weights, RFC 4180 quoting, and errors that name file:line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/reorder/apply.hpp"

namespace numagraph {
namespace {

using testing_io::expect_error;
using testing_io::read_bytes;
using testing_io::write_file;

EdgeList read(const std::string& path, Header h = Header::kAuto) {
  ReadOptions o;
  o.header = h;
  return read_edge_list(path, o);
}

std::vector<std::uint64_t> ids(const NumaArray<std::uint64_t>& a) { return {a.begin(), a.end()}; }

TEST(Csv, ExtensionsPickTheFormat) {
  EXPECT_EQ(format_from_extension("a/b.csv"), Format::kCsv);
  EXPECT_EQ(format_from_extension("b.tsv.gz"), Format::kTsv);
  EXPECT_EQ(parse_format("tsv"), Format::kTsv);
  expect_error<UsageError>([] { parse_format("xls"); }, {"csv tsv"});
}

TEST(Csv, IntegerIdsWithAHeaderAreDetected) {
  const auto e = read(write_file("h.csv", "src,dst\n0,1\n1,2\n"));
  ASSERT_TRUE(e.header.has_value());
  EXPECT_TRUE(*e.header);
  EXPECT_TRUE(e.header_detected);
  EXPECT_EQ(ids(e.src), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(ids(e.dst), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(e.names, nullptr);
  EXPECT_FALSE(e.weighted());
}

TEST(Csv, IntegerFirstLineIsData) {
  const auto e = read(write_file("nh.csv", "5,1\n1,2\n"));
  EXPECT_FALSE(*e.header);
  EXPECT_EQ(e.size(), 2u);
  EXPECT_EQ(e.src[0], 5u);
}

TEST(Csv, AnyHeaderTextOverIntegerIdsIsAHeader) {
  // Not a common column name, but the ids below are integers.
  const auto e = read(write_file("odd.csv", "Person A,Person B\n0,1\n"));
  EXPECT_TRUE(*e.header);
  EXPECT_EQ(e.size(), 1u);
}

TEST(Csv, NamesWithAColumnNameHeader) {
  const auto e = read(write_file("n.tsv", "From\tTo\nbob\talice\nalice\tcarol\ncarol\tbob\n"));
  EXPECT_TRUE(*e.header);
  ASSERT_NE(e.names, nullptr);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"bob", "alice", "carol"}));  // first appearance
  EXPECT_EQ(ids(e.src), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(ids(e.dst), (std::vector<std::uint64_t>{1, 2, 0}));
}

TEST(Csv, NamesWithoutHeaderKeepTheFirstLine) {
  const auto e = read(write_file("nn.csv", "bob,alice\nalice,carol\n"));
  EXPECT_FALSE(*e.header);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"bob", "alice", "carol"}));
  EXPECT_EQ(e.size(), 2u);
}

TEST(Csv, OneNonIntegerIdMakesEveryIdAName) {
  const auto e = read(write_file("mix.csv", "10,20\n20,x\n"));
  ASSERT_NE(e.names, nullptr);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"10", "20", "x"}));
  EXPECT_EQ(ids(e.src), (std::vector<std::uint64_t>{0, 1}));
}

TEST(Csv, HeaderFlagsOverrideDetection) {
  const auto path = write_file("flags.csv", "1,2\n2,3\n");
  EXPECT_EQ(read(path, Header::kYes).size(), 1u);
  const auto names = write_file("flags2.csv", "src,dst\na,b\n");
  const auto e = read(names, Header::kNo);
  EXPECT_FALSE(*e.header);
  EXPECT_FALSE(e.header_detected);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"src", "dst", "a", "b"}));
}

TEST(Csv, WeightsIntegerAndReal) {
  const auto i = read(write_file("wi.csv", "source,target,weight\n0,1,3\n1,2,4\n"));
  EXPECT_EQ(i.weight_kind, WeightKind::kInteger);
  EXPECT_EQ(i.weights[1], 4.0f);
  const auto r = read(write_file("wr.tsv", "a\tb\t0.5\nb\tc\t2\n"));
  EXPECT_EQ(r.weight_kind, WeightKind::kReal);
  EXPECT_EQ(r.weights[0], 0.5f);
}

TEST(Csv, QuotedFieldsCrlfAndComments) {
  const auto e = read(write_file("q.csv",
                                 "\xEF\xBB\xBF# a comment\r\nsource,target\r\n\"Smith, J\",\"say \"\"hi\"\"\"\r\n"
                                 "\r\n \"two\nlines\" , b \r\n"));
  EXPECT_TRUE(*e.header);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"Smith, J", "say \"hi\"", "two\nlines", "b"}));
}

TEST(Csv, ErrorsNameFileAndLine) {
  const auto one = write_file("one.tsv", "1 2\n");
  expect_error<InputError>([&] { read(one); }, {one + ":1:", "one column", "tabs"});
  const auto ragged = write_file("ragged.csv", "0,1,2\n1,2\n");
  expect_error<InputError>([&] { read(ragged); }, {ragged + ":2:", "2 columns", "same columns"});
  const auto open = write_file("open.csv", "0,1\n\"a,b\n1,2\n");
  expect_error<InputError>([&] { read(open); }, {open + ":2:", "no closing quote"});
  const auto stray = write_file("stray.csv", "0,1\na\"b,c\n");
  expect_error<InputError>([&] { read(stray); }, {stray + ":2:", "quote inside an unquoted field"});
  const auto after = write_file("after.csv", "0,1\n\"a\"b,c\n");
  expect_error<InputError>([&] { read(after); }, {after + ":2:", "after the closing quote"});
  const auto weight = write_file("w.csv", "source,target,weight\n0,1,2\n1,2,heavy\n");
  expect_error<InputError>([&] { read(weight); }, {weight + ":3:", "weight", "'heavy'", "--weight-column none"});
  const auto empty_id = write_file("e.csv", "0,1\n,2\n");
  expect_error<InputError>([&] { read(empty_id); }, {empty_id + ":2:", "empty source"});
}

std::string decided(const EdgeList& e, const std::string& key) {
  const InputDecision* d = find_decision(e.decisions, key);
  return d ? d->value : "(absent)";
}

TEST(Csv, ExtraColumnsAreIgnoredWithANote) {
  const auto e = read(write_file("four.csv", "a,b\n1,2,3,4\n"));
  EXPECT_TRUE(*e.header);
  EXPECT_EQ(decided(e, "weight_column"), "3");
  EXPECT_EQ(decided(e, "extra_columns"), "4");
  EXPECT_NE(find_decision(e.decisions, "extra_columns")->note.find("ignored"), std::string::npos);
  EXPECT_EQ(e.weights[0], 3.0f);
}

TEST(Csv, TextThirdColumnIsNotAWeight) {
  const auto e = read(write_file("label.csv", "0,1,red\n1,2,blue\n"));
  EXPECT_FALSE(e.weighted());
  EXPECT_EQ(decided(e, "weight_column"), "none");
  EXPECT_NE(find_decision(e.decisions, "weight_column")->note.find("'red', not a number"), std::string::npos);
}

TEST(Csv, YearColumnIsNotAWeightUnlessAsked) {
  const auto path = write_file("since.csv", "user_a,user_b,since\n5,6,2015\n6,7,2016\n");
  const auto e = read(path);
  EXPECT_FALSE(e.weighted());
  EXPECT_EQ(decided(e, "weight_column"), "none");
  ReadOptions o;
  o.weight_column = "since";
  const auto w = read_edge_list(path, o);
  EXPECT_EQ(w.weights[1], 2016.0f);
  EXPECT_EQ(decided(w, "weight_column"), "since");
}

TEST(Csv, PandasAndRIndexColumnsAreSkipped) {
  const auto pandas = read(write_file("pd.csv", ",user_a,user_b,since\n0,1001,1002,2015\n1,1002,1003,2016\n"));
  EXPECT_EQ(decided(pandas, "index_column"), "1");
  EXPECT_EQ(ids(pandas.src), (std::vector<std::uint64_t>{1001, 1002}));
  EXPECT_FALSE(pandas.weighted());
  const auto r = read(write_file("r.csv", "\"\",\"from\",\"to\",\"weight\"\n\"1\",\"a\",\"b\",2\n\"2\",\"b\",\"c\",3\n"));
  EXPECT_EQ(decided(r, "index_column"), "1");
  EXPECT_EQ(decided(r, "weight_column"), "weight");
  EXPECT_EQ(*r.names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(r.weights[1], 3.0f);
}

TEST(Csv, HeaderOfWordsAboveNamesIsDetected) {
  const auto e = read(write_file("pf.csv", "person,friend\nAlice,Bob\nBob,Carol\n"));
  EXPECT_TRUE(*e.header);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"Alice", "Bob", "Carol"}));
  // Two edges that share nothing: line 1 cannot be told from an edge, and is kept.
  const auto kept = read(write_file("ab.csv", "a,b\nc,d\n"));
  EXPECT_FALSE(*kept.header);
  EXPECT_NE(find_decision(kept.decisions, "header")->note.find("--header"), std::string::npos);
}

TEST(Csv, EmptyAndHeaderOnlyFilesAreRefused) {
  const auto empty = write_file("empty.csv", "");
  expect_error<InputError>([&] { read(empty); }, {empty + ":1:", "no edges"});
  const auto head = write_file("head.csv", "source,target\n");
  expect_error<InputError>([&] { read(head); }, {head + ":1:", "only a header", "--no-header"});
}

TEST(Csv, NamesSurviveBuildRelabelAndReorder) {
  const auto path = write_file("g.csv", "x,y\ny,z\nz,w\n");
  ReadOptions ro;
  BuildOptions bo;
  bo.relabel = Relabel::kOn;
  const AnyGraph any = load_graph(path, ro, bo);
  const auto& g = std::get<Graph32>(any);
  ASSERT_TRUE(g.named());
  EXPECT_EQ((*g.names())[g.label(kernels::dense_id_of(g, std::string("z")))], "z");
  // A renumbering keeps the names of the user ids.
  NumaArray<std::uint32_t> order(4);
  for (std::uint32_t i = 0; i < 4; ++i) order[i] = 3 - i;
  auto p = reorder::Permutation<std::uint32_t>::from_old_of_new(std::move(order));
  const auto r = reorder::apply_permutation(g, p);
  ASSERT_TRUE(r.named());
  EXPECT_EQ(r.names(), g.names());
  EXPECT_EQ((*r.names())[r.permutation().to_old(0)], "w");
  expect_error<UsageError>([&] { kernels::dense_id_of(g, std::string("Z")); }, {"'Z' is not a name"});
}

TEST(Csv, NamedGraphsAreWrittenOnlyWhereNamesFit) {
  const auto path = write_file("rt.csv", "source,target,weight\n\"a,1\",b,2\nb,#c,3\n");
  const AnyGraph g = load_graph(path);
  const auto out = testing_io::temp_path("rt_out.tsv");
  write_graph(g, out);
  EXPECT_EQ(read_bytes(out), "source\ttarget\tweight\n\"a,1\"\tb\t2\nb\t\"#c\"\t3\n");
  const auto back = read(out);
  EXPECT_EQ(*back.names, (std::vector<std::string>{"a,1", "b", "#c"}));
  // .ngr keeps them in its names section (reordered graphs too: tests/cli/test_ngr_names.py).
  const auto ngr = testing_io::temp_path("rt_out.ngr");
  write_graph(g, ngr);
  const AnyGraph loaded = load_graph(ngr);
  numagraph::visit([](const auto& h) {
    ASSERT_TRUE(h.named());
    EXPECT_EQ(*h.names(), (std::vector<std::string>{"a,1", "b", "#c"}));
  }, loaded);
  for (const char* bad : {"x.el", "x.mtx", "x.wsg"})
    expect_error<UsageError>([&] { write_graph(g, testing_io::temp_path(bad)); }, {"vertex names", "would be lost", ".ngr, .csv"});
}

TEST(Csv, NumericGraphWritesIds) {
  const AnyGraph g = load_graph(testing_io::data_file("tiny.el"));
  const auto out = testing_io::temp_path("ids.csv");
  write_graph(g, out);
  const std::string text = read_bytes(out);
  EXPECT_EQ(text.rfind("source,target\n", 0), 0u) << text;
  const auto e = read(out);
  EXPECT_EQ(e.names, nullptr);
  EXPECT_EQ(static_cast<std::int64_t>(e.size()), std::visit([](const auto& x) { return x.num_edges(); }, g));
}

}  // namespace
}  // namespace numagraph
