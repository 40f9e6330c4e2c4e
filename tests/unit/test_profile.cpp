// The profiler: sources on fake sysfs/powercap trees (RAPL wrap-around,
// missing DRAM domain, unreadable files, numastat deltas over two nodes),
// the perf software events for real (task clock while spinning, page faults
// while touching new memory), the sampler's interval and phase attribution,
// and the JSON and CSV files read back.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_util.hpp"
#include "numagraph/execution.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/profile/numastat.hpp"
#include "numagraph/profile/perf_events.hpp"
#include "numagraph/profile/profile_file.hpp"
#include "numagraph/profile/rapl.hpp"
#include "numagraph/profile/sampler.hpp"
#include "numagraph/util/error.hpp"

using namespace numagraph;
using namespace numagraph::profile;
namespace fs = std::filesystem;

namespace {

// A temporary directory standing in for /sys, removed at the end.
class FakeSys {
 public:
  FakeSys() {
    std::string tmpl = (fs::temp_directory_path() / "numagraph-sysfs-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~FakeSys() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const std::string& root() const { return root_; }
  void write(const std::string& rel, const std::string& text) const {
    const fs::path p = fs::path(root_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  // A directory where a file is expected: reading it fails (EISDIR) even as root.
  void unreadable(const std::string& rel) const { fs::create_directories(fs::path(root_) / rel); }
  void rapl_zone(const std::string& zone, const std::string& name, std::uint64_t energy, std::uint64_t max) const {
    write("class/powercap/" + zone + "/name", name + "\n");
    write("class/powercap/" + zone + "/energy_uj", std::to_string(energy) + "\n");
    write("class/powercap/" + zone + "/max_energy_range_uj", std::to_string(max) + "\n");
  }
  void numastat(int node, std::uint64_t base) const {
    std::ostringstream s;
    s << "numa_hit " << base + 100 << "\nnuma_miss " << base + 1 << "\nnuma_foreign " << base + 2
      << "\ninterleave_hit " << base + 3 << "\nlocal_node " << base + 90 << "\nother_node " << base + 10 << "\n";
    write("devices/system/node/node" + std::to_string(node) + "/numastat", s.str());
  }

 private:
  std::string root_;
};

int metric_index(const Source& s, const std::string& name) {
  for (std::size_t j = 0; j < s.metrics().size(); ++j)
    if (s.metrics()[j].name == name) return static_cast<int>(j);
  return -1;
}

bool lists(const Source& s, const std::string& what, const std::string& reason_part = {}) {
  for (const auto& u : s.unavailable())
    if (u.what == what && u.reason.find(reason_part) != std::string::npos) return true;
  return false;
}

// A source whose counter is the seconds elapsed since its previous read,
// so a phase's total must equal the phase's length.
class ClockSource final : public Source {
 public:
  ClockSource() {
    add_metric("clock.elapsed", "s", MetricKind::kCounter);
    add_metric("clock.level", "1", MetricKind::kGauge);
  }
  const char* name() const override { return "clock"; }
  void start() override { last_ = std::chrono::steady_clock::now(); }
  void sample(double* v) override {
    const auto now = std::chrono::steady_clock::now();
    v[0] = std::chrono::duration<double>(now - last_).count();
    v[1] = 2.5;
    last_ = now;
    ++reads;
  }
  int reads = 0;

 private:
  std::chrono::steady_clock::time_point last_;
};

std::vector<std::unique_ptr<Source>> clock_only() {
  std::vector<std::unique_ptr<Source>> s;
  s.push_back(std::make_unique<ClockSource>());
  return s;
}

double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// ---- RAPL ----------------------------------------------------------------

TEST(ProfileRapl, DeltaWrapsAroundAtTheRange) {
  EXPECT_EQ(rapl_delta_uj(100, 350, 1000), 250);
  EXPECT_EQ(rapl_delta_uj(900, 50, 1000), 150) << "100 to the top, then 50 after the wrap";
  EXPECT_TRUE(std::isnan(rapl_delta_uj(900, 50, 0))) << "no range known: a decrease cannot be read";
}

TEST(ProfileRapl, PackageAndDramJoulesAndWattsAcrossAWrap) {
  FakeSys sys;
  const std::uint64_t max = 262143328850;
  sys.rapl_zone("intel-rapl:0", "package-0", max - 1000000, max);
  sys.rapl_zone("intel-rapl:0:0", "dram", 5000000, max);
  RaplSource rapl(sys.root());
  ASSERT_TRUE(rapl.available()) << rapl.reason();
  EXPECT_TRUE(rapl.unavailable().empty());
  const int pkg = metric_index(rapl, "rapl.package-0.energy"), dram = metric_index(rapl, "rapl.package-0.dram.energy");
  ASSERT_GE(pkg, 0);
  ASSERT_GE(dram, 0);
  EXPECT_EQ(rapl.metrics()[pkg].unit, "J");
  EXPECT_EQ(rapl.metrics()[pkg + 1].name, "rapl.package-0.power");
  EXPECT_EQ(rapl.metrics()[pkg + 1].kind, MetricKind::kGauge);
  rapl.start();
  sys.rapl_zone("intel-rapl:0", "package-0", 2000000, max);  // wrapped: 1 J to the top + 2 J
  sys.rapl_zone("intel-rapl:0:0", "dram", 5500000, max);
  sleep_ms(20);
  std::vector<double> v(rapl.metrics().size());
  rapl.sample(v.data());
  EXPECT_NEAR(v[pkg], 3.0, 1e-9);
  EXPECT_NEAR(v[dram], 0.5, 1e-9);
  EXPECT_GT(v[pkg + 1], 0);
  EXPECT_LT(v[pkg + 1], 3.0 / 0.019) << "watts = joules over the epoch (>= 20 ms)";
  EXPECT_NEAR(v[pkg + 1] / v[dram + 1], 6.0, 1e-9) << "both domains over the same epoch";
}

TEST(ProfileRapl, MissingDramDomainIsListed) {
  FakeSys sys;
  sys.rapl_zone("intel-rapl:0", "package-0", 10, 1000);
  sys.rapl_zone("intel-rapl:0:0", "core", 10, 1000);
  sys.rapl_zone("intel-rapl:1", "package-1", 10, 1000);
  sys.rapl_zone("intel-rapl:1:0", "dram", 10, 1000);
  RaplSource rapl(sys.root());
  EXPECT_GE(metric_index(rapl, "rapl.package-0.core.energy"), 0);
  EXPECT_GE(metric_index(rapl, "rapl.package-1.dram.energy"), 0);
  EXPECT_TRUE(lists(rapl, "package-0.dram", "no DRAM"));
  EXPECT_FALSE(lists(rapl, "package-1.dram"));
}

TEST(ProfileRapl, UnreadableEnergyFileIsUnavailableNotFatal) {
  FakeSys sys;
  sys.rapl_zone("intel-rapl:0", "package-0", 10, 1000);
  sys.write("class/powercap/intel-rapl:0:0/name", "dram\n");
  sys.write("class/powercap/intel-rapl:0:0/max_energy_range_uj", "1000\n");
  sys.unreadable("class/powercap/intel-rapl:0:0/energy_uj");
  RaplSource rapl(sys.root());
  EXPECT_GE(metric_index(rapl, "rapl.package-0.energy"), 0);
  EXPECT_EQ(metric_index(rapl, "rapl.package-0.dram.energy"), -1);
  EXPECT_TRUE(lists(rapl, "package-0.dram", "cannot read"));
}

TEST(ProfileRapl, NoPowercapMeansUnavailableWithAReason) {
  FakeSys sys;
  RaplSource rapl(sys.root());
  EXPECT_FALSE(rapl.available());
  EXPECT_NE(rapl.reason().find("intel-rapl"), std::string::npos) << rapl.reason();
}

TEST(ProfileSysfs, RootFromTheEnvironmentWhenNotGiven) {
  EXPECT_EQ(sysfs_root("/x"), "/x");
  setenv("NUMAGRAPH_SYSFS_ROOT", "/fake", 1);
  EXPECT_EQ(sysfs_root(), "/fake");
  unsetenv("NUMAGRAPH_SYSFS_ROOT");
  EXPECT_EQ(sysfs_root(), "/sys");
}

// ---- numastat --------------------------------------------------------------

TEST(ProfileNumastat, ParsesAndRefusesGarbage) {
  const auto c = parse_numastat("numa_hit 12\nother_node 3\n\n", "f");
  EXPECT_EQ(c.at("numa_hit"), 12u);
  EXPECT_EQ(c.at("other_node"), 3u);
  EXPECT_THROW(parse_numastat("numa_hit twelve\n", "f"), InputError);
  EXPECT_THROW(parse_numastat("numa_hit 1 2\n", "f"), InputError);
  EXPECT_THROW(parse_numastat("numa_hit -1\n", "f"), InputError);
}

TEST(ProfileNumastat, DeltasPerNodeOverTwoNodes) {
  FakeSys sys;
  sys.numastat(0, 1000);
  sys.numastat(1, 5000);
  sys.write("devices/system/node/online", "0-1\n");  // not a node directory
  NumastatSource src(sys.root());
  ASSERT_EQ(src.metrics().size(), 12u) << src.reason();
  EXPECT_TRUE(src.unavailable().empty());
  EXPECT_EQ(src.metrics()[0].name, "numa.node0.numa_hit");
  EXPECT_EQ(src.metrics()[11].name, "numa.node1.other_node");
  EXPECT_EQ(src.metrics()[0].unit, "pages");
  src.start();
  sys.numastat(0, 1007);   // every counter of node 0 +7
  sys.numastat(1, 5300);   // node 1 +300
  std::vector<double> v(12);
  src.sample(v.data());
  for (int j = 0; j < 6; ++j) EXPECT_EQ(v[j], 7) << src.metrics()[j].name;
  for (int j = 6; j < 12; ++j) EXPECT_EQ(v[j], 300) << src.metrics()[j].name;
  src.sample(v.data());
  for (double x : v) EXPECT_EQ(x, 0) << "no change since the previous sample";
  fs::remove(fs::path(sys.root()) / "devices/system/node/node1/numastat");
  src.sample(v.data());
  EXPECT_EQ(v[0], 0);
  EXPECT_TRUE(std::isnan(v[6])) << "a file gone during the run gives NaN, not a failure";
}

TEST(ProfileNumastat, UnreadableNodeAndMissingKeyAreListed) {
  FakeSys sys;
  sys.numastat(0, 0);
  sys.unreadable("devices/system/node/node1/numastat");
  sys.write("devices/system/node/node2/numastat", "numa_hit 5\nlocal_node 5\n");
  NumastatSource src(sys.root());
  EXPECT_EQ(src.metrics().size(), 6u + 2u);
  EXPECT_TRUE(lists(src, "node1", "cannot read"));
  EXPECT_TRUE(lists(src, "node2.other_node", "no other_node"));
  FakeSys empty;
  EXPECT_FALSE(NumastatSource(empty.root()).available());
}

// ---- perf events, for real ---------------------------------------------------

TEST(ProfilePerf, MultiplexedCountsAreScaledToTheEpoch) {
  using numagraph::profile::scale_for_multiplexing;
  EXPECT_EQ(scale_for_multiplexing(1000, 10'000'000, 10'000'000), 1000.0);  // counted the whole epoch
  EXPECT_EQ(scale_for_multiplexing(1000, 10'000'000, 2'500'000), 4000.0);   // on the PMU a quarter of it
  EXPECT_EQ(scale_for_multiplexing(1000, 10'000'000, 10'000'001), 1000.0);  // running never scales down
  EXPECT_EQ(scale_for_multiplexing(0, 0, 0), 0.0);                          // the thread did not run
  EXPECT_TRUE(std::isnan(scale_for_multiplexing(0, 10'000'000, 0)));        // ran, never counted: unknown
}

TEST(ProfilePerf, WorkerTidsAreTheOpenMPThreads) {
  const auto tids = openmp_worker_tids();
  EXPECT_EQ(static_cast<int>(tids.size()), omp_get_max_threads());
  EXPECT_EQ(std::set<pid_t>(tids.begin(), tids.end()).size(), tids.size());
  EXPECT_EQ(tids[0], gettid()) << "the calling thread is OpenMP thread 0";
}

TEST(ProfilePerf, TaskClockRisesWhileSpinningAndFaultsWhileTouching) {
  PerfEventsSource perf({gettid()});
  const int clock = metric_index(perf, "perf.task_clock"), faults = metric_index(perf, "perf.page_faults");
  if (clock < 0 || faults < 0) GTEST_SKIP() << "software perf events refused here: " << perf.reason();
  EXPECT_EQ(metric_index(perf, "perf.task_clock.t0"), clock + 1) << "per-thread column after the total";
  // Spin until this thread has had 30 ms of CPU by its own clock (the
  // oracle: CLOCK_THREAD_CPUTIME_ID), however loaded the machine is.
  perf.start();
  const double cpu0 = thread_cpu_s();
  volatile std::uint64_t spin = 0;
  while (thread_cpu_s() - cpu0 < 0.030) spin = spin + 1;
  const double cpu = thread_cpu_s() - cpu0;
  std::vector<double> v(perf.metrics().size());
  perf.sample(v.data());
  EXPECT_GT(v[clock], 0.9 * cpu * 1e9) << "task clock (ns) vs the thread's CPU time " << cpu << " s";
  EXPECT_LT(v[clock], 1.1 * cpu * 1e9 + 2e6);
  EXPECT_EQ(v[clock], v[clock + 1]) << "one thread: total = its column";

  const std::size_t bytes = std::size_t{32} << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  madvise(p, bytes, MADV_NOHUGEPAGE);  // one fault per 4 KiB page
  // The oracle: the kernel's own fault count of this thread.
  auto thread_faults = [] {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return static_cast<double>(u.ru_minflt + u.ru_majflt);
  };
  perf.sample(v.data());
  const double before = thread_faults();
  for (std::size_t off = 0; off < bytes; off += 4096) static_cast<volatile char*>(p)[off] = 1;
  const double touched = thread_faults() - before;
  perf.sample(v.data());
  munmap(p, bytes);
  EXPECT_GE(touched, static_cast<double>(bytes / 4096) * 0.9) << "one fault per page, by getrusage";
  EXPECT_GE(v[faults], touched) << "perf counts every fault getrusage saw";
  EXPECT_LE(v[faults], touched + 64) << "and only a few more (the reads themselves)";
}

TEST(ProfilePerf, TaskClockKeepsCountingBesideOtherSoftwareEvents) {
  PerfEventsSource perf({gettid()});
  const int clock = metric_index(perf, "perf.task_clock");
  if (clock < 0) GTEST_SKIP() << "software perf events refused here: " << perf.reason();
  std::vector<double> v(perf.metrics().size());
  perf.start();
  for (int epoch = 0; epoch < 3; ++epoch) {
    const double cpu0 = thread_cpu_s();
    volatile std::uint64_t spin = 0;
    while (thread_cpu_s() - cpu0 < 0.010) spin = spin + 1;
    perf.sample(v.data());
    EXPECT_GT(v[clock], 0.9 * (thread_cpu_s() - cpu0) * 1e9 - 2e6) << "epoch " << epoch;
  }
}

TEST(ProfilePerf, EveryHardwareEventIsOpenedOrExplained) {
  PerfEventsSource perf(openmp_worker_tids(), {.per_thread = false});
  const char* hw[] = {"cycles", "instructions", "cache_references", "cache_misses", "branch_misses",
                      "stalled_cycles_frontend", "stalled_cycles_backend", "llc_load_misses", "dtlb_load_misses"};
  for (const char* e : hw) {
    const bool opened = metric_index(perf, std::string("perf.") + e) >= 0;
    EXPECT_NE(opened, lists(perf, e, "perf_event_paranoid")) << e;
  }
  EXPECT_FALSE(lists(PerfEventsSource({gettid()}, {.per_thread = true, .hardware = false}), "cycles"));
}

// ---- sampler -----------------------------------------------------------------

TEST(ProfileSampler, IntervalOutOfRangeIsAUsageError) {
  EXPECT_THROW(Sampler(clock_only(), {.interval_ms = 0}), UsageError);
  EXPECT_THROW(Sampler(clock_only(), {.interval_ms = 1001}), UsageError);
  EXPECT_NO_THROW(Sampler(clock_only(), {.interval_ms = 1000}));
}

TEST(ProfileSampler, SamplesAtTheInterval) {
  Sampler s(clock_only(), {.interval_ms = 10});
  s.start();
  sleep_ms(200);
  const Profile p = s.stop();
  ASSERT_GE(p.samples(), 5u);
  EXPECT_LE(p.samples(), static_cast<std::size_t>(p.duration() / 0.010) + 1) << "at most one per deadline";
  for (std::size_t i = 1; i < p.samples(); ++i) EXPECT_GT(p.t[i], p.t[i - 1]);
  EXPECT_GE(p.duration(), 0.2);
  // Each epoch's counter is the time since the previous sample: the sum is the whole run.
  const auto elapsed = p.column(0);
  double sum = 0;
  for (double x : elapsed) sum += x;
  EXPECT_NEAR(sum, p.duration(), 0.005);
  EXPECT_GE(p.sampler_cpu_s, 0);
}

TEST(ProfileSampler, PhasesNestAndOwnTheirSamples) {
  Sampler s(clock_only(), {.interval_ms = 5});
  s.begin("ignored");  // not running yet
  s.start();
  s.begin("a");
  sleep_ms(60);
  s.end("a");
  s.begin("b");
  s.begin("inner");
  sleep_ms(60);
  s.end("b");  // closes inner too
  s.end("never-begun");
  const Profile p = s.stop();
  ASSERT_EQ(p.phases.size(), 4u);
  EXPECT_EQ(p.phases[0].name, "run");
  EXPECT_EQ(p.phases[1].name, "a");
  EXPECT_EQ(p.phases[3].name, "inner");
  EXPECT_EQ(p.phases[3].parent, 2);
  EXPECT_EQ(p.phases[3].depth, 2);
  EXPECT_EQ(p.phases[3].end, p.phases[2].end);
  EXPECT_EQ(p.phases[0].begin, 0);
  EXPECT_EQ(p.phases[0].end, p.t.back());
  const auto owner = p.sample_phases();
  std::set<int> seen(owner.begin(), owner.end());
  EXPECT_TRUE(seen.count(1) && seen.count(3)) << "samples inside a and inner";
  for (std::size_t i = 0; i < owner.size(); ++i) {
    const Phase& ph = p.phases[owner[i]];
    const double mid = 0.5 * ((i ? p.t[i - 1] : 0) + p.t[i]);
    EXPECT_TRUE(ph.begin <= mid && mid <= ph.end) << i;
  }
  // The clock counter's total over a phase is the phase's length, epochs prorated.
  for (std::size_t q = 0; q < p.phases.size(); ++q) {
    const auto tot = p.phase_totals(q);
    EXPECT_NEAR(tot[0], p.phases[q].end - p.phases[q].begin, 0.005) << p.phases[q].name;
    EXPECT_DOUBLE_EQ(tot[1], 2.5) << "a gauge's mean";
  }
}

TEST(ProfileSampler, EngineCallPhasesOfPageRank) {
  const Graph32 g = engine_test::kron(10, false);
  Sampler s(default_sources(), {.interval_ms = 2});
  Execution x;
  x.engine = EngineChoice::kNuma;
  x.listener = &s;
  s.start();
  pagerank(g, PageRankOptions{}, x);
  const Profile p = s.stop();
  std::set<std::string> names;
  for (const auto& ph : p.phases) names.insert(ph.name);
  EXPECT_TRUE(names.count("setup") && names.count("pagerank"));
  const int clock = p.find("perf.task_clock");
  if (clock >= 0) {
    double total = 0;
    for (double v : p.column(clock)) total += std::isnan(v) ? 0 : v;
    EXPECT_GT(total, 0);
  }
}

// ---- files -------------------------------------------------------------------

TEST(ProfileFile, JsonAndCsvReadBack) {
  FakeSys sys;  // also the output directory
  sys.numastat(0, 0);
  std::vector<std::unique_ptr<Source>> src = clock_only();
  src.push_back(std::make_unique<NumastatSource>(sys.root()));
  src.push_back(std::make_unique<RaplSource>(sys.root()));  // none: listed unavailable
  Sampler s(std::move(src), {.interval_ms = 5});
  s.start();
  s.begin("load \"quoted\"");
  sleep_ms(30);
  s.end("load \"quoted\"");
  const Profile p = s.stop();
  const std::string json = sys.root() + "/p.json", csv = sys.root() + "/p.csv";
  Record meta = profile_metadata("numagraph pr g.ngr");
  write_profile_json(json, p, meta);
  write_profile_csv(csv, p);
  const std::string text = slurp(json);
  EXPECT_NE(text.find("\"format\": \"numagraph-profile\""), std::string::npos);
  EXPECT_NE(text.find("\"command\": \"numagraph pr g.ngr\""), std::string::npos);
  EXPECT_NE(text.find("\"numa.node0.other_node\": ["), std::string::npos);
  EXPECT_NE(text.find("\"source\": \"rapl\""), std::string::npos);

  // The whole document through Python's json, when Python is here.
  if (std::system("python3 -c 'import json' 2>/dev/null") != 0) GTEST_SKIP() << "no python3 for the round trip";
  const std::string check =
      "import json,sys\n"
      "d=json.load(open(sys.argv[1]))\n"
      "n=d['metadata']['samples']\n"
      "assert n==" + std::to_string(p.samples()) + ", n\n"
      "assert d['metadata']['interval_ms']==5\n"
      "assert len(d['samples']['t'])==n and len(d['samples']['phase'])==n\n"
      "assert all(len(d['samples'][m['name']])==n for m in d['metrics'])\n"
      "assert [m['name'] for m in d['metrics']][:2]==['clock.elapsed','clock.level']\n"
      "assert d['metrics'][0]['unit']=='s' and d['metrics'][1]['kind']=='gauge'\n"
      "assert any(u['source']=='rapl' and u['reason'] for u in d['unavailable'])\n"
      "ph=d['phases']; assert [q['name'] for q in ph]==['run','load \"quoted\"']\n"
      "assert abs(ph[1]['totals']['clock.elapsed']-(ph[1]['end']-ph[1]['begin']))<5e-3\n"
      "assert ph[0]['means']['clock.level']==2.5\n"
      "rows=open(sys.argv[2]).read().splitlines()\n"
      "assert rows[0].startswith('t[s],phase,clock.elapsed[s],clock.level[1],numa.node0.numa_hit[pages]'), rows[0]\n"
      "assert len(rows)==n+1\n";
  std::ofstream(sys.root() + "/check.py") << check;
  EXPECT_EQ(std::system(("python3 " + sys.root() + "/check.py " + json + " " + csv).c_str()), 0);
}
