// NUMA allocation counts per node from <sysfs>/devices/system/node/node*/numastat:
// numa_hit, numa_miss, numa_foreign, interleave_hit, local_node and
// other_node, as changes per epoch (pages). The counts are the whole
// machine's, not this process's: other work running at the same time shows
// up too. local_node / other_node say where the allocating thread ran
// relative to the page's node, so a placement that spreads pages over nodes
// (interleave, partitioned) raises other_node.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "numagraph/profile/source.hpp"

namespace numagraph::profile {

// The counters of one numastat file ("key value" lines); unknown keys kept.
// Throws InputError on a line that is not a name and an unsigned number.
std::map<std::string, std::uint64_t> parse_numastat(const std::string& text, const std::string& file);

class NumastatSource final : public Source {
 public:
  // `root`: see sysfs_root().
  explicit NumastatSource(const std::string& root = {});
  const char* name() const override { return "numastat"; }
  void start() override;
  void sample(double* values) override;

  // The six counters reported for each node, in column order.
  static const std::vector<std::string>& keys();

 private:
  struct Column {
    std::string file;
    std::string key;
    std::uint64_t last = 0;
    bool valid = false;  // `last` was read
  };
  void read_all(double* out);
  std::vector<Column> columns_;
};

}  // namespace numagraph::profile
