// The recycle bin of numa::allocate/release (numa/memory.hpp): which
// released mappings a NumaArray::for_overwrite gets back, and which it must
// not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/numa/topology.hpp"

using namespace numagraph;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kBig = 3 * kMiB / sizeof(double);  // 3 MiB of doubles: a THP-sized mapping

// Every test starts from an empty bin with room for a few arrays.
class Recycle : public ::testing::Test {
 protected:
  void SetUp() override {
    numa::release_recycled();
    numa::set_recycle_limit(64 * kMiB);
  }
  void TearDown() override {
    numa::set_recycle_poison(false);
    numa::release_recycled();
  }
  // Local pages are recycled only where first touch cannot pick the wrong node.
  static bool local_recycles() { return numa::physical_nodes() == 1; }
};

TEST_F(Recycle, ForOverwriteGetsBackTheSameMappingWithItsContents) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  const double* where = nullptr;
  {
    auto a = NumaArray<double>::for_overwrite(kBig);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i);
    where = a.data();
  }
  EXPECT_GE(numa::recycled_bytes(), kBig * sizeof(double));
  auto b = NumaArray<double>::for_overwrite(kBig);
  EXPECT_EQ(b.data(), where);
  EXPECT_EQ(b[12345], 12345.0);  // not zeroed: the caller overwrites
  EXPECT_EQ(numa::recycled_bytes(), 0u);
}

// The debugging aid: a recycled array comes back as NaNs, so a kernel that
// reads before it writes cannot pass for correct on the previous call's values.
TEST_F(Recycle, PoisonFillsWhatComesBackWithNaN) {
  const auto parts = numa::Placement::partitioned();  // recycled on any machine
  const double* where = nullptr;
  {
    auto a = NumaArray<double>::for_overwrite(kBig, parts);
    for (double& x : a) x = 1.5;
    where = a.data();
  }
  numa::set_recycle_poison(true);
  auto b = NumaArray<double>::for_overwrite(kBig, parts);
  ASSERT_EQ(b.data(), where);
  for (std::size_t i = 0; i < b.size(); i += 511) ASSERT_TRUE(std::isnan(b[i])) << i;
  EXPECT_TRUE(std::isnan(b[b.size() - 1]));
}

TEST_F(Recycle, ZeroFilledArraysNeverTakeRecycledMemory) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  {
    auto a = NumaArray<double>::for_overwrite(kBig);
    for (double& x : a) x = 7;
  }
  const std::size_t kept = numa::recycled_bytes();
  ASSERT_GT(kept, 0u);
  NumaArray<double> zeros(kBig);
  for (std::size_t i = 0; i < zeros.size(); i += 4096) ASSERT_EQ(zeros[i], 0.0) << i;
  EXPECT_EQ(numa::recycled_bytes(), kept);
}

TEST_F(Recycle, OnlyTheSameMappedSizePageSizeAndPlacementMatch) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  const double* where = nullptr;
  {
    auto a = NumaArray<double>::for_overwrite(kBig);
    where = a.data();
  }
  // 2 MiB more: another mapped size.
  auto bigger = NumaArray<double>::for_overwrite(kBig + 2 * kMiB / sizeof(double));
  EXPECT_NE(bigger.data(), where);
  // 4 KB pages instead of THP.
  auto small_pages = NumaArray<double>::for_overwrite(kBig, numa::default_placement(), numa::PageSize::k4K);
  EXPECT_NE(small_pages.data(), where);
  // Another placement.
  auto interleaved = NumaArray<double>::for_overwrite(kBig, numa::Placement::interleave());
  EXPECT_NE(interleaved.data(), where);
  // A few elements fewer still maps the same whole huge pages.
  auto same = NumaArray<double>::for_overwrite(kBig - 10);
  EXPECT_EQ(same.data(), where);
}

TEST_F(Recycle, SmallArraysAndExplicitPartitionsAreUnmapped) {
  { auto small = NumaArray<double>::for_overwrite(numa::kMinRecycledBytes / sizeof(double) / 2); }
  EXPECT_EQ(numa::recycled_bytes(), 0u);
  const auto bounds = std::make_shared<const std::vector<std::int64_t>>(std::vector<std::int64_t>{0, kBig});
  { auto parts = NumaArray<double>::for_overwrite(kBig, numa::Placement::partitioned(bounds)); }
  EXPECT_EQ(numa::recycled_bytes(), 0u);
}

