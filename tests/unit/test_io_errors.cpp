// Bad input, one test per case: the exception type, and that the message
// names the file and (for text formats) the exact line, also when the error
// lies deep in a file parsed by several threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "io_test_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;
using namespace numagraph::testing_io;

namespace {

const char* kMtxHead = "%%MatrixMarket matrix coordinate pattern general\n";

std::string ngr_bytes() {
  GeneratorOptions o;
  o.scale = 8;
  o.weighted = true;
  const std::string path = temp_path("good.ngr");
  write_graph(build_graph(generate_kronecker(o), {}), path);
  return read_bytes(path);
}

}  // namespace

// ---- edge lists ---------------------------------------------------------------

TEST(IoErrors, NonNumericWeight) {
  auto path = write_file("e1.wel", "0 1 2\n1 2 x\n");
  expect_input_error([&] { load(path); }, path, 2, "expected a weight");
}

TEST(IoErrors, MissingColumn) {
  auto path = write_file("e2.el", "0 1\n2 3\n4\n");
  expect_input_error([&] { load(path); }, path, 3, "missing target id");
}

TEST(IoErrors, MissingWeightColumn) {
  auto path = write_file("e3.wel", "0 1 2\n1 2\n");
  expect_input_error([&] { load(path); }, path, 2, "missing weight");
}

TEST(IoErrors, ExtraColumn) {
  auto path = write_file("e4.el", "0 1\n0 1 2\n");
  expect_input_error([&] { load(path); }, path, 2, "3 columns where the first edge line (line 1) has 2");
}

TEST(IoErrors, TruncatedLastLine) {
  auto path = write_file("e5.el", "0 1\n1 2\n3");
  expect_input_error([&] { load(path); }, path, 3, "missing target id");
}

// Ids that are not integers below 2^63 make every id a name, as in CSV, with
// a note naming the line (docs/formats.md).
TEST(IoErrors, NegativeIdMakesNamesWithANote) {
  const EdgeList e = read_edge_list(write_file("e6.el", "0 1\n-1 2\n"));
  ASSERT_NE(e.names, nullptr);
  EXPECT_EQ(*e.names, (std::vector<std::string>{"0", "1", "-1", "2"}));
  const InputDecision* ids = find_decision(e.decisions, "ids");
  ASSERT_NE(ids, nullptr);
  EXPECT_NE(ids->note.find("line 2 has '-1'"), std::string::npos) << ids->note;
}

TEST(IoErrors, IdAtLeastTwoToThe63MakesNamesWithANote) {
  const EdgeList e = read_edge_list(write_file("e7.el", "0 1\n0 9223372036854775808\n"));
  ASSERT_NE(e.names, nullptr);
  EXPECT_NE(find_decision(e.decisions, "ids")->note.find("2^63 or more"), std::string::npos);
}

TEST(IoErrors, NanWeight) {
  auto path = write_file("e8.wel", "0 1 1\n1 2 nan\n");
  expect_input_error([&] { load(path); }, path, 2, "not a finite number");
}

TEST(IoErrors, InfiniteWeight) {
  auto path = write_file("e9.wel", "0 1 inf\n");
  expect_input_error([&] { load(path); }, path, 1, "not a finite number");
}

TEST(IoErrors, EmptyFile) {
  auto path = write_file("empty.el", "");
  expect_input_error([&] { load(path); }, path, 1, "no edges");
}

TEST(IoErrors, OnlyComments) {
  auto path = write_file("comments.el", "# one\n# two\n% three\n");
  expect_input_error([&] { load(path); }, path, 3, "no edges");
}

TEST(IoErrors, DeepLineNumberUnderManyThreads) {
  // Errors near the end and in the middle of a 40k-line file with comments:
  // the first one is reported, with its exact line, whatever the threads.
  std::string text;
  for (int i = 1; i <= 40000; ++i) {
    if (i == 25000) text += "7\n";
    else if (i == 39000) text += "oops\n";
    else if (i % 1000 == 0) text += "# comment\n";
    else text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  }
  auto path = write_file("deep.el", text);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 5}) {
    omp_set_num_threads(threads);
    expect_input_error([&] { load(path); }, path, 25000, "missing target id");
  }
  omp_set_num_threads(saved);
}

TEST(IoErrors, TruncatedGzip) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string(i * 3 + 1) + "\n";
  const std::string plain = write_file("cut.el", text);
  ASSERT_EQ(std::system(("gzip -kf " + plain).c_str()), 0);
  const std::string gz = read_bytes(plain + ".gz");
  auto path = write_file("cut.el.gz", gz.substr(0, gz.size() / 2));
  expect_error<InputError>([&] { load(path); }, {path + ":", "truncated gzip"});
}

