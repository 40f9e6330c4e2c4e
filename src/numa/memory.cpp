#include "numagraph/numa/memory.hpp"

#include <numa.h>
#include <numaif.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "numagraph/numa/partition.hpp"
#include "numagraph/numa/roles.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/util/memory_guard.hpp"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

namespace numagraph::numa {

namespace {
PageSize g_default_pages = PageSize::kTHP;
PlacementKind g_default_placement = PlacementKind::kLocal;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kGiantPage = std::size_t{1} << 30;

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// One line on stderr the first time a hugetlbfs request cannot be met, so a
// user who asked for --pages 2m learns why the record says thp.
void note_hugetlb_fallback(PageSize pages, std::size_t bytes) {
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return;
  const char* dir = pages == PageSize::k1G ? "hugepages-1048576kB" : "hugepages-2048kB";
  std::ifstream f(std::string("/sys/kernel/mm/hugepages/") + dir + "/free_hugepages");
  long free_pages = -1;
  f >> free_pages;
  std::fprintf(stderr,
               "numagraph: note: no %s hugetlbfs pages for %zu bytes (%ld free in /sys/kernel/mm/hugepages/%s): "
               "using transparent huge pages instead (reserve pages with `echo N > "
               "/sys/kernel/mm/hugepages/%s/nr_hugepages` as root)\n",
               to_string(pages).c_str(), bytes, free_pages, dir, dir);
}

// Kernel node ids of the topology's nodes that exist here.
std::vector<int> present_nodes() {
  std::vector<int> nodes;
  const Runtime& rt = Runtime::get();
  if (!rt.configured()) return nodes;
  for (int k = 0; k < rt.topology().num_nodes(); ++k)
    if (rt.os_node(k) >= 0) nodes.push_back(rt.os_node(k));
  return nodes;
}

void bind_range(void* p, std::size_t bytes, int mode, const std::vector<int>& os_nodes) {
  if (bytes == 0 || os_nodes.empty() || numa_available() < 0) return;
  unsigned long mask[16] = {};
  for (int n : os_nodes)
    if (n >= 0 && n < 1024) mask[n / 64] |= 1UL << (n % 64);
  mbind(p, bytes, mode, mask, 1024, 0);  // best effort: placement is advice, not correctness
}

// A node outside the topology is treated like one that does not exist here:
// no placement (kernels may lay out more partitions than the runtime has
// nodes, e.g. in tests). Kernel node id, or -1.
int os_node_or_none(const Runtime& rt, int node) {
  return node >= 0 && node < rt.topology().num_nodes() ? rt.os_node(node) : -1;
}

void apply_placement(void* p, std::size_t mapped, std::size_t bytes, std::size_t element_size,
                     const Placement& placement) {
  const Runtime& rt = Runtime::get();
  if (!rt.configured() || numa_available() < 0) return;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  switch (placement.kind) {
    case PlacementKind::kLocal:
      return;
    case PlacementKind::kInterleave: {
      if (placement.nodes.empty()) {
        bind_range(p, mapped, MPOL_INTERLEAVE, present_nodes());
        return;
      }
      std::vector<int> os_nodes;
      for (int k : placement.nodes)
        if (os_node_or_none(rt, k) >= 0) os_nodes.push_back(os_node_or_none(rt, k));
      bind_range(p, mapped, MPOL_INTERLEAVE, os_nodes);
      return;
    }
    case PlacementKind::kBind:
    case PlacementKind::kReplicated: {
      const int os = os_node_or_none(rt, placement.node);
      if (os >= 0) bind_range(p, mapped, MPOL_BIND, {os});
      return;
    }
    case PlacementKind::kPartitioned: {
      const int nodes = rt.topology().num_nodes();
      const std::int64_t elems = static_cast<std::int64_t>(bytes / std::max<std::size_t>(1, element_size));
      const std::vector<std::int64_t> bounds =
          placement.bounds ? *placement.bounds : partition_ranges(elems, nodes);
      for (int k = 0; k < nodes && k + 1 < static_cast<int>(bounds.size()); ++k) {
        const int os = rt.os_node(k);
        if (os < 0) continue;
        // Whole pages only: a page shared by two blocks stays with the first toucher.
        const std::size_t lo = round_up(static_cast<std::size_t>(bounds[k]) * element_size, page);
        const std::size_t hi = k + 1 == nodes ? mapped : static_cast<std::size_t>(bounds[k + 1]) * element_size / page * page;
        if (hi > lo) bind_range(static_cast<char*>(p) + lo, hi - lo, MPOL_BIND, {os});
      }
      return;
    }
  }
}

}  // namespace

PageSize default_page_size() { return g_default_pages; }
void set_default_page_size(PageSize size) { g_default_pages = size; }

Placement default_placement() {
  Placement p;
  p.kind = g_default_placement;
  return p;
}

// Only the kinds that need no argument can be a default; bind and
// replicated name a node, so they are per-array decisions.
void set_default_placement(PlacementKind kind) {
  if (kind == PlacementKind::kBind || kind == PlacementKind::kReplicated)
    throw UsageError("the default placement must be local, interleave or partitioned");
  g_default_placement = kind;
}

std::string to_string(PlacementKind kind) {
  switch (kind) {
    case PlacementKind::kLocal: return "local";
    case PlacementKind::kInterleave: return "interleave";
    case PlacementKind::kBind: return "bind";
    case PlacementKind::kPartitioned: return "partitioned";
    case PlacementKind::kReplicated: return "replicated";
  }
  return "unknown";
}

std::string to_string(PageSize size) {
  switch (size) {
    case PageSize::k4K: return "4k";
    case PageSize::kTHP: return "thp";
    case PageSize::k2M: return "2m";
    case PageSize::k1G: return "1g";
  }
  return "unknown";
}

namespace {

// The recycle bin: mappings release() kept for later Fill::kAny requests,
// oldest first. Leaked on purpose, so that arrays in static objects can
// still be released after it would have been destroyed.
struct RecycleBin {
  std::mutex mutex;
  std::deque<Allocation> kept;
  std::size_t bytes = 0;
  std::size_t limit = 0;  // NUMAGRAPH_RECYCLE_BYTES, or set_recycle_limit
  bool poison = false;    // fill what is handed back with 0xFF bytes (NUMAGRAPH_RECYCLE_POISON)
};

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(size) : 0;
}

// NUMAGRAPH_RECYCLE_BYTES, or 1/16 of physical memory. A value that is not
// a size says so once on stderr and keeps the default.
std::size_t limit_from_environment() {
  const std::size_t fallback = physical_memory_bytes() / 16;
  const char* text = std::getenv("NUMAGRAPH_RECYCLE_BYTES");
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  int shift = 0;
  if (end != text && *end != '\0' && end[1] == '\0') {
    shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : -1;
    if (shift > 0) ++end;
  }
  if (end == text || *end != '\0' || errno != 0 || shift < 0 || text[0] == '-' || value > (~0ULL >> (shift + 1))) {
    std::fprintf(stderr,
                 "numagraph: note: NUMAGRAPH_RECYCLE_BYTES='%s' is not a size in bytes (such as 0, 512M or 2G); "
                 "recycling up to %zu bytes\n",
                 text, fallback);
    return fallback;
  }
  return static_cast<std::size_t>(value << shift);
}

bool poison_from_environment() {
  const char* poison = std::getenv("NUMAGRAPH_RECYCLE_POISON");
  return poison != nullptr && *poison != '\0' && std::strcmp(poison, "0") != 0;
}

// The bin, with the environment's settings read when it is first used.
RecycleBin& bin() {
  static RecycleBin* b = [] {
    auto* made = new RecycleBin;
    made->limit = limit_from_environment();
    made->poison = poison_from_environment();
    return made;
  }();
  return *b;
}

// Unmaps the oldest kept mappings until at most `keep` bytes and `mappings`
// mappings remain (bin locked).
void shrink_locked(RecycleBin& b, std::size_t keep, std::size_t mappings = kMaxRecycledMappings) {
  while ((b.bytes > keep || b.kept.size() > mappings) && !b.kept.empty()) {
    munmap(b.kept.front().data, b.kept.front().mapped);
    b.bytes -= b.kept.front().mapped;
    b.kept.pop_front();
  }
}

// Whether a mapping may go to the bin: its placement must mean the same for
// the next array. Local pages sit where the first toucher put them, which is
// only the right place for any other thread on a machine with one node. An
// array partitioned by element count has the same node ranges as the next
// one of the same bytes and element size under the same topology (the bin is
// emptied when the runtime is configured again); explicit bounds and
// replicas belong to one graph and are long-lived anyway.
bool may_recycle(const Placement& placement, std::size_t mapped) {
  if (mapped < kMinRecycledBytes) return false;
  if (placement.kind == PlacementKind::kLocal) return physical_nodes() == 1;
  return placement.kind == PlacementKind::kInterleave || placement.kind == PlacementKind::kBind ||
         placement.partitioned_by_count();
}

bool same_placement(const Placement& a, const Placement& b) {
  if (a.kind != b.kind || a.nodes != b.nodes) return false;
  if (a.kind == PlacementKind::kBind) return a.node == b.node;
  if (a.kind == PlacementKind::kPartitioned) return a.partitioned_by_count() && b.partitioned_by_count();
  return true;
}

// Whether `kept` is what a fresh allocate(bytes, placement, pages, element_size) would map.
bool matches(const Allocation& kept, std::size_t bytes, const Placement& placement, PageSize pages,
             std::size_t element_size) {
  if (kept.requested != pages || !same_placement(kept.placement, placement)) return false;
  // Node ranges are cut by element count: only the same elements have the same ranges.
  if (placement.kind == PlacementKind::kPartitioned && (kept.bytes != bytes || kept.element_size != element_size))
    return false;
  if (kept.pages == PageSize::k2M || kept.pages == PageSize::k1G)
    return kept.mapped == round_up(bytes, kept.pages == PageSize::k1G ? kGiantPage : kHugePage);
  const bool huge = pages != PageSize::k4K && bytes >= kHugePage;
  return kept.mapped == (huge ? round_up(bytes, kHugePage) : bytes);
}

// A kept mapping for this request, or one with data == nullptr.
Allocation take_recycled(std::size_t bytes, const Placement& placement, PageSize pages, std::size_t element_size) {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  for (auto it = b.kept.rbegin(); it != b.kept.rend(); ++it) {  // newest first: warmest in the caches
    if (!matches(*it, bytes, placement, pages, element_size)) continue;
    Allocation a = *it;
    b.bytes -= a.mapped;
    b.kept.erase(std::next(it).base());
    a.bytes = bytes;
    a.element_size = element_size;
    // Old contents are usually the previous call's results, which hides a
    // kernel that reads an element before writing it; NaN doubles and floats
    // and -1 integers do not. The pages are already placed, so one thread's
    // memset moves none of them.
    if (b.poison) std::memset(a.data, 0xFF, bytes);
    return a;
  }
  return {};
}

}  // namespace

