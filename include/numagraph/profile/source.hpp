// What the sampler reads: a Source is one kind of measurement (perf events of
// the worker threads, NUMA allocation counts per node, RAPL energy) that
// names its metrics with units, says which of them the machine has and, for
// each one it lacks, why. A source never fails for lack of hardware or
// permission: what it cannot read is listed as unavailable instead.
//
// Counters report the change since the previous read (one epoch's worth);
// gauges report the value now (watts). docs/profiling.md describes each
// source and the file format.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace numagraph::profile {

enum class MetricKind { kCounter, kGauge };
const char* to_string(MetricKind kind);  // "counter" | "gauge"

struct Metric {
  std::string name;  // "perf.task_clock", "numa.node1.other_node", "rapl.package-0.energy"
  std::string unit;  // "ns", "count", "pages", "J", "W"
  MetricKind kind = MetricKind::kCounter;
  std::string note;  // how it was measured when that matters ("user space only"), else empty
};

// Something a source looked for and could not read.
struct Unavailable {
  std::string source;  // the source's name
  std::string what;    // event, node or domain; empty: the whole source
  std::string reason;  // what is missing or refused, and what to do about it
};

class Source {
 public:
  virtual ~Source() = default;
  virtual const char* name() const = 0;
  // The metrics sample() writes, in order. Empty when nothing could be opened.
  const std::vector<Metric>& metrics() const { return metrics_; }
  bool available() const { return !metrics_.empty(); }
  // Why the source has nothing (the unavailable reasons joined); empty when available().
  std::string reason() const;
  // Everything asked for and not obtained, each with its reason.
  const std::vector<Unavailable>& unavailable() const { return unavailable_; }
  // Reads the baseline of the first epoch.
  virtual void start() = 0;
  // Writes metrics().size() values: counters as the change since the
  // previous start() or sample(), gauges as their value now; NaN for a value
  // that could not be read this time.
  virtual void sample(double* values) = 0;

 protected:
  void add_metric(std::string name, std::string unit, MetricKind kind, std::string note = {}) {
    metrics_.push_back({std::move(name), std::move(unit), kind, std::move(note)});
  }
  void add_unavailable(std::string what, std::string reason) {
    unavailable_.push_back({name(), std::move(what), std::move(reason)});
  }

 private:
  std::vector<Metric> metrics_;
  std::vector<Unavailable> unavailable_;
};

// The root under which sources find sysfs (node*/numastat, powercap):
// `given` when not empty, else the environment's NUMAGRAPH_SYSFS_ROOT, else
// "/sys". Tests point it at fake trees.
std::string sysfs_root(const std::string& given = {});

// Every source numagraph has, for the calling process's OpenMP worker
// threads: perf_events, numastat and rapl (sysfs under sysfs_root(root)).
// Call it outside parallel regions.
std::vector<std::unique_ptr<Source>> default_sources(const std::string& root = {});

}  // namespace numagraph::profile
