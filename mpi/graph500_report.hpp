// Results of a numagraph-graph500 run: per-root times, traversed edges and
// validation, summarised as the Graph500 result block (time and TEPS
// quartiles, harmonic-mean TEPS and its standard deviation, as the Graph500
// specification defines them) or as one numagraph JSON record, each with the
// BFS time split into phases (phase_times.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "phase_times.hpp"

namespace numagraph::dist {

// One BFS's phase times: the mean and the maximum over the ranks, and the
// ranks' mean BFS time (each rank's own, from its barrier to its last step).
struct PhaseSample {
  std::array<double, kNumPhases> mean{}, max{};
  double rank_mean_s = 0;
};

struct Report {
  int scale = 0, edge_factor = 0, ranks = 1, nodes = 1, threads = 1, summary_bits = 0;
  std::string share;
  std::string allgather = "flat";
  bool validated = false;
  std::int64_t num_edges = 0;  // undirected edges after removing self-loops and duplicates
  double generation_s = 0, construction_s = 0;

  std::vector<std::uint64_t> roots;
  std::vector<double> seconds, teps, validate_s;
  std::vector<std::int64_t> edges;
  std::vector<int> top_down_steps, bottom_up_steps;
  std::vector<PhaseSample> phases;  // one per root
  int passed = 0;
  std::string first_failure;  // "root R: message"

  void add_bfs(std::uint64_t root, double s, std::int64_t traversed, int td, int bu);
  void add_validation(std::uint64_t root, double s, bool ok, const std::string& message);
  bool all_valid() const { return !validated || passed == static_cast<int>(roots.size()); }
  double harmonic_mean_teps() const;
  std::string text() const;
  std::string json() const;
};

}  // namespace numagraph::dist
