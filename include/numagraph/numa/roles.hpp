// Per-array placement by role: a kernel's big arrays carry a role name
// ("graph", "ranks", "dist", ...) and ask placement_for(role) where they are
// allocated. A placement set for the role (--place ranks=interleave, Python's
// place=) wins; otherwise the array gets what its allocation site chose
// before roles existed: the --placement default for flat kernels, the
// partitioned layout for the NUMA engine's vertex arrays.
//
// The same table records, when asked (--placement-report), where the pages of
// every array with a role landed: a snapshot (numa::page_report) is taken when
// the array is released, or at report time for arrays still alive. Placement
// never changes results, only where pages live.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/numa/memory.hpp"
#include "numagraph/numa/placement.hpp"

namespace numagraph::numa {

struct RoleInfo {
  const char* name;
  const char* arrays;  // which arrays of which kernels, for --help and errors
  bool read_only;      // never written by a kernel after it is built
};
// Every role, in the order documented in docs/numa.md.
const std::vector<RoleInfo>& roles();

// A policy a user may ask for one role.
struct RolePolicy {
  PlacementKind kind = PlacementKind::kLocal;  // kReplicated = "replicate"
  int node = 0;                                // bind:N
  std::string text() const;                    // "interleave", "bind:1", ...
};

// Parses "graph=interleave,ranks=partitioned,dist=bind:1". Throws UsageError
// (exit 2) naming the valid roles or policies for an unknown one, a node out
// of range is checked when the runtime is configured, and replicate is
// refused for arrays the kernel writes.
std::map<std::string, RolePolicy> parse_place(const std::string& text);
// Checks one role=policy pair (the same errors as parse_place).
void check_role_policy(const std::string& role, const RolePolicy& policy);
RolePolicy parse_role_policy(const std::string& role, const std::string& policy);

// Sets the table (replacing the previous one); empty = every role follows
// its allocation site. Refuses bind:N with N outside the configured topology.
void set_role_placements(std::map<std::string, RolePolicy> table);
const std::map<std::string, RolePolicy>& role_placements();
std::string role_placements_text();  // "graph=interleave,ranks=partitioned" ("" when none)

// The placement for an array of `role`: the role's policy when one is set,
// else `fallback` (the site's own choice). The result carries the role, so
// the allocation is recorded for the placement report.
Placement placement_for(const char* role, Placement fallback = default_placement());

// The placement report. While on, allocate() and release() record arrays
// that carry a role; the report sums, per role, the arrays alive now, or when
// none is, those of the last call (the arrays released since the role last
// had none alive: both PageRank contribution buffers of the last trial).
void set_placement_report(bool on);
bool placement_report_on();
void clear_placement_report();
struct ArrayReport {
  std::string role;
  std::size_t bytes = 0;
  std::string asked;     // the role's policy, or "default (<kind>)" when the site chose
  std::string obtained;  // the policy applied: local, interleave, bind, partitioned
  std::string pages;     // page size obtained (4k, thp, 2m, 1g)
  std::vector<std::int64_t> pages_per_node;  // sampled pages per kernel node
  std::int64_t sampled = 0, not_present = 0;
  int arrays = 0;  // arrays summed in this entry
};
std::vector<ArrayReport> placement_report();
std::string placement_report_json(const std::vector<ArrayReport>& report);
std::string placement_report_text(const std::vector<ArrayReport>& report);

// Hooks for memory.cpp: an allocation with a role was made / is released.
void note_allocated(const Allocation& a);
void note_released(const Allocation& a);

}  // namespace numagraph::numa
