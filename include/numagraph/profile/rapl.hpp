// Energy from RAPL through the powercap interface:
// <sysfs>/class/powercap/intel-rapl:P (a package) and intel-rapl:P:D (its
// subdomains: dram, core, uncore), each with `name`, `energy_uj` and
// `max_energy_range_uj`. Every domain gives two metrics,
// "rapl.<package>[.<sub>].energy" (joules per epoch) and "...power" (watts
// over the epoch). energy_uj wraps to 0 after max_energy_range_uj; a reading
// below the previous one is taken as one wrap. Since Linux 5.10 energy_uj is
// readable by root only, so an unprivileged run reports RAPL unavailable.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "numagraph/profile/source.hpp"

namespace numagraph::profile {

// The energy between two energy_uj readings in microjoules, given the
// domain's max_energy_range_uj (0: unknown, and a decrease gives NaN).
double rapl_delta_uj(std::uint64_t before, std::uint64_t after, std::uint64_t max_range_uj);

class RaplSource final : public Source {
 public:
  // `root`: see sysfs_root().
  explicit RaplSource(const std::string& root = {});
  const char* name() const override { return "rapl"; }
  void start() override;
  void sample(double* values) override;

 private:
  using Clock = std::chrono::steady_clock;
  struct Domain {
    std::string label;        // "package-0", "package-0.dram"
    std::string energy_file;
    std::uint64_t max_range_uj = 0;
    std::uint64_t last = 0;
    bool valid = false;
  };
  std::vector<Domain> domains_;
  Clock::time_point last_time_;
};

}  // namespace numagraph::profile
