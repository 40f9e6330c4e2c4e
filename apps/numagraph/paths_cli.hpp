// Shortest-path predecessors on the CLI: the --predecessors column of
// `numagraph sssp/bfs --output` and the ids of `numagraph path`.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "common.hpp"

namespace numagraph::cli {

// The user's id of a caller vertex, or its name for a named graph.
template <typename G>
std::string user_text(const G& g, std::int64_t v) {
  const auto label = g.label(static_cast<typename G::vertex_type>(v));
  return g.named() ? (*g.names())[label] : std::to_string(label);
}

// As write_vertex_values, with a third column `predecessor`: the user's id
// (or name) of the vertex before it on a shortest path; the source names
// itself; an unreached vertex has -1 (an empty field for a named graph in
// .csv/.tsv, "-" in the blank-separated lines).
template <typename G, typename T>
void write_values_and_predecessors(const std::string& path, const G& g, const T* values, const char* column,
                                   const std::int64_t* pred) {
  const ValuesLayout layout = values_layout(path);
  const char sep = layout == ValuesLayout::kCsv ? ',' : layout == ValuesLayout::kTsv ? '\t' : ' ';
  AtomicFile out(path);
  std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
  if (!f) throw IoError("cannot write " + path + ": check the directory exists and is writable");
  if (layout != ValuesLayout::kLines) std::fprintf(f, "vertex%c%s%cpredecessor\n", sep, column, sep);
  auto field = [&](std::int64_t v) { return g.named() ? io::csv_field_text(user_text(g, v), sep) : user_text(g, v); };
  const std::string none = !g.named() ? "-1" : layout == ValuesLayout::kLines ? "-" : "";
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const std::string p = pred[v] < 0 ? none : field(pred[v]);
    if constexpr (std::is_floating_point_v<T>)
      std::fprintf(f, "%s%c%.17g%c%s\n", field(v).c_str(), sep, static_cast<double>(values[v]), sep, p.c_str());
    else
      std::fprintf(f, "%s%c%lld%c%s\n", field(v).c_str(), sep, static_cast<long long>(values[v]), sep, p.c_str());
  }
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) throw IoError("error writing " + path + " (disk full?)");
  out.commit();
}

}  // namespace numagraph::cli