std::size_t recycle_limit() {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.limit;
}

void set_recycle_limit(std::size_t bytes) {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.limit = bytes;
  shrink_locked(b, bytes);
}

void set_recycle_poison(bool on) {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.poison = on;
}

std::size_t recycled_bytes() {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.bytes;
}

void release_recycled() {
  RecycleBin& b = bin();
  std::lock_guard<std::mutex> lock(b.mutex);
  shrink_locked(b, 0);
}

namespace {
// Bytes mapped by the arrays alive now (not the recycle bin's): the heap
// NUMAGRAPH_MEMORY_LIMIT caps (util/memory_guard.hpp).
std::atomic<std::uint64_t> g_held_bytes{0};

// Refuses an allocation of `bytes` that would take the arrays held past
// NUMAGRAPH_MEMORY_LIMIT; the recycle bin is given back first, as it is the
// first memory to give back.
void reserve_heap(std::size_t bytes, const Placement& placement) {
  if (heap_limit_bytes() == 0) return;
  const std::uint64_t held = g_held_bytes.load(std::memory_order_relaxed);
  if (recycled_bytes() > 0 && saturating_add(saturating_add(held, recycled_bytes()), bytes) > heap_limit_bytes())
    release_recycled();
  check_heap(placement.role, held, bytes);
}
}  // namespace

