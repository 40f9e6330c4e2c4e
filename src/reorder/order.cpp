#include "numagraph/reorder/order.hpp"

#include <string>

#include "numagraph/util/error.hpp"

namespace numagraph::reorder {

namespace {
constexpr struct {
  Order order;
  const char* name;
} kNames[] = {{Order::kNone, "none"}, {Order::kDegree, "degree"}, {Order::kDbg, "dbg"},
              {Order::kRcm, "rcm"},   {Order::kAdl, "adl"},       {Order::kAdlSerial, "adl-serial"}};
}  // namespace

Order parse_order(std::string_view name) {
  for (const auto& n : kNames)
    if (name == n.name) return n.order;
  throw UsageError("order must be 'none', 'degree', 'dbg', 'rcm', 'adl' or 'adl-serial' (got '" + std::string(name) +
                   "')");
}

const char* to_string(Order o) {
  for (const auto& n : kNames)
    if (o == n.order) return n.name;
  return "?";
}

}  // namespace numagraph::reorder
