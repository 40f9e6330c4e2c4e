// numagraph topology [--check]: what numagraph sees and will do.
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <dirent.h>

#include "numagraph/common.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/registry.hpp"
#include "numagraph/runtime_info.hpp"

namespace numagraph::cli {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  return s;
}

// hugetlbfs pools: "2048kB: 0 pages" per page size.
std::vector<std::string> hugetlb_pools() {
  std::vector<std::string> out;
  if (DIR* d = opendir("/sys/kernel/mm/hugepages")) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.rfind("hugepages-", 0) != 0) continue;
      out.push_back(name.substr(10) + ": " + read_line("/sys/kernel/mm/hugepages/" + name + "/nr_hugepages") + " pages");
    }
    closedir(d);
  }
  return out;
}

struct TopologyCommand {
  bool check = false;
  int threads = 0;
};

void check_placements() {
  const numa::Runtime& rt = numa::Runtime::get();
  const std::size_t bytes = std::size_t{16} << 20;
  std::printf("\nplacement check (16 MiB array per policy; pages per kernel node):\n");
  auto touch = [](NumaArray<char>& a) {
    parallel::for_static(std::size_t{0}, a.size() / 4096, [&](std::size_t i) { a[i * 4096] = 1; });
  };
  struct Case {
    std::string name;
    numa::Placement placement;
    numa::PageSize pages;
  };
  std::vector<Case> cases{{"local (first touch)", numa::Placement::local(), numa::PageSize::k4K},
                          {"interleave", numa::Placement::interleave(), numa::PageSize::k4K},
                          {"partitioned", numa::Placement::partitioned(), numa::PageSize::k4K}};
  for (int k = 0; k < rt.topology().num_nodes(); ++k)
    cases.push_back({"bind(" + std::to_string(k) + ")", numa::Placement::bind(k), numa::PageSize::k4K});
  cases.push_back({"local + thp", numa::Placement::local(), numa::PageSize::kTHP});
  cases.push_back({"local + 2m (hugetlb)", numa::Placement::local(), numa::PageSize::k2M});
  for (auto& c : cases) {
    NumaArray<char> a(bytes, c.placement, c.pages);
    touch(a);
    const auto r = numa::page_report(a.data(), a.size());
    std::printf("  %-22s got %-4s  %s\n", c.name.c_str(), numa::to_string(a.page_size()).c_str(), r.describe().c_str());
  }
}

const Register kTopology{
    {"topology", "show the NUMA topology, page-size support and the defaults numagraph uses", 5, [](CLI::App& app) {
       auto c = std::make_shared<TopologyCommand>();
       add_runtime_options(app);
       app.add_option("-t,--threads", c->threads, "threads (default: one per core)");
       app.add_flag("--check", c->check, "allocate a test array under each policy and report where its pages landed");
       app.callback([c] {
         apply_runtime_options(c->threads);
         const numa::Runtime& rt = numa::Runtime::get();
         const numa::Topology& t = rt.topology();
         std::printf("topology        %s\n", t.summary().c_str());
         std::printf("packages        %d\n", t.packages);
         std::printf("physical nodes  %d (NUMA nodes that exist on this machine)\n", numa::physical_nodes());
         for (const auto& node : t.nodes) {
           std::string pus;
           for (const auto& core : node.core_pus)
             for (int pu : core) {
               if (!pus.empty()) pus += ',';
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
         const auto pools = hugetlb_pools();
         std::printf("hugetlbfs pools         %s\n", pools.empty() ? "none" : "");
         for (const auto& p : pools) std::printf("  %s\n", p.c_str());
         std::printf("defaults        %d threads, bind %s, placement %s, pages %s, engine %s\n", rt.threads(),
                     numa::to_string(rt.config().bind).c_str(), numa::to_string(rt.config().placement).c_str(),
                     numa::to_string(rt.config().pages).c_str(), t.num_nodes() > 1 ? "numa" : "flat");
         std::printf("threads         ");
         for (int i = 0; i < rt.threads(); ++i)
           std::printf("%s%d:node%d/cpu%d", i ? " " : "", i, rt.thread_node()[static_cast<std::size_t>(i)],
                       rt.thread_cpu()[static_cast<std::size_t>(i)]);
         std::printf("\n");
         if (c->check) check_placements();
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
