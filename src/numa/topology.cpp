#include "numagraph/numa/topology.hpp"

#include <hwloc.h>
#include <numa.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/util/error.hpp"

namespace numagraph::numa {

namespace {

Topology load(hwloc_topology_t t, std::string source, bool synthetic) {
  Topology topo;
  topo.source = std::move(source);
  topo.synthetic = synthetic;
  topo.packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
  topo.cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
  topo.pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  const int nn = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nn; ++i) {
    hwloc_obj_t numa = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    Node node;
    node.index = i;
    node.os_index = static_cast<int>(numa->os_index);
    node.memory = numa->attr ? numa->attr->numanode.local_memory : 0;
    const int ncores = hwloc_get_nbobjs_inside_cpuset_by_type(t, numa->cpuset, HWLOC_OBJ_CORE);
    for (int c = 0; c < ncores; ++c) {
      hwloc_obj_t core = hwloc_get_obj_inside_cpuset_by_type(t, numa->cpuset, HWLOC_OBJ_CORE, static_cast<unsigned>(c));
      node.cores.push_back(static_cast<int>(core->logical_index));
      std::vector<int> pus;
      unsigned pu;
      hwloc_bitmap_foreach_begin(pu, core->cpuset) pus.push_back(static_cast<int>(pu));
      hwloc_bitmap_foreach_end();
      node.core_pus.push_back(pus);
    }
    topo.nodes.push_back(std::move(node));
  }
  if (topo.nodes.empty()) {  // no NUMA information: one node with every core
    Node node;
    const int ncores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    for (int c = 0; c < ncores; ++c) {
      hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, static_cast<unsigned>(c));
      node.cores.push_back(c);
      std::vector<int> pus;
      unsigned pu;
      hwloc_bitmap_foreach_begin(pu, core->cpuset) pus.push_back(static_cast<int>(pu));
      hwloc_bitmap_foreach_end();
      node.core_pus.push_back(pus);
    }
    topo.nodes.push_back(node);
  }
  const int n = topo.num_nodes();
  topo.distance.assign(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), 20));
  for (int i = 0; i < n; ++i) topo.distance[i][i] = 10;
  unsigned nr = 1;
  hwloc_distances_s* dist = nullptr;
  if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &nr, &dist, HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) == 0 &&
      nr > 0 && dist && static_cast<int>(dist->nbobjs) == n) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int a = static_cast<int>(dist->objs[i]->logical_index), b = static_cast<int>(dist->objs[j]->logical_index);
        topo.distance[a][b] = static_cast<int>(dist->values[i * n + j]);
      }
  }
  if (dist) hwloc_distances_release(t, dist);
  return topo;
}

template <typename Setup>
Topology build(Setup&& setup, const std::string& source, bool synthetic) {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) throw ResourceError("hwloc could not start (hwloc_topology_init failed)");
  if (!setup(t)) {
    hwloc_topology_destroy(t);
    throw UsageError("invalid topology '" + source +
                     "': give an hwloc synthetic description such as \"pack:4 numa:1 core:2 pu:1\" or an XML "
                     "file from `lstopo file.xml`");
  }
  if (hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    throw UsageError("hwloc could not load topology '" + source + "'");
  }
  Topology topo = load(t, source, synthetic);
  hwloc_topology_destroy(t);
  return topo;
}

}  // namespace

std::string Topology::summary() const {
  std::string s = std::to_string(num_nodes()) + (num_nodes() == 1 ? " node, " : " nodes, ") + std::to_string(cores) +
                  " cores, " + std::to_string(pus) + " PUs";
  return synthetic ? s + " (synthetic: " + source + ")" : s + " (this machine)";
}

Topology Topology::from_machine() {
  return build([](hwloc_topology_t) { return true; }, "machine", false);
}

