// Record: one result as ordered key/value pairs, printed as one JSON object
// (the --json contract) or read by people through the harness tables.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace numagraph::profile {

class Record {
 public:
  Record& set(const std::string& key, const std::string& value) { return raw(key, quote(value)); }
  Record& set(const std::string& key, const char* value) { return raw(key, quote(value)); }
  Record& set(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  Record& set(const std::string& key, T value) {
    return raw(key, number(value));
  }
  template <typename T>
  Record& set(const std::string& key, const std::vector<T>& values) {
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) s += ',';
      s += number(values[i]);
    }
    return raw(key, s + "]");
  }
  Record& set(const std::string& key, const Record& nested) { return raw(key, nested.json()); }
  Record& set_null(const std::string& key) { return raw(key, "null"); }
  // `json` must already be valid JSON.
  Record& raw(const std::string& key, std::string json) {
    for (auto& kv : fields_)
      if (kv.first == key) {
        kv.second = std::move(json);
        return *this;
      }
    fields_.emplace_back(key, std::move(json));
    return *this;
  }
  bool has(const std::string& key) const {
    for (const auto& kv : fields_)
      if (kv.first == key) return true;
    return false;
  }

  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }

  std::string json() const {
    std::string s = "{";
    for (std::size_t i = 0; i < fields_.size(); ++i)
      s += (i ? ", " : "") + quote(fields_[i].first) + ": " + fields_[i].second;
    return s + "}";
  }

  static std::string quote(const std::string& v) {
    std::string s = "\"";
    for (char c : v) {
      switch (c) {
        case '"': s += "\\\""; break;
        case '\\': s += "\\\\"; break;
        case '\n': s += "\\n"; break;
        case '\t': s += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            s += buf;
          } else {
            s += c;
          }
      }
    }
    return s + "\"";
  }

  template <typename T>
  static std::string number(T v) {
    if constexpr (std::is_integral_v<T>) {
      return std::to_string(v);
    } else {
      if (!std::isfinite(static_cast<double>(v))) return "null";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
      return buf;
    }
  }

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

}  // namespace numagraph::profile