std::uint64_t held_bytes() { return g_held_bytes.load(std::memory_order_relaxed); }

Allocation allocate(std::size_t bytes, const Placement& placement, PageSize pages, std::size_t element_size,
                    Fill fill) {
  if (bytes > 0) reserve_heap(bytes, placement);
  if (fill == Fill::kAny && bytes > 0) {
    Allocation kept = take_recycled(bytes, placement, pages, element_size);
    if (kept.data != nullptr) {
      g_held_bytes.fetch_add(kept.mapped, std::memory_order_relaxed);
      kept.placement.role = placement.role;  // the same pages serve a new array
      kept.placement.by_role = placement.by_role;
      note_allocated(kept);
      return kept;
    }
  }
  Allocation a;
  a.bytes = bytes;
  a.requested = pages;
  a.placement = placement;
  a.element_size = element_size;
  if (bytes == 0) return a;
  void* p = MAP_FAILED;
  // Explicit huge pages from hugetlbfs pools, when asked and available.
  if (pages == PageSize::k2M || pages == PageSize::k1G) {
    const std::size_t unit = pages == PageSize::k1G ? kGiantPage : kHugePage;
    const int log2 = pages == PageSize::k1G ? 30 : 21;
    a.mapped = round_up(bytes, unit);
    p = mmap(nullptr, a.mapped, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (log2 << MAP_HUGE_SHIFT), -1, 0);
    if (p != MAP_FAILED) a.pages = pages;
    else note_hugetlb_fallback(pages, bytes);
  }
  if (p == MAP_FAILED) {
    // THP: map 2 MB more than needed and start at a 2 MB boundary so whole
    // huge pages cover the array. Small arrays stay on 4 KB pages.
    const bool huge = pages != PageSize::k4K && bytes >= kHugePage;
    a.mapped = huge ? round_up(bytes, kHugePage) : bytes;
    const std::size_t extra = huge ? kHugePage : 0;
    void* raw = mmap(nullptr, a.mapped + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED && recycled_bytes() > 0) {  // what the bin keeps is the first memory to give back
      release_recycled();
      raw = mmap(nullptr, a.mapped + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (raw == MAP_FAILED)
      throw ResourceError("cannot allocate " + std::to_string(bytes) + " bytes: " + std::strerror(errno) +
                          " (free memory or use a smaller graph)");
    char* base = static_cast<char*>(raw);
    char* aligned = huge ? reinterpret_cast<char*>(round_up(reinterpret_cast<std::uintptr_t>(base), kHugePage)) : base;
    if (aligned > base) munmap(base, static_cast<std::size_t>(aligned - base));
    if (huge && aligned + a.mapped < base + a.mapped + extra)
      munmap(aligned + a.mapped, static_cast<std::size_t>(base + a.mapped + extra - (aligned + a.mapped)));
    p = aligned;
    a.pages = PageSize::k4K;
    if (huge && madvise(p, a.mapped, MADV_HUGEPAGE) == 0) a.pages = PageSize::kTHP;
    // "4k" means 4 KB pages even where THP is on for every mapping ("always").
    if (pages == PageSize::k4K) madvise(p, a.mapped, MADV_NOHUGEPAGE);
  }
  a.data = p;
  apply_placement(p, a.mapped, bytes, element_size, placement);
  a.recyclable = may_recycle(placement, a.mapped);
  g_held_bytes.fetch_add(a.mapped, std::memory_order_relaxed);
  note_allocated(a);
  return a;
}

void release(const Allocation& allocation) {
  if (allocation.data == nullptr) return;
  g_held_bytes.fetch_sub(allocation.mapped, std::memory_order_relaxed);
  note_released(allocation);  // the placement report's snapshot, while the pages are still this array's
  if (allocation.recyclable) {
    RecycleBin& b = bin();
    std::lock_guard<std::mutex> lock(b.mutex);
    const std::size_t limit = b.limit;
    if (allocation.mapped <= limit) {
      shrink_locked(b, limit - allocation.mapped, kMaxRecycledMappings - 1);
      b.kept.push_back(allocation);
      b.bytes += allocation.mapped;
      return;
    }
  }
  munmap(allocation.data, allocation.mapped);
}

PageReport page_report(const void* data, std::size_t bytes, std::size_t max_pages) {
  PageReport r;
  if (!data || bytes == 0) return r;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t npages = (bytes + page - 1) / page;
  const std::size_t step = std::max<std::size_t>(1, npages / max_pages);
  std::vector<void*> addrs;
  for (std::size_t i = 0; i < npages; i += step)
    addrs.push_back(const_cast<char*>(static_cast<const char*>(data)) + i * page);
  std::vector<int> status(addrs.size(), -1);
  r.sampled = static_cast<std::int64_t>(addrs.size());
  if (numa_available() >= 0 && move_pages(0, addrs.size(), addrs.data(), nullptr, status.data(), 0) == 0) {
    for (int s : status) {
      if (s < 0) {
        ++r.not_present;
        continue;
      }
      if (static_cast<std::size_t>(s) >= r.pages_per_node.size()) r.pages_per_node.resize(static_cast<std::size_t>(s) + 1);
      ++r.pages_per_node[static_cast<std::size_t>(s)];
    }
  } else {
    r.not_present = r.sampled;
  }
  // The mapping that contains `data`: its page size and huge-page bytes.
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  const auto addr = reinterpret_cast<std::uintptr_t>(data);
  bool inside = false;
  std::int64_t huge = 0;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = addr >= lo && addr < hi;
      continue;
    }
    if (!inside) continue;
    long kb = 0;
    if (std::sscanf(line.c_str(), "AnonHugePages: %ld kB", &kb) == 1 ||
        std::sscanf(line.c_str(), "Private_Hugetlb: %ld kB", &kb) == 1 ||
        std::sscanf(line.c_str(), "Shared_Hugetlb: %ld kB", &kb) == 1)
      huge += static_cast<std::int64_t>(kb) * 1024;
    else if (std::sscanf(line.c_str(), "KernelPageSize: %ld kB", &kb) == 1)
      r.kernel_page_size = static_cast<std::int64_t>(kb) * 1024;
  }
  // The kernel may merge neighbouring mappings into one; count at most the
  // huge pages that can lie inside this range.
  const std::size_t unit = r.kernel_page_size > 0 ? static_cast<std::size_t>(r.kernel_page_size) : page;
  const std::size_t cap = unit >= kHugePage ? round_up(bytes, unit) : round_up(bytes, kHugePage) + kHugePage;
  r.huge_bytes = std::min<std::int64_t>(huge, static_cast<std::int64_t>(cap));
  return r;
}

std::int64_t PageReport::on(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < pages_per_node.size() ? pages_per_node[static_cast<std::size_t>(node)]
                                                                              : 0;
}

std::string PageReport::page_size() const {
  if (kernel_page_size >= static_cast<std::int64_t>(kGiantPage)) return "1g";
  if (kernel_page_size >= static_cast<std::int64_t>(kHugePage)) return "2m";
  return huge_bytes > 0 ? "thp" : "4k";
}

std::string PageReport::describe() const {
  std::ostringstream s;
  bool first = true;
  for (std::size_t k = 0; k < pages_per_node.size(); ++k) {
    if (!pages_per_node[k]) continue;
    s << (first ? "" : ", ") << "node" << k << ": " << pages_per_node[k] << " pages";
    first = false;
  }
  if (first) s << "no pages present";
  // move_pages reports no node for pages never touched, and also for pages
  // automatic NUMA balancing has just unmapped to sample their accesses.
  if (not_present && !first) s << ", " << not_present << " not present";
  s << " (of " << sampled << " sampled); " << page_size() << " pages";
  if (page_size() == "thp") s << " (" << static_cast<double>(huge_bytes) / (1 << 20) << " MiB huge)";
  return s.str();
}

}  // namespace numagraph::numa
