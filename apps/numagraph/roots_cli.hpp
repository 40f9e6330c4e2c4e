// Root selection flags shared by bfs, sssp and bc:
//   --source V     one root (the user's id, or name for a graph read with names), run --trials times
//   --sources K    K random non-isolated roots from --seed, one trial each
//   --roots FILE   roots listed in a file (one user id or name per line)
// With none of them: --trials random roots (gapbs style).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common.hpp"
#include "numagraph/kernels/roots.hpp"

namespace numagraph::cli {

struct RootOptions {
  std::string source;  // empty: not given
  std::int64_t sources = 0;
  std::string roots_file;
};

inline void add_root_options(CLI::App& app, RootOptions& r) {
  auto* s = app.add_option("--source,-r", r.source,
                           "root vertex: your id (with --relabel, the original id), or its name for a CSV/TSV "
                           "file with names");
  auto* k = app.add_option("--sources", r.sources, "number of random roots (non-isolated, from --seed)")
                ->check(kPositive);
  auto* f = app.add_option("--roots", r.roots_file, "file with one root id (or name) per line");
  s->excludes(k)->excludes(f);
  k->excludes(f);
}

template <typename G>
std::vector<typename G::vertex_type> resolve_roots(const G& g, const RootOptions& r, const RunOptions& run) {
  using V = typename G::vertex_type;
  if (!r.source.empty())
    return std::vector<V>(static_cast<std::size_t>(run.trials), kernels::dense_id_of(g, r.source, "--source"));
  if (!r.roots_file.empty()) {
    std::ifstream in(r.roots_file);
    if (!in) throw IoError("cannot open " + r.roots_file + " (the --roots file)");
    std::vector<V> roots;
    std::string line;
    for (std::int64_t ln = 1; std::getline(in, line); ++ln) {
      if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
      // The whole line is one non-negative id (surrounding blanks allowed):
      // "1x" is not 1, and "-1" does not wrap to 2^64 - 1.
      const std::size_t first = line.find_first_not_of(" \t");
      const std::size_t last = line.find_last_not_of(" \t\r");
      const std::string id_text = line.substr(first, last - first + 1);
      if (g.named()) {  // a name per line, as the graph file spells it
        try {
          roots.push_back(kernels::dense_id_of(g, id_text));
        } catch (const UsageError& e) {
          throw InputError(r.roots_file, ln, e.what());
        }
        continue;
      }
      std::size_t used = 0;
      unsigned long long id = 0;
      try {
        if (id_text[0] < '0' || id_text[0] > '9') throw std::invalid_argument("not a digit");
        id = std::stoull(id_text, &used);
      } catch (const std::logic_error&) {
        used = 0;
      }
      if (used == 0 || used != id_text.size())
        throw InputError(r.roots_file, ln, "expected a vertex id (a non-negative integer), found '" + line + "'");
      roots.push_back(kernels::dense_id(g, id));
    }
    if (roots.empty()) throw InputError(r.roots_file, 0, "no root ids in the file");
    return roots;
  }
  return kernels::pick_roots(g, r.sources > 0 ? r.sources : run.trials, run.seed);
}

}  // namespace numagraph::cli