// Partitioned by element count (the NUMA engine's working arrays): node
// ranges follow the element count, so only the same count and element size
// takes a kept mapping back, whatever the number of nodes.
TEST_F(Recycle, PartitionsByCountComeBackOnlyForTheSameElements) {
  const auto parts = numa::Placement::partitioned();
  const double* where = nullptr;
  {
    auto a = NumaArray<double>::for_overwrite(kBig, parts);
    where = a.data();
  }
  EXPECT_EQ(numa::recycled_bytes(), 4 * kMiB);
  {
    auto fewer = NumaArray<double>::for_overwrite(kBig - 10, parts);  // same huge pages, other ranges
    EXPECT_NE(fewer.data(), where);
    auto floats = NumaArray<float>::for_overwrite(2 * kBig, parts);  // same bytes, other element size
    EXPECT_NE(static_cast<const void*>(floats.data()), static_cast<const void*>(where));
    auto local = NumaArray<double>::for_overwrite(kBig);  // same size, other placement
    EXPECT_NE(local.data(), where);
  }
  auto same = NumaArray<double>::for_overwrite(kBig, parts);
  EXPECT_EQ(same.data(), where);
}

TEST_F(Recycle, TheLimitGivesBackTheOldestFirstAndZeroTurnsItOff) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  // 3 MiB and 5 MiB of doubles map 4 MiB and 6 MiB of huge pages; 7 MiB holds one.
  numa::set_recycle_limit(7 * kMiB);
  const double* first = nullptr;
  {
    auto a = NumaArray<double>::for_overwrite(kBig);
    auto b = NumaArray<double>::for_overwrite(kBig + 2 * kMiB / sizeof(double));
    first = a.data();
  }  // b is released first, then a: b, the oldest, is given back to make room for a
  EXPECT_EQ(numa::recycled_bytes(), 4 * kMiB);
  auto again = NumaArray<double>::for_overwrite(kBig);
  EXPECT_EQ(again.data(), first);
  EXPECT_EQ(numa::recycled_bytes(), 0u);

  numa::set_recycle_limit(0);
  EXPECT_EQ(numa::recycled_bytes(), 0u);
  { auto c = NumaArray<double>::for_overwrite(kBig); }
  EXPECT_EQ(numa::recycled_bytes(), 0u);
  EXPECT_EQ(numa::recycle_limit(), 0u);
}

TEST_F(Recycle, ConfiguringTheRuntimeEmptiesTheBin) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  { auto a = NumaArray<double>::for_overwrite(kBig); }
  ASSERT_GT(numa::recycled_bytes(), 0u);
  numa::RuntimeConfig config;
  config.threads = 2;
  numa::Runtime::get().configure(config);
  EXPECT_EQ(numa::recycled_bytes(), 0u);
}

// Small arrays are kept too, but never more than kMaxRecycledMappings of
// them: the oldest go back first, and the newest are the ones handed out.
TEST_F(Recycle, TheBinKeepsAtMostItsMappingCountNewestFirst) {
  if (!local_recycles()) GTEST_SKIP() << "local pages are not recycled on a machine with several NUMA nodes";
  const std::size_t small = numa::kMinRecycledBytes / sizeof(std::uint32_t);  // 4 KiB pages, no THP
  const std::size_t count = numa::kMaxRecycledMappings + 8;
  std::vector<NumaArray<std::uint32_t>> arrays;
  for (std::size_t i = 0; i < count; ++i) arrays.push_back(NumaArray<std::uint32_t>::for_overwrite(small));
  const std::uint32_t* newest = arrays.back().data();
  for (auto& a : arrays) a = NumaArray<std::uint32_t>();  // released oldest first
  EXPECT_EQ(numa::recycled_bytes(), numa::kMaxRecycledMappings * numa::kMinRecycledBytes);
  auto back = NumaArray<std::uint32_t>::for_overwrite(small);
  EXPECT_EQ(back.data(), newest);
  // Below the bound an array is always fresh.
  const std::size_t kept = numa::recycled_bytes();
  { auto tiny = NumaArray<std::uint32_t>::for_overwrite(small / 2); }
  EXPECT_EQ(numa::recycled_bytes(), kept);
}

}  // namespace
