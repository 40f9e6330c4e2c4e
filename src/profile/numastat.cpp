#include "numagraph/profile/numastat.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "numagraph/util/error.hpp"
#include "sysfs.hpp"

namespace numagraph::profile {

namespace fs = std::filesystem;

std::map<std::string, std::uint64_t> parse_numastat(const std::string& text, const std::string& file) {
  std::map<std::string, std::uint64_t> out;
  std::istringstream in(text);
  std::string line;
  std::int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string key, value, extra;
    fields >> key >> value;
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || (fields >> extra))
      throw InputError(file, number, "expected a counter name and an unsigned number, got \"" + line + "\"");
    out[key] = std::stoull(value);
  }
  return out;
}

const std::vector<std::string>& NumastatSource::keys() {
  static const std::vector<std::string> k = {"numa_hit",       "numa_miss",  "numa_foreign",
                                             "interleave_hit", "local_node", "other_node"};
  return k;
}

NumastatSource::NumastatSource(const std::string& root) {
  const fs::path dir = fs::path(sysfs_root(root)) / "devices/system/node";
  std::vector<int> nodes;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string n = it->path().filename().string();
    if (n.size() > 4 && n.compare(0, 4, "node") == 0 && n.find_first_not_of("0123456789", 4) == std::string::npos)
      nodes.push_back(std::stoi(n.substr(4)));
  }
  if (nodes.empty()) {
    add_unavailable("", "no " + dir.string() + "/node*/ (a kernel without NUMA support, or sysfs not mounted)");
    return;
  }
  std::sort(nodes.begin(), nodes.end());
  for (int node : nodes) {
    const std::string label = "node" + std::to_string(node);
    const std::string file = (dir / label / "numastat").string();
    std::string text;
    if (int err = detail::read_small_file(file, text); err != 0) {
      add_unavailable(label, "cannot read " + file + ": " + detail::describe_errno(err));
      continue;
    }
    std::map<std::string, std::uint64_t> counts;
    try {
      counts = parse_numastat(text, file);
    } catch (const InputError& e) {
      add_unavailable(label, e.what());
      continue;
    }
    for (const auto& key : keys()) {
      if (!counts.count(key)) {
        add_unavailable(label + "." + key, "no " + key + " line in " + file);
        continue;
      }
      add_metric("numa." + label + "." + key, "pages", MetricKind::kCounter);
      columns_.push_back({file, key, 0, false});
    }
  }
}

void NumastatSource::read_all(double* out) {
  // One read per file: the columns of a node are adjacent.
  std::string file, text;
  std::map<std::string, std::uint64_t> counts;
  bool ok = false;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    Column& col = columns_[c];
    if (col.file != file) {
      file = col.file;
      ok = detail::read_small_file(file, text) == 0;
      if (ok) try {
          counts = parse_numastat(text, file);
        } catch (const InputError&) {
          ok = false;
        }
    }
    double v = NAN;
    const auto it = ok ? counts.find(col.key) : counts.end();
    if (it != counts.end()) {
      if (col.valid && it->second >= col.last) v = static_cast<double>(it->second - col.last);
      col.last = it->second;
      col.valid = true;
    } else {
      col.valid = false;
    }
    if (out) out[c] = v;
  }
}

void NumastatSource::start() { read_all(nullptr); }

void NumastatSource::sample(double* values) { read_all(values); }

}  // namespace numagraph::profile
