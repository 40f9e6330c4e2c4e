// Text writers: .el / .wel (one arc per line; an undirected edge once, u <= v;
// original ids when the graph was relabelled) and Matrix Market (general for
// directed graphs, symmetric lower triangle for undirected ones, 1-based),
// and CSV/TSV (a header line, then names or user ids, quoted when needed).
// Lines are formatted in parallel per vertex block and written in order.
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "binary_file.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "readers.hpp"

namespace numagraph::io {

namespace {

void append_uint(std::string& s, std::uint64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, p);
}

void append_weight(std::string& s, weight_t w, WeightKind kind) {
  char buf[32];
  auto [p, ec] = kind == WeightKind::kInteger ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(w))
                                              : std::to_chars(buf, buf + sizeof buf, w);
  s.append(buf, p);
}

// Calls line(text, u, v, weight) for each arc to write, formatting blocks of
// vertices in parallel and writing them in vertex order.
template <typename G, typename Emit>
void write_arcs(const G& g, BinaryWriter& w, Emit&& emit) {
  const std::int64_t n = g.num_vertices();
  constexpr std::int64_t kBlock = 1 << 14;
  const int threads = parallel::max_threads();
  std::vector<std::string> text(static_cast<std::size_t>(threads));
  for (std::int64_t base = 0; base < n; base += kBlock * threads) {
#pragma omp parallel num_threads(threads)
    {
      const int t = parallel::thread_id();
      std::string& s = text[static_cast<std::size_t>(t)];
      s.clear();
      const std::int64_t lo = base + kBlock * t, hi = std::min(n, lo + kBlock);
      for (std::int64_t u = lo; u < hi; ++u) {
        const auto uv = static_cast<typename G::vertex_type>(u);
        auto nb = g.out_neighbors(uv);
        for (std::size_t k = 0; k < nb.size(); ++k)
          emit(s, uv, nb[k], g.weighted() ? g.out_weights(uv)[k] : weight_t{1});
      }
    }
    for (const auto& s : text) w.write(s.data(), s.size());
  }
}

}  // namespace

void write_edge_list_text(const AnyGraph& any, const std::string& path, bool weighted) {
  numagraph::visit(
      [&](const auto& g) {
        if (weighted && !g.weighted())
          throw UsageError("the graph has no weights to write as .wel; write .el instead");
        BinaryWriter w(path);
        write_arcs(g, w, [&](std::string& s, auto u, auto v, weight_t wt) {
          if (!g.directed() && v < u) return;  // each undirected edge once
          append_uint(s, user_id(g, u));
          s.push_back(' ');
          append_uint(s, user_id(g, v));
          if (weighted) {
            s.push_back(' ');
            append_weight(s, wt, g.weight_kind());
          }
          s.push_back('\n');
        });
        w.close();
      },
      any);
}

void write_csv(const AnyGraph& any, const std::string& path, char sep) {
  numagraph::visit(
      [&](const auto& g) {
        BinaryWriter w(path);
        std::string head = std::string("source") + sep + "target" + (g.weighted() ? std::string(1, sep) + "weight" : "") + "\n";
        w.write(head.data(), head.size());
        const auto* names = g.names().get();
        auto put = [&](std::string& s, auto v) {
          const std::uint64_t id = user_id(g, v);
          if (names) s += csv_field_text((*names)[id], sep);
          else append_uint(s, id);
        };
        write_arcs(g, w, [&](std::string& s, auto u, auto v, weight_t wt) {
          if (!g.directed() && v < u) return;  // each undirected edge once
          put(s, u);
          s.push_back(sep);
          put(s, v);
          if (g.weighted()) {
            s.push_back(sep);
            append_weight(s, wt, g.weight_kind());
          }
          s.push_back('\n');
        });
        w.close();
      },
      any);
}

void write_matrix_market(const AnyGraph& any, const std::string& path) {
  numagraph::visit(
      [&](const auto& g) {
        if (g.relabelled())
          throw UsageError("Matrix Market has no place for original ids: write .el or .ngr to keep them");
        if (g.reordered())
          throw UsageError("Matrix Market has no place for the permutation of a reordered graph: write .el (original "
                           "ids) or .ngr (keeps the order and the permutation)");
        BinaryWriter w(path);
        const char* field = !g.weighted() ? "pattern" : g.weight_kind() == WeightKind::kInteger ? "integer" : "real";
        std::string head = std::string("%%MatrixMarket matrix coordinate ") + field +
                           (g.directed() ? " general\n" : " symmetric\n") + "% written by numagraph\n";
        const eid_t entries = g.directed() ? g.num_arcs() : g.num_edges();
        head += std::to_string(g.num_vertices()) + " " + std::to_string(g.num_vertices()) + " " +
                std::to_string(entries) + "\n";
        w.write(head.data(), head.size());
        write_arcs(g, w, [&](std::string& s, auto u, auto v, weight_t wt) {
          if (!g.directed() && v > u) return;  // symmetric: lower triangle, row >= col
          append_uint(s, static_cast<std::uint64_t>(u) + 1);
          s.push_back(' ');
          append_uint(s, static_cast<std::uint64_t>(v) + 1);
          if (g.weighted()) {
            s.push_back(' ');
            append_weight(s, wt, g.weight_kind());
          }
          s.push_back('\n');
        });
        w.close();
      },
      any);
}

}  // namespace numagraph::io
