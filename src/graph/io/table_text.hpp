// Internal: how the table reader looks at one field (edge_table.cpp decides,
// edge_table_read.cpp reads): numbers, digits, Python dicts, and a field as
// messages show it.
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "numagraph/graph/types.hpp"

namespace numagraph::io {

inline std::string lower(std::string_view t) {
  std::string s(t);
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

inline std::string shown(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40) s += "...";
  return "'" + s + "'";
}

inline bool all_digits(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  return true;
}

// A whole token that is a finite number.
inline bool parse_number(std::string_view t, double& x) {
  if (t.empty()) return false;
  const char* b = t.data();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, t.data() + t.size(), x);
  return ec == std::errc() && p == t.data() + t.size() && std::isfinite(x);
}

// The value of `key` in a Python dict literal as networkx writes it
// ({'weight': 3.0, 'color': 'red'}), and every key; false when it is not one.
bool parse_python_dict(std::string_view t, const std::string& key, std::string_view& value,
                       std::vector<std::string_view>& keys);

// Whether a weight is a whole number within 2^24 (an integer weight kind).
inline bool integral_weight(double x) {
  return x == std::floor(x) && std::fabs(x) <= static_cast<double>(kMaxExactIntegerWeight);
}

}  // namespace numagraph::io
