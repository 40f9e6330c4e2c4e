#include "graph500_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "numagraph/profile/record.hpp"

namespace numagraph::dist {

namespace {

struct Stats {
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0, stddev = 0;
};

// Quartiles by linear interpolation between order statistics; sample stddev.
Stats stats(std::vector<double> x) {
  Stats s;
  if (x.empty()) return s;
  std::sort(x.begin(), x.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(x.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, x.size() - 1);
    return x[lo] + (pos - static_cast<double>(lo)) * (x[hi] - x[lo]);
  };
  s.min = x.front();
  s.max = x.back();
  s.q1 = at(0.25);
  s.median = at(0.5);
  s.q3 = at(0.75);
  for (double v : x) s.mean += v;
  s.mean /= static_cast<double>(x.size());
  double var = 0;
  for (double v : x) var += (v - s.mean) * (v - s.mean);
  s.stddev = x.size() > 1 ? std::sqrt(var / static_cast<double>(x.size() - 1)) : 0;
  return s;
}

void line(std::string& out, const char* key, double value, bool bang = false) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%-29s%s%.6g\n", (std::string(key) + ":").c_str(), bang ? "!  " : "   ", value);
  out += buf;
}

void line(std::string& out, const char* key, const std::string& value) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%-29s   %s\n", (std::string(key) + ":").c_str(), value.c_str());
  out += buf;
}

void block(std::string& out, const char* prefix, const char* suffix, const Stats& s, bool with_spread) {
  const char* names[] = {"min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev"};
  const double values[] = {s.min, s.q1, s.median, s.q3, s.max, s.mean, s.stddev};
  for (int i = 0; i < (with_spread ? 7 : 5); ++i)
    line(out, (std::string(prefix) + names[i] + suffix).c_str(), values[i]);
}

// Mean over the roots of each phase (ranks' mean or max), "other" last: the
// ranks' mean BFS time not in any phase.
std::array<double, kNumPhases + 1> phase_means(const std::vector<PhaseSample>& phases, bool max) {
  std::array<double, kNumPhases + 1> m{};
  if (phases.empty()) return m;
  for (const PhaseSample& p : phases) {
    double in_phases = 0;
    for (std::size_t i = 0; i < kNumPhases; ++i) {
      m[i] += max ? p.max[i] : p.mean[i];
      in_phases += p.mean[i];
    }
    m[kNumPhases] += std::max(0.0, p.rank_mean_s - in_phases);
  }
  for (double& x : m) x /= static_cast<double>(phases.size());
  return m;
}

std::string phase_key(std::size_t i) { return i < kNumPhases ? kPhaseNames[i] : "other"; }

}  // namespace

void Report::add_bfs(std::uint64_t root, double s, std::int64_t traversed, int td, int bu) {
  roots.push_back(root);
  seconds.push_back(s);
  edges.push_back(traversed);
  teps.push_back(static_cast<double>(traversed) / s);
  top_down_steps.push_back(td);
  bottom_up_steps.push_back(bu);
}

void Report::add_validation(std::uint64_t root, double s, bool ok, const std::string& message) {
  validate_s.push_back(s);
  if (ok) {
    ++passed;
  } else if (first_failure.empty()) {
    first_failure = "root " + std::to_string(root) + ": " + message;
  }
}

double Report::harmonic_mean_teps() const {
  double inv = 0;
  for (double t : teps) inv += 1.0 / t;
  return static_cast<double>(teps.size()) / inv;
}

