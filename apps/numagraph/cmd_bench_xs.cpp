// numagraph bench-xs: the cross-section lookups of the XSBench paper (Yoshii
// et al., docs/references.md) under the data placements it compares, at one
// or several thread counts: the placement layer is useful beyond graphs.
// The data and kernel are in xs_lookup.hpp; this file holds the variants,
// the flags and the output (a table for people, one JSON object with --json).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/replicated_array.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/profile/timer.hpp"
#include "registry.hpp"
#include "runtime_info.hpp"
#include "summary.hpp"
#include "xs_lookup.hpp"

namespace numagraph::cli {
namespace {

using xs::GridPoint;

struct XsOptions {
  xs::Sizes sizes;
  std::int64_t lookups = 2000000;
  std::string threads;          // "" = one per core; N or a comma list
  std::string variants = "all";
  int trials = 3;
  bool json = false;
};

// How a variant's arrays get their pages. Every variant but replicate-2m
// asks for 4 KB pages (the paper's machine ran with transparent huge pages
// off); replicate-2m asks for 2 MB pages for the nuclide grids only.
struct Variant {
  const char* name;   // as --variants spells it
  const char* paper;  // the paper's label
  const char* what;
  numa::Placement grid_place, union_place;
  bool parallel_init;  // each thread copies its static share (else thread 0 copies everything)
  bool replicate;      // one copy of the nuclide grids per node
  numa::PageSize grid_pages;
};

const std::vector<Variant>& all_variants() {
  using numa::Placement;
  static const std::vector<Variant> v = {
      {"serial-init", "default", "first touch, serial initialisation (one thread writes everything)",
       Placement::local(), Placement::local(), false, false, numa::PageSize::k4K},
      {"parallel-init", "first touch, parallel init", "first touch, parallel initialisation (each thread its share)",
       Placement::local(), Placement::local(), true, false, numa::PageSize::k4K},
      {"interleave", "numactl", "everything interleaved over the nodes (numactl --interleave=all)",
       Placement::interleave(), Placement::interleave(), false, false, numa::PageSize::k4K},
      {"replicate", "numag", "nuclide grids replicated per node, unionized grid interleaved", Placement::local(),
       Placement::interleave(), false, true, numa::PageSize::k4K},
      {"replicate-2m", "numag+hugetlb", "replicate, with 2 MB pages for the nuclide grids only", Placement::local(),
       Placement::interleave(), false, true, numa::PageSize::k2M},
  };
  return v;
}

std::string variant_names() {
  std::string s;
  for (const auto& v : all_variants()) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return s;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
  if (text.empty() || text.back() == ',') parts.emplace_back();  // "" and "1," hold an empty part
  return parts;
}

// "N" or "1,2,4": sorted, without repeats; 0 = one per core.
std::vector<int> parse_thread_list(const std::string& text) {
  if (text.empty()) return {0};
  std::vector<int> counts;
  for (const std::string& part : split_commas(text)) {
    std::size_t used = 0;
    long value = -1;
    try {
      value = std::stol(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size() || value < 0 || value > numa::kMaxThreads)
      throw UsageError("bench-xs: --threads '" + text + "': give a thread count or a comma list of counts such as "
                       "1,2,4 (each 1.." + std::to_string(numa::kMaxThreads) + "; 0 = one per core)");
    counts.push_back(static_cast<int>(value));
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

// "all" or a comma list of variant names, in the table's order.
std::vector<const Variant*> parse_variants(const std::string& text) {
  std::vector<const Variant*> chosen;
  const auto parts = split_commas(text);
  for (const std::string& part : parts) {
    if (part == "all" && parts.size() == 1) break;
    const auto& all = all_variants();
    auto it = std::find_if(all.begin(), all.end(), [&](const Variant& v) { return part == v.name; });
    if (it == all.end())
      throw UsageError("bench-xs: --variants: no variant named '" + part + "'; give 'all' or a comma list of " +
                       variant_names());
  }
  for (const auto& v : all_variants())
    if (text == "all" || std::find(parts.begin(), parts.end(), v.name) != parts.end()) chosen.push_back(&v);
  return chosen;
}

// One variant's copy of the data, placed and initialised as the variant says.
struct Placed {
  NumaArray<GridPoint> grids;  // unless replicated
  numa::ReplicatedArray<GridPoint> copies;
  NumaArray<double> union_energy;
  NumaArray<std::int32_t> union_idx;
};

template <typename T>
void copy_in(T* to, const std::vector<T>& from, bool parallel_init) {
  const std::int64_t n = static_cast<std::int64_t>(from.size());
  if (!parallel_init) {
    std::memcpy(to, from.data(), from.size() * sizeof(T));
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) to[i] = from[i];
}

Placed place(const Variant& v, const xs::XsMaster& m) {
  Placed p;
  if (v.replicate) {
    p.copies = numa::ReplicatedArray<GridPoint>(std::span<const GridPoint>(m.grids), v.grid_pages);
  } else {
    p.grids = NumaArray<GridPoint>(m.grids.size(), v.grid_place, v.grid_pages);
    copy_in(p.grids.data(), m.grids, v.parallel_init);
  }
  p.union_energy = NumaArray<double>(m.union_energy.size(), v.union_place, numa::PageSize::k4K);
  copy_in(p.union_energy.data(), m.union_energy, v.parallel_init);
  p.union_idx = NumaArray<std::int32_t>(m.union_idx.size(), v.union_place, numa::PageSize::k4K);
  copy_in(p.union_idx.data(), m.union_idx, v.parallel_init);
  return p;
}

// Where one array's pages are, for people and as JSON.
struct Where {
  std::string text;
  std::string json;
};
Where where(const void* data, std::size_t bytes, const std::string& label) {
  const numa::PageReport r = numa::page_report(data, bytes);
  profile::Record rec;
  if (!label.empty()) rec.set("copy", label);
  rec.set("pages_per_node", r.pages_per_node)
      .set("not_present", r.not_present)
      .set("sampled", r.sampled)
      .set("page_size", r.page_size())
      .set("huge_bytes", r.huge_bytes);
  return {(label.empty() ? "" : "copy " + label + ": ") + r.describe(), rec.json()};
}

struct Cell {  // one variant at one thread count
  const Variant* variant = nullptr;
  int threads = 0;
  std::vector<double> rates, init_seconds;
  std::uint64_t checksum = 0;
  std::vector<Where> grids;
  Where union_idx;
};

void measure(Cell& c, const xs::XsMaster& m, const XsOptions& o, bool report_pages) {
  const Variant& v = *c.variant;
  profile::Timer init;
  Placed p = place(v, m);
  c.init_seconds.push_back(init.seconds());
  profile::Timer t;
  c.checksum = xs::run_lookups(o.sizes, o.lookups, p.union_energy.data(), p.union_idx.data(), m.material_nuclides,
                               [&](int node) { return v.replicate ? p.copies.copy(node) : p.grids.data(); });
  c.rates.push_back(static_cast<double>(o.lookups) / t.seconds());
  if (!report_pages) return;
  const std::size_t grid_bytes = m.grids.size() * sizeof(GridPoint);
  if (v.replicate)
    for (int k = 0; k < p.copies.nodes(); ++k) c.grids.push_back(where(p.copies.copy(k), grid_bytes, std::to_string(k)));
  else
    c.grids.push_back(where(p.grids.data(), grid_bytes, ""));
  c.union_idx = where(p.union_idx.data(), p.union_idx.bytes(), "");
}

void print_people(const std::vector<Cell>& cells, const XsOptions& o, bool agree) {
  std::printf("\n%-14s %7s %14s %8s %9s  %s\n", "variant", "threads", "lookups/s", "ratio", "init s", "paper");
  for (const Cell& c : cells) {
    const Cell& first = *std::find_if(cells.begin(), cells.end(), [&](const Cell& x) { return x.threads == c.threads; });
    std::printf("%-14s %7d %14.0f %8.3f %9.3f  %s\n", c.variant->name, c.threads, median(c.rates),
                median(c.rates) / median(first.rates), median(c.init_seconds), c.variant->paper);
  }
  std::printf("ratio: over the first variant at the same thread count; %d trials, median\n", o.trials);
  std::printf("checksums %s\n", agree ? "agree (every variant and thread count computed the same lookups)" : "DIFFER");
  std::printf("\nplacement (pages per kernel node, page size obtained):\n");
  for (const Cell& c : cells) {
    std::printf("  %s, %d threads: %s\n", c.variant->name, c.threads, c.variant->what);
    for (const Where& w : c.grids) std::printf("    nuclide grids:  %s\n", w.text.c_str());
    std::printf("    unionized grid: %s\n", c.union_idx.text.c_str());
  }
}

void print_json(const std::vector<Cell>& cells, const XsOptions& o, const std::vector<int>& threads, bool agree,
                double master_seconds) {
  const xs::Sizes& s = o.sizes;
  profile::Record rec;
  rec.set("kernel", "bench-xs")
      .set("nuclides", s.nuclides)
      .set("gridpoints", s.gridpoints)
      .set("materials", s.materials)
      .set("lookups", o.lookups)
      .set("trials", o.trials)
      .set("threads", threads)
      .set("nuclide_grid_bytes", static_cast<std::int64_t>(s.total() * sizeof(GridPoint)))
      .set("unionized_grid_bytes", static_cast<std::int64_t>(s.total() * (8 + 4 * s.nuclides)))
      .set("generate_s", master_seconds);
  add_runtime_fields(rec);
  std::string results = "[";
  for (const Cell& c : cells) {
    profile::Record r;
    std::string grids = "[";
    for (const Where& w : c.grids) grids += (grids.size() > 1 ? ", " : "") + w.json;
    char checksum[24];
    std::snprintf(checksum, sizeof checksum, "%016llx", static_cast<unsigned long long>(c.checksum));
    r.set("variant", c.variant->name)
        .set("paper", c.variant->paper)
        .set("threads", c.threads)
        .set("lookups_per_s", median(c.rates))
        .set("trials_lookups_per_s", c.rates)
        .set("init_s", median(c.init_seconds))
        .set("checksum", checksum)
        .raw("nuclide_grids", grids + "]")
        .raw("unionized_grid", c.union_idx.json);
    results += (results.size() > 1 ? ", " : "") + r.json();
  }
  rec.raw("results", results + "]").set("checksums_agree", agree).set("peak_rss_bytes", peak_rss_bytes());
  std::printf("%s\n", rec.json().c_str());
}

void run_xs(const XsOptions& o) {
  const std::vector<int> requested = parse_thread_list(o.threads);
  const std::vector<const Variant*> variants = parse_variants(o.variants);
  const xs::Sizes& s = o.sizes;
  // Each variant maps fresh memory (first touch must see untouched pages),
  // so a freed array kept for reuse would only hold memory: at XSBench
  // 'large' one placed copy is 5.6 GiB.
  numa::set_recycle_limit(0);
  profile::Timer gen;
  const xs::XsMaster m = xs::build_master(s);
  const double master_seconds = gen.seconds();
  std::vector<Cell> cells;
  std::vector<int> threads;
  for (int t : requested) {
    apply_runtime_options(t);
    const auto& rt = numa::Runtime::get();
    threads.push_back(rt.threads());
    if (!o.json && t == requested.front())
      std::printf("XSBench-style lookups: %d nuclides x %d gridpoints, %d materials, %lld lookups, %s\n"
                  "nuclide grids %.1f MiB, unionized grid %.1f MiB (generated once in %.2f s); %d trials per variant "
                  "and thread count, variants interleaved\n",
                  s.nuclides, s.gridpoints, s.materials, static_cast<long long>(o.lookups),
                  rt.topology().summary().c_str(), static_cast<double>(s.total() * sizeof(GridPoint)) / (1 << 20),
                  static_cast<double>(s.total() * (8 + 4 * s.nuclides)) / (1 << 20), master_seconds, o.trials);
    const std::size_t first = cells.size();
    for (const Variant* v : variants) {
      cells.emplace_back();
      cells.back().variant = v;
      cells.back().threads = rt.threads();
    }
    for (int trial = 0; trial < o.trials; ++trial)
      for (std::size_t i = first; i < cells.size(); ++i) measure(cells[i], m, o, trial == 0);
  }
  bool agree = true;
  for (const Cell& c : cells) agree = agree && c.checksum == cells.front().checksum;
  if (o.json)
    print_json(cells, o, threads, agree, master_seconds);
  else
    print_people(cells, o, agree);
  if (!agree) throw VerifyError("bench-xs: the variants computed different checksums");
}

const Register kBenchXs{
    {"bench-xs", "XSBench-style cross-section lookups under the XSBench paper's placements, over thread counts", 900,
     [](CLI::App& app) {
       auto o = std::make_shared<XsOptions>();
       add_runtime_options(app, /*array_roles=*/false);
       app.add_option("-t,--threads", o->threads,
                      "thread count, or a comma list (1,2,4) measured in one run: the data is generated once and "
                      "each variant copies it into its placed arrays before every timed run (default: one per core)");
       app.add_option("--variants", o->variants,
                      "'all' (default) or a comma list of: serial-init (first touch, one thread initialises: the "
                      "paper's default), parallel-init (first touch, each thread initialises its share), interleave "
                      "(numactl --interleave=all), replicate (numag: nuclide grids per node, unionized grid "
                      "interleaved), replicate-2m (numag+hugetlb: replicate, 2 MB pages for the nuclide grids only). "
                      "Pages are 4 KB except those 2 MB ones, whatever --pages says");
       app.add_option("--nuclides", o->sizes.nuclides, "nuclides (68, XSBench 'small'; 355 is 'large')")
           ->check(CLI::Range(2, 1000));
       app.add_option("--gridpoints", o->sizes.gridpoints, "points per nuclide grid (11303)")
           ->check(CLI::Range(4, 10000000));
       app.add_option("--lookups", o->lookups, "lookups per variant, thread count and trial (2e6)")->check(kPositive);
       app.add_option("-n,--trials", o->trials,
                      "trials per variant and thread count, variants interleaved; the median is reported (3)")
           ->check(CLI::Range(1, 100));
       app.add_flag("--json", o->json,
                    "print one JSON object: sizes, threads, runtime fields, and per variant and thread count the "
                    "median lookups/s, every trial, init time, checksum and where the pages landed");
       app.callback([o] { run_xs(*o); });
     }}};

}  // namespace
}  // namespace numagraph::cli
