#include "numagraph/numa/roles.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "numagraph/numa/runtime.hpp"
#include "numagraph/profile/record.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::numa {

const std::vector<RoleInfo>& roles() {
  static const std::vector<RoleInfo> table{
      {"graph", "the CSR graph: offsets, neighbours, weights (built or converted in this process)", true},
      {"ranks", "pr: PageRank scores", false},
      {"contrib", "pr: PageRank contributions", false},
      {"parents", "bfs: parent array", false},
      {"depth", "bfs and bc: depths", false},
      {"frontier", "bfs: the vertex queue (flat kernel)", false},
      {"dist", "sssp: distances", false},
      {"labels", "cc: component labels", false},
      {"scores", "bc: centrality scores", false},
      {"sigma", "bc: shortest-path counts", false},
      {"delta", "bc: dependencies", false},
      {"x", "spmv: input vector", false},
      {"y", "spmv: output vector", false},
      {"core", "kcore: core numbers and degrees", false},
      {"belief", "bp: beliefs", false},
  };
  return table;
}

namespace {

std::string role_names() {
  std::string s;
  for (const RoleInfo& r : roles()) s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

const RoleInfo* find_role(std::string_view name) {
  for (const RoleInfo& r : roles())
    if (name == r.name) return &r;
  return nullptr;
}

constexpr const char* kPolicies = "local, interleave, partitioned, bind:N, replicate";

struct State {
  std::mutex mutex;
  std::map<std::string, RolePolicy> table;
  // The placement report: the arrays with a role alive now (by address) and,
  // per role, the arrays released since the role last had none alive (the
  // last call's working arrays: both PageRank contribution buffers, not the
  // buffers of every trial).
  std::unordered_map<const void*, Allocation> live;
  std::map<std::string, int> live_count;
  std::map<std::string, std::vector<ArrayReport>> released;
};
State& state() {
  static State s;
  return s;
}
std::atomic<bool> g_report{false};

ArrayReport snapshot(const Allocation& a) {
  ArrayReport r;
  r.role = a.placement.role;
  r.bytes = a.bytes;
  if (a.placement.by_role) {
    const auto it = state().table.find(r.role);
    r.asked = it != state().table.end() ? it->second.text() : to_string(a.placement.kind);
  } else {
    r.asked = "default (" + to_string(a.placement.kind) + ")";
  }
  r.obtained = to_string(a.placement.kind);
  if (a.placement.kind == PlacementKind::kBind) r.obtained += ":" + std::to_string(a.placement.node);
  // A synthetic topology's nodes that do not exist here get no placement (Runtime::os_node).
  const Runtime& rt = Runtime::get();
  if (rt.configured() && a.placement.kind == PlacementKind::kBind && rt.os_node(a.placement.node) < 0) {
    r.obtained += " (node absent here: unplaced)";
  } else if (rt.configured() && (a.placement.kind == PlacementKind::kInterleave ||
                                 a.placement.kind == PlacementKind::kPartitioned)) {
    int absent = 0;
    for (int k = 0; k < rt.topology().num_nodes(); ++k) absent += rt.os_node(k) < 0;
    if (absent == rt.topology().num_nodes())
      r.obtained += " (unplaced: the topology's nodes are absent here)";
    else if (absent > 0)
      r.obtained += " (" + std::to_string(absent) + " of " + std::to_string(rt.topology().num_nodes()) +
                    " nodes absent here)";
  }
  const PageReport p = page_report(a.data, a.bytes, 1024);
  r.pages = p.page_size();
  r.pages_per_node = p.pages_per_node;
  r.sampled = p.sampled;
  r.not_present = p.not_present;
  return r;
}

}  // namespace

std::string RolePolicy::text() const {
  switch (kind) {
    case PlacementKind::kBind: return "bind:" + std::to_string(node);
    case PlacementKind::kReplicated: return "replicate";
    default: return to_string(kind);
  }
}

void check_role_policy(const std::string& role, const RolePolicy& policy) {
  const RoleInfo* info = find_role(role);
  if (!info) throw UsageError("unknown --place role '" + role + "' (use one of: " + role_names() + ")");
  if (policy.kind != PlacementKind::kReplicated) return;
  if (!info->read_only)
    throw UsageError("--place " + role + "=replicate: '" + role + "' (" + info->arrays +
                     ") is written by the kernel, and replicas are for read-only arrays; use local, interleave, "
                     "partitioned or bind:N");
  // Read-only, but no kernel reads the CSR through per-node copies yet.
  throw UsageError("--place " + role + "=replicate: no kernel reads '" + role +
                   "' through per-node copies yet; use interleave or partitioned, or --engine numa, whose "
                   "partitions keep each node's edges on that node");
}

RolePolicy parse_role_policy(const std::string& role, const std::string& text) {
  RolePolicy p;
  if (text == "local") p.kind = PlacementKind::kLocal;
  else if (text == "interleave") p.kind = PlacementKind::kInterleave;
  else if (text == "partitioned") p.kind = PlacementKind::kPartitioned;
  else if (text == "replicate") p.kind = PlacementKind::kReplicated;
  else if (text.rfind("bind:", 0) == 0 && text.size() > 5 &&
           text.find_first_not_of("0123456789", 5) == std::string::npos && text.size() < 10) {
    p.kind = PlacementKind::kBind;
    p.node = std::stoi(text.substr(5));
  } else {
    throw UsageError("unknown --place policy '" + text + "' for '" + role + "' (use one of: " + kPolicies + ")");
  }
  check_role_policy(role, p);
  return p;
}

std::map<std::string, RolePolicy> parse_place(const std::string& text) {
  std::map<std::string, RolePolicy> table;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("--place expects ROLE=POLICY[,ROLE=POLICY...] (got '" + item + "'); roles: " + role_names() +
                       "; policies: " + kPolicies);
    const std::string role = item.substr(0, eq);
    if (table.count(role)) throw UsageError("--place names '" + role + "' twice: give each role one policy");
    table[role] = parse_role_policy(role, item.substr(eq + 1));
  }
  return table;
}

