// Hardening of the readers and writers (issue #27): atomic writes, .ngr
// structural validation with and without the checksum, gzip for CSR formats
// and the gzip ratio guard, memory guards on declared sizes, weights that do
// not fit a float. Every case here crashed, allocated without bound or gave
// a silently wrong answer before.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <ctime>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

#include "io_test_util.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/util/atomic_file.hpp"

using namespace numagraph;
using namespace numagraph::testing_io;

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A small weighted directed graph with in-edges, written as .ngr.
std::string small_ngr(const std::string& name, bool weighted = true, bool directed = true) {
  EdgeList e;
  const std::uint64_t src[] = {0, 0, 1, 2, 3, 3}, dst[] = {1, 2, 2, 3, 0, 1};
  e.src = NumaArray<std::uint64_t>(6);
  e.dst = NumaArray<std::uint64_t>(6);
  for (int i = 0; i < 6; ++i) e.src[i] = src[i], e.dst[i] = dst[i];
  if (weighted) {
    e.weights = NumaArray<weight_t>(6);
    for (int i = 0; i < 6; ++i) e.weights[i] = static_cast<weight_t>(i + 1);
    e.weight_kind = WeightKind::kInteger;
  }
  BuildOptions b;
  b.symmetrize = !directed;
  b.in_edges = directed;
  const std::string path = temp_path(name);
  write_graph(build_graph(std::move(e), b), path);
  return path;
}

// The .ngr header fields the tests patch (docs/formats.md).
std::uint64_t header_u64(const std::string& bytes, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}
void put_u64(std::string& bytes, std::size_t at, std::uint64_t v) { std::memcpy(bytes.data() + at, &v, 8); }
void put_u32(std::string& bytes, std::size_t at, std::uint32_t v) { std::memcpy(bytes.data() + at, &v, 4); }
std::size_t section_at(const std::string& bytes, int s) { return header_u64(bytes, 56 + 8 * static_cast<std::size_t>(s)); }

AnyGraph load_unchecked(const std::string& path) {
  ReadOptions ro;
  ro.verify_checksum = false;
  return load_graph(path, ro);
}

}  // namespace

// ---- atomic writes -----------------------------------------------------------

TEST(IoHardening, AtomicFileLeavesNothingWhenNotCommitted) {
  const std::string path = temp_path("atomic_abandoned.el");
  write_bytes(path, "0 1\n");
  std::string temp;
  {
    AtomicFile f(path);
    temp = f.temp_path();
    EXPECT_TRUE(exists(temp));
    write_bytes(temp, "half a fi");
  }
  EXPECT_FALSE(exists(temp));
  EXPECT_EQ(read_bytes(path), "0 1\n");
}

TEST(IoHardening, AtomicFileReplacesOnCommit) {
  const std::string path = temp_path("atomic_done.el");
  write_bytes(path, "0 1\n");
  AtomicFile f(path);
  write_bytes(f.temp_path(), "2 3\n");
  f.commit();
  EXPECT_EQ(read_bytes(path), "2 3\n");
  EXPECT_FALSE(exists(f.temp_path()));
}

TEST(IoHardening, FailedWriterLeavesNoFile) {
  // gapbs files cannot keep original ids: refused after the output was opened.
  AnyGraph g = load_graph(data_file("tiny.el"), {}, [] {
    BuildOptions b;
    b.relabel = Relabel::kOn;
    return b;
  }());
  const std::string out = temp_path("refused.sg");
  EXPECT_THROW(write_graph(g, out), UsageError);
  EXPECT_FALSE(exists(out));
}

TEST(IoHardening, SavingOverTheMappedInputKeepsTheReaderValid) {
  const std::string path = small_ngr("self_save.ngr");
  AnyGraph g = load_graph(path);
  write_graph(g, path);  // the old inode stays mapped; the new file replaces the name
  write_graph(g, path);
  expect_same_any(g, load_graph(path));
}

