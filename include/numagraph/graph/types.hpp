// Basic graph value types shared by every layer.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "numagraph/numa/numa_array.hpp"

namespace numagraph {

// Edge offsets and edge counts are always 64-bit: a graph with more than 2^31
// edges must never overflow a counter.
using eid_t = std::int64_t;

// Edge weights are stored as 32-bit floats. Integer weights up to 2^24 are
// exact; readers reject integer weights beyond that rather than round them.
// `WeightKind` remembers whether the input weights were integers so that
// writers and printed results keep them integral.
using weight_t = float;
inline constexpr std::int64_t kMaxExactIntegerWeight = std::int64_t{1} << 24;

enum class WeightKind : std::uint8_t { kNone = 0, kInteger = 1, kReal = 2 };

inline const char* to_string(WeightKind kind) {
  switch (kind) {
    case WeightKind::kNone: return "none";
    case WeightKind::kInteger: return "integer";
    case WeightKind::kReal: return "real";
  }
  return "none";
}

// The names of a graph read with string vertex ids (CSV/TSV): name k is the
// vertex whose user id is k (ids are given in order of first appearance).
// Shared and immutable, so graphs renumbered from one another share it.
using VertexNames = std::shared_ptr<const std::vector<std::string>>;

// One thing numagraph decided about a user's input that the input did not say
// (whether line 1 is a header, which column holds weights, whether edges are
// directed, whether ids were compacted...). `key` names the question
// (docs/formats.md lists the keys), `value` the answer in short form ("true",
// "weight", "names"), `note` one sentence for the user naming the flag that
// changes it (empty when nothing needs saying: the user chose it, or the file
// stated it). The CLI prints the notes and puts key -> value in its --json
// record ("input"); Python turns them into one warning.
struct InputDecision {
  std::string key;
  std::string value;
  std::string note;
};
using InputDecisions = std::vector<InputDecision>;

// Records `key` (replacing an earlier decision on the same key).
inline void set_decision(InputDecisions& d, std::string key, std::string value, std::string note = {}) {
  for (auto& x : d)
    if (x.key == key) {
      x.value = std::move(value);
      x.note = std::move(note);
      return;
    }
  d.push_back({std::move(key), std::move(value), std::move(note)});
}

// The decision on `key`, or null.
inline const InputDecision* find_decision(const InputDecisions& d, const std::string& key) {
  for (const auto& x : d)
    if (x.key == key) return &x;
  return nullptr;
}

// An edge array as readers and generators produce it: 64-bit ids of any size,
// optional weights. The Builder turns it into a CSRGraph.
struct EdgeList {
  NumaArray<std::uint64_t> src;
  NumaArray<std::uint64_t> dst;
  NumaArray<weight_t> weights;  // empty when unweighted
  WeightKind weight_kind = WeightKind::kNone;
  // Number of vertices when the format declares it (mtx, gr, metis, generators);
  // nullopt means "max id + 1".
  std::optional<std::uint64_t> num_vertices;
  // True when the format says edges are undirected (mtx symmetric, metis,
  // generated Graph500 graphs).
  bool undirected = false;
  std::string source_name;  // file name or generator description, for messages
  // String vertex ids (CSV/TSV): ids are indices into this table; null otherwise.
  VertexNames names;
  // Text tables (CSV/TSV, edge lists with names): whether the first line was
  // read as a header, and whether that was detected (rather than asked for
  // with Header::kYes/kNo).
  std::optional<bool> header;
  bool header_detected = false;
  // What the reader decided (format, header, columns, ids, direction); the
  // builder moves them into BuildReport::decisions and adds its own.
  InputDecisions decisions;

  std::size_t size() const { return src.size(); }
  bool weighted() const { return weight_kind != WeightKind::kNone; }
};

}  // namespace numagraph
