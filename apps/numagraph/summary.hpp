// Results on screen: each kernel's answer in a few lines for people (printed
// by emit above the table) and the same figures as record fields (--json).
// Everything here runs after the timed trials, on the caller's graph, so the
// ids shown are the user's (labels of relabelled graphs, original ids of
// renumbered ones, names of graphs read with names).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/profile/record.hpp"

namespace numagraph::cli {

struct Summary {
  std::vector<std::string> lines;  // the answer, one line each
  std::vector<std::string> keys;   // record fields the lines show: not in the human table, in --json
};

// The process's peak resident set (getrusage ru_maxrss), in bytes.
std::int64_t peak_rss_bytes();

// printf into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// The noun that agrees with `count`: `one` for 1, else `many` ("vertex",
// "vertices"); `many` empty: `one` + "s".
std::string noun_for(long long count, const char* one, const char* many = "");

// "1 vertex", "3 vertices", "0 triangles": a count and its noun in agreement.
std::string count_of(long long count, const char* one, const char* many = "");

// "33696 of 36692 vertices (91.8%)", "1 of 1 vertex (100%)": a count, of a
// total (the noun agrees with the total), and the percentage.
std::string share(std::int64_t count, std::int64_t total, const char* one = "vertex", const char* many = "vertices");

// A user id as people read it: the vertex's name in a graph read with names
// (CSV/TSV, docs/formats.md), else the number.
template <typename G>
std::string id_text(const G& g, std::uint64_t user_id) {
  return g.named() ? (*g.names())[user_id] : std::to_string(user_id);
}

// Sets record field `key` to user ids: numbers, or the names (JSON strings)
// of a named graph.
template <typename G>
void set_ids(profile::Record& rec, const std::string& key, const G& g, const std::vector<std::uint64_t>& ids) {
  if (!g.named()) {
    rec.set(key, ids);
    return;
  }
  std::string json = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) json += (i ? "," : "") + profile::Record::quote(id_text(g, ids[i]));
  rec.raw(key, json + "]");
}

// The k vertices of largest value, largest first; ties go to the smaller
// user id, NaNs are skipped. Returns (user id, value) pairs.
template <typename G, typename T>
std::vector<std::pair<std::uint64_t, double>> top_vertices(const G& g, const T* values,
                                                           std::size_t k) {
  using Entry = std::pair<std::uint64_t, double>;
  // "a before b" when a ranks higher: larger value, then smaller id.
  const auto higher = [](const Entry& a, const Entry& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  };
  std::vector<Entry> best;  // a heap whose front is the lowest-ranked kept entry
  best.reserve(k + 1);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {
    const double value = static_cast<double>(values[v]);
    if (std::isnan(value)) continue;
    const auto id = static_cast<std::uint64_t>(g.label(static_cast<typename G::vertex_type>(v)));
    const Entry e{id, value};
    if (best.size() == k && !higher(e, best.front())) continue;
    best.push_back(e);
    std::push_heap(best.begin(), best.end(), higher);
    if (best.size() > k) {
      std::pop_heap(best.begin(), best.end(), higher);
      best.pop_back();
    }
  }
  std::sort(best.begin(), best.end(), higher);
  return best;
}

// Adds the top-k vertices by `what` (record: top_ids, top_scores) as a small
// table of lines: rank, the user's id, the value.
template <typename G, typename T>
void summarize_top(Summary& s, profile::Record& rec, const G& g, const T* values, const char* what,
                   std::size_t k = 10) {
  const auto top = top_vertices(g, values, k);
  std::vector<std::uint64_t> ids;
  std::vector<double> scores;
  for (const auto& [id, value] : top) {
    ids.push_back(id);
    scores.push_back(value);
  }
  set_ids(rec, "top_ids", g, ids);
  rec.set("top_scores", scores);
  s.keys.insert(s.keys.end(), {"top_ids", "top_scores"});
  s.lines.push_back(format("top %zu by %s:", top.size(), what));
  s.lines.push_back(format("  %4s  %12s  %s", "rank", "vertex", what));
  for (std::size_t i = 0; i < top.size(); ++i)
    s.lines.push_back(format("  %4zu  %12s  %.6g", i + 1, id_text(g, top[i].first).c_str(), top[i].second));
}

}  // namespace numagraph::cli
