// numagraph topology [--check] [--json]: what numagraph sees (nodes, CPUs,
// memory, distances, THP mode, hugetlbfs pools) and what it will do (thread
// plan, defaults). --check allocates a test array under every placement and
// asks the kernel where its pages landed and which page size backs them.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <dirent.h>

#include "common.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/replicated_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "registry.hpp"
#include "runtime_info.hpp"

namespace numagraph::cli {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  return s;
}

struct Pool {
  std::string size;  // "2048kB"
  std::string total, free;
};

// hugetlbfs pools, one per page size the kernel supports.
std::vector<Pool> hugetlb_pools() {
  std::vector<Pool> out;
  if (DIR* d = opendir("/sys/kernel/mm/hugepages")) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("hugepages-", 0) != 0) continue;
      const std::string dir = "/sys/kernel/mm/hugepages/" + name;
      out.push_back({name.substr(10), read_line(dir + "/nr_hugepages"), read_line(dir + "/free_hugepages")});
    }
    closedir(d);
  }
  return out;
}

struct CheckResult {
  std::string policy;
  numa::PageSize asked;
  numa::PageReport report;
};

// One 16 MiB array per policy, first-touched by the pinned threads with the
// static schedule, then one 4 MiB replicated array (a report per copy).
std::vector<CheckResult> check_placements() {
  const int nodes = numa::Runtime::get().topology().num_nodes();
  const std::size_t bytes = std::size_t{16} << 20;
  struct Case {
    std::string name;
    numa::Placement placement;
    numa::PageSize pages;
  };
  std::vector<Case> cases{{"local (first touch)", numa::Placement::local(), numa::PageSize::k4K},
                          {"interleave", numa::Placement::interleave(), numa::PageSize::k4K}};
  if (nodes > 2) {
    std::vector<int> odd;
    for (int k = 1; k < nodes; k += 2) odd.push_back(k);
    cases.push_back({"interleave(odd nodes)", numa::Placement::interleave(odd), numa::PageSize::k4K});
  }
  cases.push_back({"partitioned", numa::Placement::partitioned(), numa::PageSize::k4K});
  for (int k = 0; k < nodes; ++k)
    cases.push_back({"bind(" + std::to_string(k) + ")", numa::Placement::bind(k), numa::PageSize::k4K});
  cases.push_back({"local + thp", numa::Placement::local(), numa::PageSize::kTHP});
  cases.push_back({"local + 2m (hugetlb)", numa::Placement::local(), numa::PageSize::k2M});
  std::vector<CheckResult> out;
  for (auto& c : cases) {
    NumaArray<char> a(bytes, c.placement, c.pages);
    a.first_touch();
    out.push_back({c.name, c.pages, numa::page_report(a.data(), a.size())});
  }
  std::vector<char> source(std::size_t{4} << 20, 1);
  numa::ReplicatedArray<char> rep(source, numa::PageSize::k4K);
  for (int k = 0; k < nodes; ++k)
    out.push_back({"replicated copy " + std::to_string(k), numa::PageSize::k4K,
                   numa::page_report(rep.copy(k), source.size())});
  return out;
}

void print_text(const std::vector<Pool>& pools, const std::vector<CheckResult>* checks) {
  const numa::Runtime& rt = numa::Runtime::get();
  const numa::Topology& t = rt.topology();
  std::printf("topology        %s\n", t.summary().c_str());
  std::printf("packages        %d\n", t.packages);
  std::printf("physical nodes  %d (NUMA nodes that exist on this machine)\n", numa::physical_nodes());
  for (const auto& node : t.nodes) {
    std::string pus;
    for (const auto& core : node.core_pus)
      for (int pu : core) {
        if (!pus.empty()) pus += ',';  // (a `"," + std::string` here trips GCC 12's -Wrestrict)
        pus += std::to_string(pu);
      }
    std::printf("node %-3d        os node %d, %zu cores, PUs %s, %.1f GiB\n", node.index, node.os_index,
                node.cores.size(), pus.c_str(), static_cast<double>(node.memory) / (1 << 30));
  }
  std::printf("distances      ");
  for (int j = 0; j < t.num_nodes(); ++j) std::printf(" %4d", j);
  std::printf("\n");
  for (int i = 0; i < t.num_nodes(); ++i) {
    std::printf("  node %-8d", i);
    for (int j = 0; j < t.num_nodes(); ++j) std::printf(" %4d", t.distance[i][j]);
    std::printf("\n");
  }
  std::printf("transparent huge pages  %s (defrag: %s)\n",
              read_line("/sys/kernel/mm/transparent_hugepage/enabled").c_str(),
              read_line("/sys/kernel/mm/transparent_hugepage/defrag").c_str());
  const std::string balancing = read_line("/proc/sys/kernel/numa_balancing");
  std::printf("numa balancing          %s\n",
              balancing.empty() ? "not available"
              : balancing == "0" ? "off"
                                 : "on (the kernel migrates pages towards the threads that use them)");
  std::printf("hugetlbfs pools%s\n", pools.empty() ? "         none" : "");
  for (const auto& p : pools) std::printf("  %s: %s pages, %s free\n", p.size.c_str(), p.total.c_str(), p.free.c_str());
  std::printf("defaults        %d threads, bind %s, placement %s, pages %s, engine %s\n", rt.threads(),
              numa::to_string(rt.config().bind).c_str(), numa::to_string(rt.config().placement).c_str(),
              numa::to_string(rt.config().pages).c_str(), t.num_nodes() > 1 ? "numa" : "flat");
  std::printf("threads         ");
  for (int i = 0; i < rt.threads(); ++i)
    std::printf("%s%d:node%d/cpu%d", i ? " " : "", i, rt.thread_node(i), rt.thread_cpu()[static_cast<std::size_t>(i)]);
  std::printf("\n");
  if (!checks) return;
  std::printf("\nplacement check (array first-touched by the pinned threads; pages per kernel node\n"
              "from move_pages, page size from /proc/self/smaps):\n");
  for (const auto& c : *checks)
    std::printf("  %-24s asked %-4s %s\n", c.policy.c_str(), numa::to_string(c.asked).c_str(),
                c.report.describe().c_str());
}