void set_role_placements(std::map<std::string, RolePolicy> table) {
  const Runtime& rt = Runtime::get();
  const int nodes = rt.configured() ? rt.topology().num_nodes() : 1;
  for (const auto& [role, p] : table) {
    check_role_policy(role, p);
    if (p.kind == PlacementKind::kBind && (p.node < 0 || p.node >= nodes))
      throw UsageError("--place " + role + "=bind:" + std::to_string(p.node) + ": the topology has " +
                       std::to_string(nodes) + " node" + (nodes == 1 ? "" : "s") + " (use bind:0 to bind:" +
                       std::to_string(nodes - 1) + ")");
  }
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.table = std::move(table);
}

const std::map<std::string, RolePolicy>& role_placements() { return state().table; }

std::string role_placements_text() {
  std::string s;
  for (const auto& [role, p] : state().table) s += (s.empty() ? "" : ",") + role + "=" + p.text();
  return s;
}

Placement placement_for(const char* role, Placement fallback) {
  fallback.role = role;
  fallback.by_role = false;
  const State& s = state();
  const auto it = s.table.find(role);
  if (it == s.table.end()) return fallback;
  Placement p = Placement::of(it->second.kind, it->second.node);
  p.role = role;
  p.by_role = true;
  return p;
}

void set_placement_report(bool on) { g_report = on; }
bool placement_report_on() { return g_report; }

void clear_placement_report() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.released.clear();
  s.live.clear();  // arrays made before (a Python caller's earlier results) are not this call's
  s.live_count.clear();
}

void note_allocated(const Allocation& a) {
  if (!a.placement.role || !a.data || !g_report) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  int& alive = s.live_count[a.placement.role];
  if (alive++ == 0) s.released.erase(a.placement.role);  // a new call's arrays replace the last call's
  s.live[a.data] = a;
}

