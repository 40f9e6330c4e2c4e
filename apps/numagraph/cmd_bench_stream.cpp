// numagraph bench-stream: a STREAM-triad-like probe of this machine's
// streaming memory bandwidth (a[i] = b[i] + s * c[i] over arrays far larger
// than the caches), the yardstick for bandwidth-bound kernels.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "common.hpp"
#include "numagraph/numa/numa_array.hpp"
#include "numagraph/parallel/parallel.hpp"
#include "numagraph/profile/timer.hpp"
#include "registry.hpp"
#include "runtime_info.hpp"

namespace numagraph::cli {
namespace {

struct StreamOptions {
  std::int64_t mib = 512;  // per array
  int repetitions = 7;
  int threads = 0;
  bool json = false;
};

const Register kBenchStream{
    {"bench-stream", "streaming memory bandwidth (STREAM triad) in GB/s", 910, [](CLI::App& app) {
       auto o = std::make_shared<StreamOptions>();
       add_runtime_options(app, /*array_roles=*/false);
       app.add_option("-t,--threads", o->threads, "threads (default: one per core)");
       app.add_option("--mib", o->mib, "MiB per array (3 arrays; default 512)")->check(CLI::Range(16, 1 << 16));
       app.add_option("--repetitions", o->repetitions, "repetitions; the best is reported (7)")->check(CLI::Range(2, 1000));
       app.add_flag("--json", o->json, "print one JSON object");
       app.callback([o] {
         apply_runtime_options(o->threads);
         const std::int64_t n = o->mib * (1 << 20) / 8;
         NumaArray<double> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n)), c(static_cast<std::size_t>(n));
         parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) {
           a[i] = 0;
           b[i] = 1;
           c[i] = 2;
         });
         double best = 1e300;
         for (int r = 0; r < o->repetitions; ++r) {
           profile::Timer t;
           parallel::for_static(std::int64_t{0}, n, [&](std::int64_t i) { a[i] = b[i] + 3.0 * c[i]; });
           best = std::min(best, t.seconds());
         }
         const double gbs = 3.0 * 8.0 * static_cast<double>(n) / best / 1e9;  // 2 reads + 1 write per element
         if (o->json)
           std::printf("{\"kernel\": \"stream_triad\", \"bytes_per_array\": %lld, \"best_s\": %.6f, \"gb_per_s\": %.3f}\n",
                       static_cast<long long>(n * 8), best, gbs);
         else
           std::printf("STREAM triad: %lld MiB x 3 arrays, best of %d: %.4f s = %.2f GB/s\n",
                       static_cast<long long>(o->mib), o->repetitions, best, gbs);
       });
     }}};

}  // namespace
}  // namespace numagraph::cli
