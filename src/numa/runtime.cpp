#include "numagraph/numa/runtime.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <utility>

#include "numagraph/numa/memory.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::numa {

std::string to_string(Bind b) {
  return b == Bind::kCompact ? "compact" : b == Bind::kScatter ? "scatter" : "none";
}

Bind parse_bind(const std::string& s) {
  if (s == "compact") return Bind::kCompact;
  if (s == "scatter") return Bind::kScatter;
  if (s == "none") return Bind::kNone;
  throw UsageError("unknown --bind '" + s + "' (use compact, scatter or none)");
}

PageSize parse_pages(const std::string& s) {
  if (s == "4k") return PageSize::k4K;
  if (s == "thp") return PageSize::kTHP;
  if (s == "2m") return PageSize::k2M;
  if (s == "1g") return PageSize::k1G;
  throw UsageError("unknown --pages '" + s + "' (use 4k, thp, 2m or 1g)");
}

PlacementKind parse_placement(const std::string& s) {
  if (s == "local") return PlacementKind::kLocal;
  if (s == "interleave") return PlacementKind::kInterleave;
  if (s == "partitioned") return PlacementKind::kPartitioned;
  throw UsageError("unknown --placement '" + s + "' (use local, interleave or partitioned)");
}

ThreadPlan plan_threads(const Topology& topo, int threads, Bind bind, bool smt) {
  // Slots: every core (or PU) per node, in node order.
  std::vector<std::vector<int>> slots(static_cast<std::size_t>(topo.num_nodes()));
  for (int k = 0; k < topo.num_nodes(); ++k)
    for (const auto& pus : topo.nodes[static_cast<std::size_t>(k)].core_pus) {
      if (pus.empty()) continue;
      if (smt)
        for (int pu : pus) slots[k].push_back(pu);
      else
        slots[k].push_back(pus.front());
    }
  std::size_t total = 0;
  for (const auto& s : slots) total += s.size();
  if (total == 0) throw ResourceError("the topology has no cores to run on");
  if (threads <= 0) threads = static_cast<int>(total);
  // Pick slots: compact fills node 0 first; scatter takes one per node in turn.
  std::vector<std::pair<int, int>> chosen;  // (node, pu)
  if (bind == Bind::kScatter) {
    for (std::size_t round = 0; chosen.size() < static_cast<std::size_t>(threads); ++round) {
      bool any = false;
      for (int k = 0; k < topo.num_nodes() && chosen.size() < static_cast<std::size_t>(threads); ++k) {
        const auto& s = slots[k];
        if (s.empty()) continue;
        any = true;
        chosen.emplace_back(k, s[round % s.size()]);
      }
      if (!any) break;
    }
  } else {
    for (int t = 0; t < threads; ++t) {
      std::size_t i = static_cast<std::size_t>(t) % total;
      int k = 0;
      while (i >= slots[k].size()) i -= slots[k++].size();
      chosen.emplace_back(k, slots[k][i]);
    }
  }
  std::stable_sort(chosen.begin(), chosen.end(), [](auto a, auto b) { return a.first < b.first; });
  ThreadPlan plan;
  for (auto [k, pu] : chosen) {
    plan.node.push_back(k);
    plan.pu.push_back(pu);
  }
  return plan;
}

Runtime& Runtime::get() {
  static Runtime runtime;
  return runtime;
}

int Runtime::thread_node(int tid) const {
  return tid >= 0 && tid < threads() ? thread_node_[static_cast<std::size_t>(tid)] : 0;
}

int Runtime::current_node() const { return thread_node(omp_get_thread_num()); }

int Runtime::os_node(int node) const {
  const int os = topology_.nodes[static_cast<std::size_t>(node)].os_index;
  return os < physical_nodes() && !(topology_.synthetic && topology_.num_nodes() > physical_nodes()) ? os : -1;
}

int Runtime::process_cpu_count() const {
  if (!process_cpus_.empty()) return static_cast<int>(process_cpus_.size());
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? std::max(1, CPU_COUNT(&allowed)) : 1;
}

void Runtime::configure(const RuntimeConfig& config) {
  if (config.threads < 0 || config.threads > kMaxThreads)
    throw UsageError("threads must be in 0.." + std::to_string(kMaxThreads) + " (0 = one per core); got " +
                     std::to_string(config.threads));
  // Kept mappings carry the placement the old topology gave them.
  release_recycled();
  config_ = config;
  topology_ = Topology::select(config.topology);
  const ThreadPlan plan = plan_threads(topology_, config.threads, config.bind, config.smt);
  thread_node_ = plan.node;
  thread_cpu_.assign(plan.pu.size(), -1);
  set_default_page_size(config.pages);
  set_default_placement(config.placement);
  static bool noted = false;  // one notice per process, however often Python reconfigures
  if (topology_.synthetic && topology_.num_nodes() > physical_nodes() && !std::exchange(noted, true))
    std::fprintf(stderr,
                 "numagraph: note: the topology has %d NUMA nodes but this machine has %d: threads, partitions "
                 "and steal orders follow the topology, memory placement on missing nodes is skipped\n",
                 topology_.num_nodes(), physical_nodes());
  const int threads = static_cast<int>(thread_node_.size());
  omp_set_dynamic(0);
  omp_set_num_threads(threads);
  // Read the process's CPUs before the first pinning: afterwards the calling
  // thread (OpenMP thread 0) is pinned to one CPU and would report only that.
  if (process_cpus_.empty()) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    sched_getaffinity(0, sizeof allowed, &allowed);
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) process_cpus_.push_back(c);
    if (process_cpus_.empty()) process_cpus_.push_back(0);
  }
  const std::vector<int>& cpus = process_cpus_;
  if (config.bind == Bind::kNone) {
    // Undo an earlier configure()'s pinning.
#pragma omp parallel num_threads(threads)
    {
      cpu_set_t set;
      CPU_ZERO(&set);
      for (int c : cpus) CPU_SET(c, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
  } else {
    for (int t = 0; t < threads; ++t) {
      // A synthetic PU that is not a CPU here maps onto the CPUs we have.
      const int pu = plan.pu[static_cast<std::size_t>(t)];
      thread_cpu_[static_cast<std::size_t>(t)] =
          std::find(cpus.begin(), cpus.end(), pu) != cpus.end() && !topology_.synthetic
              ? pu
              : cpus[static_cast<std::size_t>(pu) % cpus.size()];
    }
    std::atomic<int> failures{0};
#pragma omp parallel num_threads(threads)
    {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(thread_cpu_[static_cast<std::size_t>(omp_get_thread_num())], &set);
      if (sched_setaffinity(0, sizeof set, &set) != 0) failures.fetch_add(1);
    }
    if (failures.load() > 0) {
      std::fprintf(stderr, "numagraph: note: could not pin %d threads (running unpinned)\n", failures.load());
      std::fill(thread_cpu_.begin(), thread_cpu_.end(), -1);
    }
  }
  configured_ = true;
  ++generation_;
}

}  // namespace numagraph::numa
