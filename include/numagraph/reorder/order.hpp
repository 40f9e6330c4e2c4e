// The vertex orders a kernel can run in (docs/reordering.md): the user's ids
// are kept at the entry point, the kernel sees a renumbered graph.
#pragma once

#include <cstdint>
#include <string_view>

namespace numagraph::reorder {

enum class Order {
  kNone,       // the graph's own ids
  kDegree,     // descending degree, ties by id
  kDbg,        // degree-based grouping: a few degree buckets, stable inside each
  kRcm,        // reverse Cuthill-McKee from a pseudo-peripheral vertex, every component
  kAdl,        // adaptive data layout: <depth, thread, discovery time> of one parallel BFS, reversed
  kAdlSerial,  // adaptive data layout: <depth, discovery time> of a serial BFS, reversed
};

// "none" | "degree" | "dbg" | "rcm" | "adl" | "adl-serial"; UsageError naming them otherwise.
Order parse_order(std::string_view name);
const char* to_string(Order o);

// An order and, for the BFS-based ones (rcm, adl, adl-serial), where the
// first search starts: -1 picks the highest-degree vertex.
struct Spec {
  Order order = Order::kNone;
  std::int64_t root = -1;

  bool none() const { return order == Order::kNone; }
  friend bool operator==(const Spec&, const Spec&) = default;
};

}  // namespace numagraph::reorder
