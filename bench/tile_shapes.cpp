// Per-sweep time of the tiled pull sweep (sweep/tiled_gather.hpp) for
// given tile shapes, in one process: the measurement behind the shape rule
// of sweep/cache_blocking.hpp (cache_tile_shape). For each shape the tiles are
// built once, then the sweeps of all shapes alternate, so every shape sees
// the same pages and the same moments of a noisy host.
//
// Build: cmake -DNUMAGRAPH_BENCH=ON, then `ninja -C BUILD bench_tile_shapes`.
// Usage: bench_tile_shapes GRAPH pr|spmv SWEEPS ROWBITS:COLBITS...
//   pr: PageRank's sweep (in-lists, float values); spmv: the product's (out-lists, double
//   values, weights when the graph has them). 2 threads. Example, urand22 from
//   bench/vs_gapbs.py: bench_tile_shapes urand22.sg pr 7 16:16 15:17 17:15
// Prints the median and the fastest sweep of each shape, in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "in_process_driver.hpp"
#include "numagraph/sweep/tiled_arcs.hpp"
#include "numagraph/sweep/tiled_gather.hpp"

using namespace numagraph;

namespace {

// One sweep: every row's sum into y, as the kernels' finish step would take it.
template <bool Weighted, typename T>
[[gnu::noinline]] double sweep_seconds(const TiledArcs<std::uint32_t>& tiles, const T* values, double* y,
                                       kernels::TileSums& sums) {
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel
  {
    kernels::tiled_sweep<Weighted>(tiles, values, sums.mine(), [y](std::int64_t v, double sum) { y[v] = sum; });
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: tile_shapes GRAPH pr|spmv SWEEPS ROWBITS:COLBITS...\n");
    return 2;
  }
  const std::string kernel = argv[2];
  const int sweeps = std::atoi(argv[3]);
  if ((kernel != "pr" && kernel != "spmv") || sweeps < 1) {
    std::fprintf(stderr, "tile_shapes: the kernel is pr or spmv, and SWEEPS a positive number\n");
    return 2;
  }
  const Graph32 g = bench::graph32_on_threads(argv[1], "tile_shapes", 2);
  const bool pr = kernel == "pr";
  const auto n = static_cast<std::size_t>(g.num_vertices());
  NumaArray<float> float_values(n);
  NumaArray<double> double_values(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    float_values[i] = static_cast<float>(1 + i % 7) / static_cast<float>(n);
    double_values[i] = static_cast<double>(1 + i % 7) / static_cast<double>(n);
  }
  struct Shape {
    std::string name;
    std::unique_ptr<TiledArcs<std::uint32_t>> tiles;
    std::unique_ptr<kernels::TileSums> sums;
    std::vector<double> seconds;
  };
  std::vector<Shape> shapes;
  for (int a = 4; a < argc; ++a) {
    int rows = 0, cols = 0;
    if (std::sscanf(argv[a], "%d:%d", &rows, &cols) != 2) {
      std::fprintf(stderr, "tile_shapes: '%s' is not ROWBITS:COLBITS (such as 16:16)\n", argv[a]);
      return 2;
    }
    Shape s;
    s.name = argv[a];
    s.tiles = std::make_unique<TiledArcs<std::uint32_t>>(g, pr, TileShape{cols, rows});  // checks the bits
    s.sums = std::make_unique<kernels::TileSums>(rows);
    shapes.push_back(std::move(s));
  }
  for (int r = 0; r < sweeps; ++r)
    for (auto& s : shapes) {
      double t = 0;
      if (pr)
        t = sweep_seconds<false>(*s.tiles, float_values.data(), y.data(), *s.sums);
      else if (g.weighted())
        t = sweep_seconds<true>(*s.tiles, double_values.data(), y.data(), *s.sums);
      else
        t = sweep_seconds<false>(*s.tiles, double_values.data(), y.data(), *s.sums);
      s.seconds.push_back(t);
    }
  for (auto& s : shapes) {
    std::sort(s.seconds.begin(), s.seconds.end());
    std::printf("%s %s, rows:columns bits %s: median %.1f ms, fastest %.1f ms (%lld column ranges)\n", kernel.c_str(), argv[1],
                s.name.c_str(), s.seconds[s.seconds.size() / 2] * 1e3, s.seconds.front() * 1e3,
                static_cast<long long>(s.tiles->col_blocks()));
  }
  return 0;
}
