// Shared helpers of the test_io_*.cpp files: temp files, exception checks
// (type + message fragments such as "file:line"), graph comparison.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "numagraph/graph/any_graph.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/util/error.hpp"

namespace numagraph::testing_io {

// Temp files are removed when the test process exits, so repeated runs do
// not pile them up in the temp directory.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    for (const auto& p : paths) std::remove(p.c_str());
  }
};

inline std::string temp_path(const std::string& name) {
  static TempFiles files;
  std::string path = ::testing::TempDir() + "numagraph_io_" + std::to_string(::getpid()) + "_" + name;
  files.paths.push_back(path);
  return path;
}

inline std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string data_file(const std::string& name) { return std::string(NUMAGRAPH_TEST_DATA) + "/" + name; }

// Expects `f` to throw exactly E (or a subclass) whose message contains every
// string in `parts`.
template <typename E, typename F>
void expect_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning " << parts.front();
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nmissing: " << p;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// An input error at `line` of `path`: InputError whose message starts with
// "path:line: " and contains `what`.
template <typename F>
void expect_input_error(F&& f, const std::string& path, std::int64_t line, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected " << path << ":" << line << ": " << what;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u) << "message: " << msg;
    EXPECT_EQ(e.line(), line) << msg;
    EXPECT_EQ(e.file(), path) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << "message: " << msg << "\nmissing: " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

inline AnyGraph load(const std::string& path, BuildOptions b = {}) { return load_graph(path, {}, b); }

template <typename G>
void expect_same(const G& a, const G& b) {
  ASSERT_EQ(a.num_vertices(), b.num_vertices());
  ASSERT_EQ(a.num_arcs(), b.num_arcs());
  ASSERT_EQ(a.directed(), b.directed());
  ASSERT_EQ(a.weight_kind(), b.weight_kind());
  ASSERT_EQ(a.num_self_loops(), b.num_self_loops());
  ASSERT_EQ(a.has_in_edges(), b.has_in_edges());
  for (std::int64_t v = 0; v <= a.num_vertices(); ++v) ASSERT_EQ(a.out().offsets[v], b.out().offsets[v]);
  for (std::int64_t i = 0; i < a.num_arcs(); ++i) {
    ASSERT_EQ(a.out().neighbors[i], b.out().neighbors[i]);
    if (a.weighted()) {
      ASSERT_EQ(a.out().weights[i], b.out().weights[i]);
    }
  }
  if (a.directed() && a.has_in_edges()) {
    for (std::int64_t v = 0; v <= a.num_vertices(); ++v) ASSERT_EQ(a.in_arrays().offsets[v], b.in_arrays().offsets[v]);
    for (std::int64_t i = 0; i < a.num_arcs(); ++i) {
      ASSERT_EQ(a.in_arrays().neighbors[i], b.in_arrays().neighbors[i]);
      if (a.weighted()) {
        ASSERT_EQ(a.in_arrays().weights[i], b.in_arrays().weights[i]);
      }
    }
  }
  ASSERT_EQ(a.relabelled(), b.relabelled());
  for (std::int64_t v = 0; v < a.num_vertices(); ++v)
    ASSERT_EQ(a.label(static_cast<typename G::vertex_type>(v)), b.label(static_cast<typename G::vertex_type>(v)));
}

inline void expect_same_any(const AnyGraph& a, const AnyGraph& b) {
  ASSERT_EQ(a.index(), b.index());
  if (a.index() == 0) expect_same(std::get<Graph32>(a), std::get<Graph32>(b));
  else expect_same(std::get<Graph64>(a), std::get<Graph64>(b));
}

}  // namespace numagraph::testing_io