TEST(IoHardening, OutputOntoInputIsRefused) {
  const std::string path = small_ngr("onto_input.ngr");
  const std::string link = temp_path("onto_input_link.ngr");
  ASSERT_EQ(::link(path.c_str(), link.c_str()), 0);
  expect_error<UsageError>([&] { refuse_output_onto_input(link, path, "OUT"); }, {"is the input graph", "another file"});
  EXPECT_NO_THROW(refuse_output_onto_input(temp_path("elsewhere.ngr"), path, "OUT"));
}

// ---- .ngr structural validation -------------------------------------------------

TEST(IoHardening, NgrNeighbourIdBeyondVertexCountIsRefusedWithoutChecksum) {
  const std::string path = small_ngr("bad_id.ngr");
  std::string bytes = read_bytes(path);
  put_u32(bytes, section_at(bytes, 1) + 4, 1000000);  // out neighbour 1 -> id 1000000 (n = 4)
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {path, "vertex id 1000000", "not below the vertex count 4"});
}

TEST(IoHardening, NgrDecreasingOffsetsAreRefused) {
  const std::string path = small_ngr("bad_offsets.ngr");
  std::string bytes = read_bytes(path);
  const std::size_t off = section_at(bytes, 0);
  put_u64(bytes, off + 8 * 2, 6);  // offsets 0 2 6 3 ... : decrease after vertex 2
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {path, "decrease after vertex 2"});
}

TEST(IoHardening, NgrUnsortedNeighbourListIsRefused) {
  const std::string path = small_ngr("unsorted.ngr");
  std::string bytes = read_bytes(path);
  const std::size_t nb = section_at(bytes, 1);
  put_u32(bytes, nb, 2);  // vertex 0's out-list 1 2 -> 2 1
  put_u32(bytes, nb + 4, 1);
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {path, "list of vertex 0 is not sorted"});
}

TEST(IoHardening, NgrInEdgeNeighboursAreValidatedToo) {
  const std::string path = small_ngr("bad_in.ngr");
  std::string bytes = read_bytes(path);
  put_u32(bytes, section_at(bytes, 4), 77);
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {"corrupt in neighbours", "vertex id 77"});
}

TEST(IoHardening, NgrDeclaredWeightsMissingAreRefused) {
  const std::string path = small_ngr("no_weights.ngr", /*weighted=*/false);
  std::string bytes = read_bytes(path);
  put_u32(bytes, 36, 1);  // weight kind: integer, but no weight section
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {"out weights section it declares is absent"});
}

TEST(IoHardening, NgrNonFiniteWeightsAreRefused) {
  const std::string path = small_ngr("nan_weights.ngr");
  std::string bytes = read_bytes(path);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(bytes.data() + section_at(bytes, 2) + 8, &nan, 4);
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {"NaN or infinite"});
}

TEST(IoHardening, NgrUndeclaredSectionAndUnknownFlagsAreRefused) {
  const std::string path = small_ngr("flags.ngr", /*weighted=*/true, /*directed=*/true);
  std::string bytes = read_bytes(path);
  std::string no_in = bytes;
  put_u32(no_in, 12, 1);  // directed, no in-edges flag, but the in sections are there
  write_bytes(path, no_in);
  expect_error<InputError>([&] { load_unchecked(path); }, {"do not declare it"});
  std::string unknown = bytes;
  put_u32(unknown, 12, 1 | 2 | 64);
  write_bytes(path, unknown);
  expect_error<InputError>([&] { load_unchecked(path); }, {"unknown flag bits"});
}

TEST(IoHardening, NgrHugeCountsAreRefusedNotWrapped) {
  const std::string path = small_ngr("huge.ngr");
  std::string bytes = read_bytes(path);
  put_u64(bytes, 16, ~std::uint64_t{0});  // n + 1 would wrap to 0
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {"bad header", "cannot be stored"});
}

TEST(IoHardening, NgrTruncatedSectionIsRefused) {
  const std::string path = small_ngr("short.ngr");
  std::string bytes = read_bytes(path);
  bytes.resize(section_at(bytes, 1) + 4);
  write_bytes(path, bytes);
  expect_error<InputError>([&] { load_unchecked(path); }, {"lies outside the file"});
}

// ---- gzip --------------------------------------------------------------------------

