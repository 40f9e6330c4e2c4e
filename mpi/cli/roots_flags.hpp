// --source / --sources of bfs and sssp, as `numagraph` takes them.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace numagraph::dist::cli {

struct RootFlags {
  std::string source;       // a user id or name; empty: random roots
  std::int64_t sources = 0; // number of random roots; 0: --trials of them
};

inline void add_root_flags(CLI::App& app, RootFlags& r) {
  auto* s = app.add_option("--source,-r", r.source,
                           "root vertex: your id (with --relabel, the original id), or its name for a file with "
                           "names; run --trials times");
  app.add_option("--sources", r.sources, "number of random roots (non-isolated, from --seed), one trial each")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40))
      ->excludes(s);
}

}  // namespace numagraph::dist::cli