void print_json(const std::vector<Pool>& pools, const std::vector<CheckResult>* checks) {
  const numa::Runtime& rt = numa::Runtime::get();
  const numa::Topology& t = rt.topology();
  profile::Record rec;
  rec.set("command", "topology").set("source", t.source).set("synthetic", t.synthetic);
  rec.set("physical_nodes", numa::physical_nodes()).set("packages", t.packages).set("cores", t.cores).set("pus", t.pus);
  std::string nodes = "[", dist = "[";
  for (const auto& node : t.nodes) {
    std::vector<int> pus;
    for (const auto& core : node.core_pus) pus.insert(pus.end(), core.begin(), core.end());
    profile::Record n;
    n.set("node", node.index).set("os_node", node.os_index).set("cores", static_cast<int>(node.cores.size()));
    n.set("pus", pus).set("memory_bytes", node.memory);
    nodes += (node.index ? "," : "") + n.json();
  }
  for (int i = 0; i < t.num_nodes(); ++i) {
    std::string row = "[";
    for (int j = 0; j < t.num_nodes(); ++j) row += (j ? "," : "") + std::to_string(t.distance[i][j]);
    dist += (i ? "," : "") + row + "]";
  }
  rec.raw("nodes", nodes + "]").raw("distance", dist + "]");
  rec.set("thp_enabled", read_line("/sys/kernel/mm/transparent_hugepage/enabled"));
  rec.set("numa_balancing", read_line("/proc/sys/kernel/numa_balancing"));
  profile::Record hp;
  for (const auto& p : pools) {
    profile::Record one;
    one.raw("total", p.total.empty() ? "null" : p.total).raw("free", p.free.empty() ? "null" : p.free);
    hp.set(p.size, one);
  }
  rec.set("hugetlb_pools", hp);
  std::vector<int> cpus;
  for (int i = 0; i < rt.threads(); ++i) cpus.push_back(rt.thread_cpu()[static_cast<std::size_t>(i)]);
  rec.set("threads", rt.threads()).set("thread_node", rt.thread_node()).set("thread_cpu", cpus);
  add_runtime_fields(rec);
  if (checks) {
    std::string list = "[";
    for (std::size_t i = 0; i < checks->size(); ++i) {
      const auto& c = (*checks)[i];
      profile::Record r;
      r.set("policy", c.policy).set("asked", numa::to_string(c.asked)).set("pages_per_node", c.report.pages_per_node);
      r.set("not_present", c.report.not_present).set("sampled", c.report.sampled);
      r.set("page_size", c.report.page_size()).set("huge_bytes", c.report.huge_bytes);
      list += (i ? "," : "") + r.json();
    }
    rec.raw("check", list + "]");
  }
  std::printf("%s\n", rec.json().c_str());
}

struct TopologyCommand {
  bool check = false;
  bool json = false;
  int threads = 0;
};

const Register kTopology{
    {"topology", "show the NUMA topology, page-size support and the defaults numagraph uses", 5, [](CLI::App& app) {
       auto c = std::make_shared<TopologyCommand>();
       add_runtime_options(app, /*array_roles=*/false);
       app.add_option("-t,--threads", c->threads, "threads (default: one per core)");
       app.add_flag("--check", c->check,
                    "allocate a test array under each placement and report where its pages landed and their page size");
       app.add_flag("--json", c->json, "print one JSON object instead of text");
       app.callback([c] {
         apply_runtime_options(c->threads);
         const auto pools = hugetlb_pools();
         std::vector<CheckResult> checks;
         if (c->check) checks = check_placements();
         if (c->json)
           print_json(pools, c->check ? &checks : nullptr);
         else
           print_text(pools, c->check ? &checks : nullptr);
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
