// profile::Prefetchers on fake /dev/cpu/N/msr files (regular files with the
// register's 8 bytes at offset 0x1A4): bits 0-3 set for off, cleared for on,
// the old values written back by the destructor and on SIGTERM; a missing
// tree is reported, not fatal.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "numagraph/profile/prefetchers.hpp"

namespace fs = std::filesystem;
using numagraph::profile::Prefetchers;

namespace {

constexpr std::streamoff kReg = 0x1A4;

struct FakeMsrs {
  fs::path root;
  int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF));
  explicit FakeMsrs(std::uint64_t value) {
    root = fs::temp_directory_path() / ("ng-msr-" + std::to_string(getpid()) + "-" + std::to_string(value));
    for (int c = 0; c < cpus; ++c) {
      fs::create_directories(root / "cpu" / std::to_string(c));
      std::ofstream f(root / "cpu" / std::to_string(c) / "msr", std::ios::binary);
      const std::vector<char> zeros(static_cast<std::size_t>(kReg), 0);
      f.write(zeros.data(), kReg);
      f.write(reinterpret_cast<const char*>(&value), sizeof value);
    }
  }
  ~FakeMsrs() { fs::remove_all(root); }
  std::uint64_t read(int cpu) const {
    std::ifstream f(root / "cpu" / std::to_string(cpu) / "msr", std::ios::binary);
    f.seekg(kReg);
    std::uint64_t v = 0;
    f.read(reinterpret_cast<char*>(&v), sizeof v);
    return v;
  }
};

TEST(Prefetchers, OffSetsBitsAndTheDestructorRestores) {
  FakeMsrs msrs(0xA0);
  {
    Prefetchers p(false, msrs.root.string());
    ASSERT_TRUE(p.applied()) << p.reason();
    EXPECT_EQ(p.report(), "off");
    for (int c = 0; c < msrs.cpus; ++c) EXPECT_EQ(msrs.read(c), 0xAFu) << c;
  }
  for (int c = 0; c < msrs.cpus; ++c) EXPECT_EQ(msrs.read(c), 0xA0u) << c;
}

TEST(Prefetchers, OnClearsBits) {
  FakeMsrs msrs(0x3F);
  Prefetchers p(true, msrs.root.string());
  ASSERT_TRUE(p.applied()) << p.reason();
  EXPECT_EQ(msrs.read(0), 0x30u);
}

TEST(Prefetchers, SigtermRestoresBeforeDying) {
  FakeMsrs msrs(0x10);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Prefetchers p(false, msrs.root.string());
    if (!p.applied() || msrs.read(0) != 0x1F) _exit(3);
    raise(SIGTERM);
    _exit(4);  // not reached: SIGTERM's default action ends the process
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  for (int c = 0; c < msrs.cpus; ++c) EXPECT_EQ(msrs.read(c), 0x10u) << c;
}

TEST(Prefetchers, MissingDeviceIsReportedNotFatal) {
  Prefetchers p(false, "/nonexistent-msr-root");
  EXPECT_FALSE(p.applied());
  EXPECT_NE(p.report().find("unavailable: "), std::string::npos);
  EXPECT_NE(p.reason().find("modprobe msr"), std::string::npos) << p.reason();
}

}  // namespace