std::string Report::text() const {
  std::string out;
  line(out, "SCALE", scale);
  line(out, "edgefactor", edge_factor);
  line(out, "NBFS", static_cast<double>(roots.size()));
  line(out, "graph_generation", generation_s);
  line(out, "num_mpi_processes", ranks);
  line(out, "construction_time", construction_s);
  block(out, "bfs  ", "_time", stats(seconds), true);
  std::vector<double> e(edges.begin(), edges.end());
  block(out, "", "_nedge", stats(e), true);
  block(out, "bfs  ", "_TEPS", stats(teps), false);
  // Harmonic mean and its standard deviation, from the statistics of 1/TEPS.
  std::vector<double> inv;
  for (double t : teps) inv.push_back(1.0 / t);
  const Stats si = stats(inv);
  line(out, "bfs  harmonic_mean_TEPS", 1.0 / si.mean, true);
  const double k = static_cast<double>(teps.size());
  line(out, "bfs  harmonic_stddev_TEPS", k > 1 ? si.stddev / (si.mean * si.mean * std::sqrt(k - 1)) : 0.0);
  if (validated) block(out, "bfs  ", "_validate", stats(validate_s), true);
  // Phases: mean over the roots of the ranks' mean, then of the slowest rank's.
  const auto mean = phase_means(phases, false), max = phase_means(phases, true);
  for (std::size_t i = 0; i <= kNumPhases; ++i)
    line(out, ("bfs  mean_" + phase_key(i) + "_time").c_str(), mean[i]);
  for (std::size_t i = 0; i < kNumPhases; ++i)
    line(out, ("bfs  maxrank_" + phase_key(i) + "_time").c_str(), max[i]);
  line(out, "num_nodes", nodes);
  line(out, "threads_per_rank", threads);
  line(out, "share", share);
  line(out, "allgather", allgather);
  line(out, "parallel_allgather", allgather == "parallel" ? "on" : "off");
  line(out, "summary_bits", summary_bits);
  line(out, "num_edges", static_cast<double>(num_edges));
  if (!validated)
    line(out, "validation", "SKIPPED");
  else if (all_valid())
    line(out, "validation", "PASSED (" + std::to_string(passed) + " of " + std::to_string(roots.size()) + " roots)");
  else
    line(out, "validation", "FAILED (" + std::to_string(roots.size() - static_cast<std::size_t>(passed)) + " of " +
                                std::to_string(roots.size()) + " roots; first: " + first_failure + ")");
  return out;
}

std::string Report::json() const {
  profile::Record r;
  std::vector<double> inv;
  for (double t : teps) inv.push_back(1.0 / t);
  const Stats si = stats(inv);
  const double k = static_cast<double>(teps.size());
  r.set("kernel", "graph500")
      .set("graph", "kron" + std::to_string(scale))
      .set("num_vertices", std::int64_t{1} << scale)
      .set("num_edges", num_edges)
      .set("edge_factor", edge_factor)
      .set("ranks", ranks)
      .set("nodes", nodes)
      .set("threads", threads)
      .set("share", share)
      .set("allgather", allgather)
      .set("parallel_allgather", allgather == "parallel")
      .set("summary_bits", summary_bits)
      .set("graph_generation_s", generation_s)
      .set("construction_s", construction_s)
      .set("roots", roots)
      .set("trials", seconds)
      .set("median_s", stats(seconds).median)
      .set("nedge", edges)
      .set("teps", teps)
      .set("teps_harmonic_mean", harmonic_mean_teps())
      .set("teps_harmonic_stddev", k > 1 ? si.stddev / (si.mean * si.mean * std::sqrt(k - 1)) : 0.0)
      .set("top_down_steps", top_down_steps)
      .set("bottom_up_steps", bottom_up_steps);
  // Phases (phase_times.hpp): mean over the roots of the ranks' mean (these
  // and "other" add up to the ranks' mean BFS time), of the slowest rank's,
  // and per root the ranks' mean.
  const auto mean = phase_means(phases, false), max = phase_means(phases, true);
  profile::Record by_mean, by_max, per_root;
  for (std::size_t i = 0; i <= kNumPhases; ++i) by_mean.set(phase_key(i), mean[i]);
  for (std::size_t i = 0; i < kNumPhases; ++i) {
    by_max.set(phase_key(i), max[i]);
    std::vector<double> v;
    for (const PhaseSample& p : phases) v.push_back(p.mean[i]);
    per_root.set(phase_key(i), v);
  }
  std::vector<double> rank_mean;
  for (const PhaseSample& p : phases) rank_mean.push_back(p.rank_mean_s);
  r.set("phase_s", by_mean).set("phase_max_rank_s", by_max).set("phase_trials_s", per_root);
  r.set("rank_mean_trials", rank_mean);
  if (validated) {
    r.set("verified", all_valid());
    r.set("validated_roots", passed);
    if (!first_failure.empty()) r.set("verify_message", first_failure);
  } else {
    r.set_null("verified");
  }
  return r.json();
}

}  // namespace numagraph::dist