TEST(IoHardening, GzippedNgrAndGapbsLoad) {
  for (const std::string name : {"tiny.sg", "tiny.wsg"}) {
    const std::string plain = temp_path("gz_" + name);
    write_bytes(plain, read_bytes(data_file(name)));
    ASSERT_EQ(std::system(("gzip -kf " + plain).c_str()), 0);
    expect_same_any(load(plain), load(plain + ".gz"));
  }
  const std::string ngr = small_ngr("gz.ngr");
  ASSERT_EQ(std::system(("gzip -kf " + ngr).c_str()), 0);
  expect_same_any(load(ngr), load(ngr + ".gz"));
}

TEST(IoHardening, GzipBombIsRefusedEarly) {
  // 1 GiB of zeros as 1024 one-MiB gzip members (about 1 MB on disk).
  std::string member;
  {
    std::string zeros(1 << 20, '\0');
    uLongf cap = compressBound(zeros.size()) + 64;
    std::string buf(cap, '\0');
    z_stream z{};
    ASSERT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(zeros.data());
    z.avail_in = static_cast<uInt>(zeros.size());
    z.next_out = reinterpret_cast<Bytef*>(buf.data());
    z.avail_out = static_cast<uInt>(buf.size());
    ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    member = buf.substr(0, z.total_out);
    deflateEnd(&z);
  }
  std::string bomb;
  for (int i = 0; i < 1024; ++i) bomb += member;
  const std::string path = temp_path("bomb.el.gz");
  write_bytes(path, bomb);
  // CPU seconds, not wall: on a loaded machine the test waits for a core,
  // but the inflating done before the refusal stays the same.
  const std::clock_t start = std::clock();
  expect_error<ResourceError>([&] { load(path); }, {path, "gzip bomb", "gunzip"});
  EXPECT_LT(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC, 1.0);
}

// ---- memory guard and ids -------------------------------------------------------------

TEST(IoHardening, DeclaredVertexCountBeyondMemoryIsRefused) {
  const std::string path = write_file("lie.gr", "p sp 400000000 1\na 1 2 1\n");
  ::setenv("NUMAGRAPH_MEMORY_LIMIT", "1G", 1);
  expect_error<ResourceError>([&] { load(path); },
                              {path, "400000000 vertices (declared by its header)", "1.0 GiB", "NUMAGRAPH_MEMORY_LIMIT=off"});
  ::unsetenv("NUMAGRAPH_MEMORY_LIMIT");
}

TEST(IoHardening, GeneratorBeyondMemoryIsRefused) {
  GeneratorOptions o;
  o.scale = 36;
  expect_error<ResourceError>([&] { generate_kronecker(o); }, {"kron36", "68719476736 vertices", "needs about"});
}

TEST(IoHardening, IdsAtOrAbove2To63AreRefusedByTheBuilder) {
  EdgeList e;
  e.src = NumaArray<std::uint64_t>(1);
  e.dst = NumaArray<std::uint64_t>(1);
  e.src[0] = 0;
  e.dst[0] = ~std::uint64_t{0};
  e.source_name = "arrays";
  BuildOptions b;
  b.relabel = Relabel::kOff;
  expect_error<InputError>([&] { build_graph(std::move(e), b); }, {"18446744073709551615", "below 2^63"});
}

// ---- weights ------------------------------------------------------------------------

TEST(IoHardening, WeightsAFloatCannotHoldAreRefused) {
  auto big = write_file("big.wel", "0 1 2\n1 2 1e40\n");
  expect_input_error([&] { load(big); }, big, 2, "beyond the range of a 32-bit float");
  auto inexact = write_file("inexact.wel", "0 1 16777217\n");
  expect_input_error([&] { load(inexact); }, inexact, 1, "cannot be stored exactly");
  auto exact = write_file("exact.wel", "0 1 16777218\n1 2 0.1\n");
  EXPECT_NO_THROW(load(exact));
  auto mtx = write_file("big.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 -1e39\n");
  expect_input_error([&] { load(mtx); }, mtx, 3, "beyond the range of a 32-bit float");
}