// ---- Matrix Market ------------------------------------------------------------

TEST(IoErrors, MtxMissingBanner) {
  auto path = write_file("m1.mtx", "3 3 1\n1 2\n");
  expect_input_error([&] { load(path); }, path, 1, "%%MatrixMarket");
}

TEST(IoErrors, MtxDenseArrayRefused) {
  auto path = write_file("m2.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  expect_input_error([&] { load(path); }, path, 1, "coordinate");
}

TEST(IoErrors, MtxIdBeyondDeclaredRange) {
  auto path = write_file("m3.mtx", std::string(kMtxHead) + "3 3 2\n1 2\n1 4\n");
  expect_input_error([&] { load(path); }, path, 4, "out of range 1..3");
}

TEST(IoErrors, MtxZeroIdIsNotOneBased) {
  auto path = write_file("m4.mtx", std::string(kMtxHead) + "3 3 1\n0 2\n");
  expect_input_error([&] { load(path); }, path, 3, "row index 0 is out of range");
}

TEST(IoErrors, MtxHeaderCountMismatch) {
  auto path = write_file("m5.mtx", std::string(kMtxHead) + "% c\n3 3 5\n1 2\n");
  expect_input_error([&] { load(path); }, path, 3, "declares 5 entries but the file has 1");
}

TEST(IoErrors, MtxNanValue) {
  auto path = write_file("m6.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 NaN\n");
  expect_input_error([&] { load(path); }, path, 3, "not a finite number");
}

TEST(IoErrors, MtxIntegerBeyondExactRange) {
  auto path = write_file("m7.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 16777217\n");
  expect_input_error([&] { load(path); }, path, 3, "2^24");
}

// ---- DIMACS -------------------------------------------------------------------

TEST(IoErrors, DimacsMissingProblemLine) {
  auto path = write_file("d1.gr", "c only\na 1 2 3\n");
  expect_input_error([&] { load(path); }, path, 2, "problem line");
}

TEST(IoErrors, DimacsIdBeyondDeclaredRange) {
  auto path = write_file("d2.gr", "c x\np sp 2 1\na 1 3 1\n");
  expect_input_error([&] { load(path); }, path, 3, "head id 3 is out of range 1..2");
}

TEST(IoErrors, DimacsTruncated) {
  auto path = write_file("d3.gr", "c x\np sp 3 3\na 1 2 1\na 2 3 1\n");
  expect_input_error([&] { load(path); }, path, 2, "declares 3 arcs but the file has 2");
}

TEST(IoErrors, DimacsTooManyArcs) {
  auto path = write_file("d4.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n");
  expect_input_error([&] { load(path); }, path, 1, "declares 1 arcs but the file has 2");
}

TEST(IoErrors, DimacsNegativeWeight) {
  auto path = write_file("d5.gr", "p sp 2 1\na 1 2 -5\n");
  expect_input_error([&] { load(path); }, path, 2, "negative weight");
}

TEST(IoErrors, DimacsRealWeight) {
  auto path = write_file("d6.gr", "p sp 2 1\na 1 2 1.5\n");
  expect_input_error([&] { load(path); }, path, 2, "arc weight");
}

TEST(IoErrors, DimacsIntegerWeightBeyondExactRange) {
  auto path = write_file("d7.gr", "p sp 2 1\na 1 2 99999999\n");
  expect_input_error([&] { load(path); }, path, 2, "2^24");
}

TEST(IoErrors, DimacsDeepLineUnderManyThreads) {
  std::string text = "c big\np sp 100 30000\n";
  for (int i = 0; i < 30000; ++i) text += i == 28123 ? "a 1 101 1\n" : "a 1 2 1\n";
  auto path = write_file("d8.gr", text);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(4);
  expect_input_error([&] { load(path); }, path, 28123 + 3, "out of range 1..100");
  omp_set_num_threads(saved);
}

// ---- METIS --------------------------------------------------------------------

TEST(IoErrors, MetisIdBeyondRange) {
  auto path = write_file("g1.graph", "% c\n2 1\n3\n1\n");
  expect_input_error([&] { load(path); }, path, 3, "out of range 1..2");
}

TEST(IoErrors, MetisHeaderCountMismatch) {
  auto path = write_file("g2.graph", "3 5\n2\n1 3\n2\n");
  expect_input_error([&] { load(path); }, path, 1, "declares 5 edges");
}

TEST(IoErrors, MetisAsymmetricNamesTheLine) {
  // Vertex 3 (line 4) lists 1, but vertex 1 (line 2) does not list 3.
  auto path = write_file("g3.graph", "3 2\n2\n1 3\n2 1\n");
  expect_input_error([&] { load(path); }, path, 4, "not symmetric");
}

TEST(IoErrors, MetisAsymmetricWeight) {
  auto path = write_file("g4.graph", "2 1 1\n2 5\n1 6\n");
  expect_input_error([&] { load(path); }, path, 2, "not symmetric");
}

TEST(IoErrors, MetisTruncated) {
  auto path = write_file("g5.graph", "4 1\n2\n1\n");
  expect_input_error([&] { load(path); }, path, 1, "only 2 vertex lines");
}

TEST(IoErrors, MetisTooManyVertexLines) {
  auto path = write_file("g6.graph", "2 1\n2\n1\n1\n");
  expect_input_error([&] { load(path); }, path, 4, "more vertex lines");
}

TEST(IoErrors, MetisNonPositiveWeight) {
  auto path = write_file("g7.graph", "2 1 1\n2 0\n1 0\n");
  expect_input_error([&] { load(path); }, path, 2, "positive");
  auto neg = write_file("g8.graph", "2 1 1\n2 -3\n1 -3\n");
  expect_input_error([&] { load(neg); }, neg, 2, "positive");
}

TEST(IoErrors, MetisBadFmt) {
  auto path = write_file("g9.graph", "% c\n2 1 7\n2\n1\n");
  expect_input_error([&] { load(path); }, path, 2, "fmt");
}

// ---- paths, binary formats ----------------------------------------------------

TEST(IoErrors, UnreadablePathGivesTheOsReason) {
  expect_error<IoError>([&] { load("/nonexistent/dir/graph.el"); }, {"/nonexistent/dir/graph.el", "No such file"});
  expect_error<IoError>([&] { load(::testing::TempDir()); }, {"directory"});
}

TEST(IoErrors, NgrBadMagic) {
  std::string b = ngr_bytes();
  b[0] = 'X';
  auto path = write_file("magic.ngr", b);
  expect_error<InputError>([&] { load(path); }, {path + ": ", "bad magic"});
}

TEST(IoErrors, NgrUnsupportedVersion) {
  std::string b = ngr_bytes();
  b[8] = 9;
  auto path = write_file("version.ngr", b);
  expect_error<InputError>([&] { load(path); }, {path + ": ", "unsupported .ngr version 9"});
}

TEST(IoErrors, NgrBadChecksumAndTheSkipOption) {
  std::string b = ngr_bytes();
  // A byte of the zero padding after the out offsets ((n + 1) x 8 bytes, then up
  // to the next multiple of 64): covered by the checksum, checked by nothing else.
  std::uint64_t n = 0, offsets_at = 0;
  std::memcpy(&n, b.data() + 16, 8);
  std::memcpy(&offsets_at, b.data() + 56, 8);
  const std::size_t pad = offsets_at + (n + 1) * 8;
  ASSERT_NE(pad % 64, 0u);
  b[pad] ^= 0x5a;
  auto path = write_file("sum.ngr", b);
  expect_error<InputError>([&] { load(path); }, {path + ": ", "checksum mismatch"});
  ReadOptions trust;
  trust.verify_checksum = false;
  EXPECT_NO_THROW(load_graph(path, trust));
}

TEST(IoErrors, NgrTruncated) {
  const std::string b = ngr_bytes();
  auto cut = write_file("cut.ngr", b.substr(0, b.size() / 3));
  expect_error<InputError>([&] { load(cut); }, {cut + ": "});
  ReadOptions trust;
  trust.verify_checksum = false;  // the section bounds are still checked
  expect_error<InputError>([&] { load_graph(cut, trust); }, {cut + ": ", "truncated"});
  auto tiny = write_file("tiny.ngr", b.substr(0, 50));
  expect_error<InputError>([&] { load(tiny); }, {tiny + ": ", "truncated"});
}

TEST(IoErrors, GapbsTruncated) {
  const std::string b = read_bytes(data_file("tiny.sg"));
  auto cut = write_file("cut.sg", b.substr(0, b.size() - 10));
  expect_error<InputError>([&] { load(cut); }, {cut + ": ", "truncated"});
}

TEST(IoErrors, GapbsWrongFlavour) {
  // A weighted file read as unweighted leaves bytes over (or fails a check).
  auto path = write_file("flavour.sg", read_bytes(data_file("tiny.wsg")));
  expect_error<InputError>([&] { load(path); }, {path + ": "});
}
