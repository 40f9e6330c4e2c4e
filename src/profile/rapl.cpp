#include "numagraph/profile/rapl.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "sysfs.hpp"

namespace numagraph::profile {

namespace fs = std::filesystem;

double rapl_delta_uj(std::uint64_t before, std::uint64_t after, std::uint64_t max_range_uj) {
  if (after >= before) return static_cast<double>(after - before);
  if (max_range_uj == 0 || before > max_range_uj) return NAN;
  return static_cast<double>(max_range_uj - before) + static_cast<double>(after);
}

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// "intel-rapl:0" -> {0}, "intel-rapl:0:2" -> {0, 2}; empty when not a RAPL zone.
std::vector<int> zone_path(const std::string& entry) {
  const std::string prefix = "intel-rapl:";
  if (entry.compare(0, prefix.size(), prefix) != 0) return {};
  std::vector<int> ids;
  std::size_t pos = prefix.size();
  while (pos <= entry.size()) {
    const std::size_t colon = std::min(entry.find(':', pos), entry.size());
    const std::string part = entry.substr(pos, colon - pos);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return {};
    ids.push_back(std::stoi(part));
    pos = colon + 1;
  }
  return ids.size() <= 2 ? ids : std::vector<int>{};
}

}  // namespace

RaplSource::RaplSource(const std::string& root) {
  const fs::path dir = fs::path(sysfs_root(root)) / "class/powercap";
  std::map<std::vector<int>, fs::path> zones;  // packages before their subdomains
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    auto ids = zone_path(it->path().filename().string());
    if (!ids.empty()) zones[ids] = it->path();
  }
  if (zones.empty()) {
    add_unavailable("", "no " + dir.string() +
                            "/intel-rapl:* (no RAPL here: a virtual machine, a CPU without it, or the "
                            "intel_rapl driver not loaded)");
    return;
  }
  std::map<int, std::string> package_name;
  std::map<int, bool> has_dram;
  for (const auto& [ids, path] : zones) {
    std::string name;
    if (detail::read_small_file((path / "name").string(), name) != 0 || trimmed(name).empty())
      name = ids.size() == 1 ? "package-" + std::to_string(ids[0]) : "domain-" + std::to_string(ids[1]);
    name = trimmed(name);
    std::string label;
    if (ids.size() == 1) {
      package_name[ids[0]] = name;
      label = name;
    } else {
      const auto p = package_name.find(ids[0]);
      label = (p != package_name.end() ? p->second : "package-" + std::to_string(ids[0])) + "." + name;
      if (name == "dram") has_dram[ids[0]] = true;
    }
    Domain d{label, (path / "energy_uj").string(), 0, 0, false};
    int err = 0;
    std::uint64_t v = 0;
    if (!detail::read_u64_file(d.energy_file, v, err)) {
      std::string why = "cannot read " + d.energy_file + ": " + detail::describe_errno(err);
      if (err == EACCES || err == EPERM) why += " (energy_uj is readable by root only since Linux 5.10; run as root "
                                               "or grant read access to it)";
      add_unavailable(label, why);
      continue;
    }
    if (!detail::read_u64_file((path / "max_energy_range_uj").string(), d.max_range_uj, err)) {
      add_unavailable(label, "cannot read " + (path / "max_energy_range_uj").string() + ": " +
                                 detail::describe_errno(err) + " (energy would be wrong after a wrap-around)");
      continue;
    }
    add_metric("rapl." + label + ".energy", "J", MetricKind::kCounter);
    add_metric("rapl." + label + ".power", "W", MetricKind::kGauge);
    domains_.push_back(std::move(d));
  }
  for (const auto& [pkg, name] : package_name)
    if (!has_dram.count(pkg))
      add_unavailable(name + ".dram", "no DRAM subdomain under intel-rapl:" + std::to_string(pkg) +
                                          " (this CPU or kernel reports no DRAM energy)");
}

void RaplSource::start() {
  last_time_ = Clock::now();
  int err = 0;
  for (auto& d : domains_) d.valid = detail::read_u64_file(d.energy_file, d.last, err);
}

void RaplSource::sample(double* values) {
  const auto now = Clock::now();
  const double dt = std::chrono::duration<double>(now - last_time_).count();
  last_time_ = now;
  int err = 0;
  for (std::size_t i = 0; i < domains_.size(); ++i) {
    Domain& d = domains_[i];
    std::uint64_t v = 0;
    double joules = NAN;
    if (detail::read_u64_file(d.energy_file, v, err)) {
      if (d.valid) joules = rapl_delta_uj(d.last, v, d.max_range_uj) * 1e-6;
      d.last = v;
      d.valid = true;
    } else {
      d.valid = false;
    }
    values[2 * i] = joules;
    values[2 * i + 1] = dt > 0 ? joules / dt : NAN;
  }
}

}  // namespace numagraph::profile