namespace {

// The processing units a synthetic description asks for: the product of its
// levels' arities ("pack:4 numa:1 core:2" -> 8). A level is "type:N" or "N",
// with attributes in parentheses ("numa:2(memory=1GB)"); hwloc needs no space
// between levels ("numa:32core:60" is two; newlines separate too), reads
// numbers in C's bases ("0x8686") and reads on leniently past malformed
// parentheses ("packa(1 core:3" gives 3 packages). So every number counts
// unless it is glued to a type name ("L2") or is an attribute's value (from
// '=' to the next blank or ')'): an overestimate refuses a description, never
// lets a huge one through. hwloc's build time grows faster than linearly with
// the count (6060 PUs took 6.5 s), so it is checked first.
double synthetic_pus(const std::string& description) {
  double pus = 1;
  bool in_value = false;  // inside "key=value"
  for (std::size_t i = 0; i < description.size(); ++i) {
    const char c = description[i];
    if (c == '=') in_value = true;
    if (c == ')' || std::isspace(static_cast<unsigned char>(c))) in_value = false;
    const bool is_digit = c >= '0' && c <= '9';
    if (in_value || !is_digit) continue;
    const unsigned char before = i == 0 ? ' ' : static_cast<unsigned char>(description[i - 1]);
    if (std::isalpha(before)) continue;
    // As hwloc reads it: strtoul with base 0, so "0x8686" is 34438.
    char* end = nullptr;
    const double arity = static_cast<double>(std::strtoull(description.c_str() + i, &end, 0));
    i = static_cast<std::size_t>(end - description.c_str()) - 1;
    if (arity > 0) pus *= arity;
  }
  return pus;
}

constexpr double kMaxSyntheticPus = 4096;  // as many as --threads accepts

}  // namespace

Topology Topology::from_synthetic(const std::string& description) {
  if (const double pus = synthetic_pus(description); pus > kMaxSyntheticPus)
    throw UsageError("the synthetic topology '" + description + "' describes " +
                     (pus < 1e15 ? std::to_string(static_cast<long long>(pus)) : std::string("over 10^15")) +
                     " processing units; at most 4096 are supported: use smaller arities");
  // hwloc wants PUs as the last level; "pack:8 numa:1 core:1" means one PU per core.
  std::string d = description;
  const auto last = d.find_last_of(' ');
  const std::string tail = last == std::string::npos ? d : d.substr(last + 1);
  if (tail.rfind("pu:", 0) != 0 && tail.rfind("PU:", 0) != 0) d += " pu:1";
  return build([&](hwloc_topology_t t) { return hwloc_topology_set_synthetic(t, d.c_str()) == 0; }, description, true);
}

Topology Topology::from_xml(const std::string& path) {
  return build([&](hwloc_topology_t t) { return hwloc_topology_set_xml(t, path.c_str()) == 0; }, path, true);
}

void Topology::set_distances(std::vector<std::vector<int>> matrix) {
  const std::size_t n = nodes.size();
  bool ok = matrix.size() == n;
  for (const auto& row : matrix) {
    ok = ok && row.size() == n;
    for (int v : row) ok = ok && v > 0;
  }
  if (!ok)
    throw UsageError("the distance matrix must have " + std::to_string(n) + " rows of " + std::to_string(n) +
                     " positive numbers, one per NUMA node of " + summary());
  distance = std::move(matrix);
}

namespace {

// "10,40,12/40,10,30/12,30,10" -> rows.
std::vector<std::vector<int>> parse_distances(const std::string& text, const std::string& spec) {
  std::vector<std::vector<int>> rows;
  std::vector<int> row;
  std::string number;
  auto flush_number = [&] {
    if (number.empty() || number.size() > 6) throw UsageError("bad distances in topology '" + spec + "'");
    row.push_back(std::stoi(number));
    number.clear();
  };
  for (char c : text + "/") {
    if (c >= '0' && c <= '9') {
      number += c;
    } else if (c == ',') {
      flush_number();
    } else if (c == '/') {
      flush_number();
      rows.push_back(std::move(row));
      row.clear();
    } else {
      throw UsageError("bad distances in topology '" + spec +
                       "': write rows of comma-separated numbers separated by '/', e.g. distances=10,20/20,10");
    }
  }
  return rows;
}

}  // namespace

Topology Topology::select(const std::string& spec) {
  std::string s = spec;
  if (s.empty()) {
    const char* env = std::getenv("NUMAGRAPH_TOPOLOGY");
    if (env) s = env;
  }
  std::string distances;
  if (const auto at = s.find("distances="); at != std::string::npos) {
    distances = s.substr(at + 10);
    s.erase(at);
    while (!s.empty() && s.back() == ' ') s.pop_back();
  }
  Topology t = s.empty() || s == "machine"                                         ? from_machine()
               : s.size() > 4 && s.compare(s.size() - 4, 4, ".xml") == 0 ? from_xml(s)
                                                                                   : from_synthetic(s);
  if (!distances.empty()) {
    t.set_distances(parse_distances(distances, spec));
    t.source = spec;
  }
  return t;
}

int physical_nodes() { return numa_available() < 0 ? 1 : numa_max_node() + 1; }

}  // namespace numagraph::numa
