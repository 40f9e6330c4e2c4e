#include "numagraph/profile/source.hpp"

#include <cstdlib>

#include "numagraph/profile/numastat.hpp"
#include "numagraph/profile/perf_events.hpp"
#include "numagraph/profile/rapl.hpp"

namespace numagraph::profile {

const char* to_string(MetricKind kind) { return kind == MetricKind::kCounter ? "counter" : "gauge"; }

std::string Source::reason() const {
  if (available()) return {};
  std::string s;
  for (const auto& u : unavailable_) {
    if (!s.empty()) s += "; ";
    s += u.what.empty() ? u.reason : u.what + ": " + u.reason;
  }
  return s.empty() ? std::string("nothing to read") : s;
}

std::string sysfs_root(const std::string& given) {
  if (!given.empty()) return given;
  const char* env = std::getenv("NUMAGRAPH_SYSFS_ROOT");
  if (env && *env) return env;
  return "/sys";
}

std::vector<std::unique_ptr<Source>> default_sources(const std::string& root) {
  std::vector<std::unique_ptr<Source>> s;
  s.push_back(std::make_unique<PerfEventsSource>(openmp_worker_tids()));
  s.push_back(std::make_unique<NumastatSource>(root));
  s.push_back(std::make_unique<RaplSource>(root));
  return s;
}

}  // namespace numagraph::profile
