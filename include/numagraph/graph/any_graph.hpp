// AnyGraph: a graph whose id width was chosen at run time: 32-bit ids below
// 2^31 vertices (so a signed 32-bit value holds any id), 64-bit beyond.
// Front ends (CLI, Python) hold one and dispatch to templated kernels with
// visit().
#pragma once

#include <variant>

#include "numagraph/graph/csr_graph.hpp"

namespace numagraph {

using AnyGraph = std::variant<Graph32, Graph64>;

template <typename F>
decltype(auto) visit(F&& f, AnyGraph& g) {
  return std::visit(std::forward<F>(f), g);
}
template <typename F>
decltype(auto) visit(F&& f, const AnyGraph& g) {
  return std::visit(std::forward<F>(f), g);
}

}  // namespace numagraph