void note_released(const Allocation& a) {
  if (!a.placement.role || !a.data || !g_report) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto it = s.live.find(a.data);
  if (it == s.live.end()) return;
  s.live.erase(it);
  --s.live_count[a.placement.role];
  s.released[a.placement.role].push_back(snapshot(a));
}

std::vector<ArrayReport> placement_report() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  // Per role: the arrays alive now, or when none is, the last call's.
  std::map<std::string, std::vector<ArrayReport>> arrays;
  for (const auto& [data, a] : s.live) arrays[a.placement.role].push_back(snapshot(a));
  for (const auto& [role, list] : s.released)
    if (!arrays.count(role)) arrays[role] = list;
  std::vector<ArrayReport> out;
  for (const RoleInfo& info : roles()) {  // in the documented order
    const auto it = arrays.find(info.name);
    if (it == arrays.end() || it->second.empty()) continue;
    ArrayReport sum = it->second.back();
    sum.bytes = 0;
    sum.sampled = sum.not_present = 0;
    sum.pages_per_node.clear();
    for (const ArrayReport& r : it->second) {
      sum.bytes += r.bytes;
      sum.sampled += r.sampled;
      sum.not_present += r.not_present;
      if (r.pages_per_node.size() > sum.pages_per_node.size()) sum.pages_per_node.resize(r.pages_per_node.size());
      for (std::size_t k = 0; k < r.pages_per_node.size(); ++k) sum.pages_per_node[k] += r.pages_per_node[k];
      if (r.asked != sum.asked && sum.asked.find(r.asked) == std::string::npos) sum.asked += "|" + r.asked;
      if (r.obtained != sum.obtained && sum.obtained.find(r.obtained) == std::string::npos)
        sum.obtained += "|" + r.obtained;
    }
    sum.arrays = static_cast<int>(it->second.size());
    out.push_back(std::move(sum));
  }
  return out;
}

namespace {
std::string json_list(const std::vector<std::int64_t>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(values[i]);
  }
  return s + "]";
}
}  // namespace

std::string placement_report_json(const std::vector<ArrayReport>& report) {
  std::string s = "[";
  for (std::size_t i = 0; i < report.size(); ++i) {
    const ArrayReport& r = report[i];
    profile::Record rec;
    rec.set("role", r.role)
        .set("bytes", static_cast<std::int64_t>(r.bytes))
        .set("asked", r.asked)
        .set("obtained", r.obtained)
        .set("pages", r.pages)
        .raw("pages_per_node", json_list(r.pages_per_node))
        .set("sampled", r.sampled)
        .set("not_present", r.not_present)
        .set("arrays", r.arrays);
    if (i) s += ", ";
    s += rec.json();
  }
  return s + "]";
}

std::string placement_report_text(const std::vector<ArrayReport>& report) {
  std::string s = "placement report (the kernel's arrays by role; sampled pages per kernel node):\n";
  if (report.empty()) s += "  (no array with a role was allocated)\n";
  for (const ArrayReport& r : report) {
    char head[160];
    std::snprintf(head, sizeof head, "  %-9s %10.2f MiB  asked %-22s got %-12s %-4s ", r.role.c_str(),
                  static_cast<double>(r.bytes) / (1 << 20), r.asked.c_str(), r.obtained.c_str(), r.pages.c_str());
    s += head;
    bool first = true;
    for (std::size_t k = 0; k < r.pages_per_node.size(); ++k) {
      if (!r.pages_per_node[k]) continue;
      s += (first ? "" : ", ") + std::string("node") + std::to_string(k) + ": " + std::to_string(r.pages_per_node[k]);
      first = false;
    }
    if (first) s += "no pages present";
    if (r.not_present && !first) s += ", " + std::to_string(r.not_present) + " not present";
    s += " (of " + std::to_string(r.sampled) + ")\n";
  }
  return s;
}

}  // namespace numagraph::numa
