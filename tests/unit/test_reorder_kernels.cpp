// Every entry point run in another vertex order answers in the caller's ids:
// on a graph renumbered by a random permutation (the caller's ids are then
// those of the graph it was made from), in each vertex order compute_order
// builds (Execution::reorder), and both at once, the answer equals the
// answer in the graph's own order — on the flat kernels, the NUMA engine
// (a synthetic 2-node topology) and the instrumented engine in shared mode.
// Exact for BFS depths (parents: a valid BFS tree by the Graph500 verifier),
// SSSP distances, CC partitions, triangle counts, core numbers and diameter
// endpoints; 1e-6 relative for Jacobi PageRank, BC, SpMV and BP; within the
// tolerance for Gauss-Seidel PageRank. Random graphs (undirected, directed,
// weighted, disconnected; 32- and 64-bit ids) and email-Enron. Also: the
// cache builds the renumbered graph once per order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "numagraph/execution.hpp"
#include "numagraph/graph/builder.hpp"
#include "numagraph/graph/generators.hpp"
#include "numagraph/graph/io.hpp"
#include "numagraph/kernel_cache.hpp"
#include "numagraph/kernels/bc/betweenness.hpp"
#include "numagraph/kernels/bfs/bfs.hpp"
#include "numagraph/kernels/bp/belief_propagation.hpp"
#include "numagraph/kernels/cc/components.hpp"
#include "numagraph/kernels/diameter/diameter.hpp"
#include "numagraph/kernels/kcore/kcore.hpp"
#include "numagraph/kernels/pr/pagerank.hpp"
#include "numagraph/kernels/spmv/spmv.hpp"
#include "numagraph/kernels/sssp/sssp.hpp"
#include "numagraph/kernels/tc/triangles.hpp"
#include "numagraph/kernels/roots.hpp"
#include "numagraph/numa/runtime.hpp"
#include "numagraph/reorder/apply.hpp"
#include "numagraph/reorder/compute.hpp"
#include "numagraph/util/error.hpp"
#include "numagraph/verify/bfs.hpp"
#include "numagraph/verify/cc.hpp"

using namespace numagraph;

namespace {

// Two synthetic nodes of one core each: the engine runs two partitions.
class ReorderKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    numa::RuntimeConfig c;
    c.topology = "pack:2 numa:1 core:1 pu:1";
    numa::Runtime::get().configure(c);
  }
  void TearDown() override { numa::Runtime::get().configure(numa::RuntimeConfig{}); }
};

// flat: the flat kernel; numa: the engine in NUMA mode; shared: the engine
// instrumented in shared mode (--engine flat --account).
enum class Mode { kFlat, kNuma, kShared };
const std::vector<Mode> kAllModes = {Mode::kFlat, Mode::kNuma, Mode::kShared};
const char* name(Mode m) { return m == Mode::kFlat ? "flat" : m == Mode::kNuma ? "numa" : "shared"; }

// The orders compute_order builds today (the others refuse with UsageError).
std::vector<reorder::Order> built_orders() {
  using reorder::Order;
  static const std::vector<Order> orders = [] {
    std::vector<Order> built;
    GeneratorOptions o;
    o.scale = 5;
    o.edge_factor = 4;
    const auto g = std::get<Graph32>(build_graph(generate_kronecker(o), {}));
    for (Order order : {Order::kDegree, Order::kDbg, Order::kRcm, Order::kAdl, Order::kAdlSerial}) {
      try {
        (void)reorder::compute_order(g, reorder::Spec{order});
        built.push_back(order);
      } catch (const UsageError& e) {
        std::cout << "[ note ] order " << reorder::to_string(order) << " not tested: " << e.what() << "\n";
      }
    }
    return built;
  }();
  return orders;
}

// `g` renumbered by a random permutation: its permutation() maps back to g.
template <typename V>
CSRGraph<V> randomly_renumbered(const CSRGraph<V>& g, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  NumaArray<V> old_of_new(n);
  for (std::size_t i = 0; i < n; ++i) old_of_new[i] = static_cast<V>(i);
  std::mt19937_64 rng(seed);
  std::shuffle(old_of_new.begin(), old_of_new.end(), rng);
  return reorder::apply_permutation(g, reorder::Permutation<V>::from_old_of_new(std::move(old_of_new)));
}

// One way to run the caller's graph g in another order: `graph` (g, or g
// renumbered) with `spec`.
template <typename V>
struct View {
  std::string name;
  const CSRGraph<V>* graph;
  reorder::Spec spec;
};

// Runs `run(graph, x)` (a result in the caller's ids) in every mode of
// `modes`, on g as it is and on every View of it (a random permutation, each
// of `orders`, and the permutation then the last order), and calls
// `same(base, got)` for each view (base: g in its own order, same mode).
// Each graph has its own cache, kept over the modes and views, so cached
// renumbered copies and workspaces are reused as by the CLI and Python.
template <typename V, typename Run, typename Same>
void expect_same_in_every_order(const CSRGraph<V>& g, const std::vector<Mode>& modes, Run&& run, Same&& same,
                                const std::vector<reorder::Order>& orders = built_orders()) {
  const CSRGraph<V> shuffled = randomly_renumbered(g, 0x5eed + static_cast<std::uint64_t>(g.num_vertices()));
  ASSERT_TRUE(shuffled.reordered());
  std::vector<View<V>> views{{"random permutation", &shuffled, {}}};
  for (reorder::Order o : orders) views.push_back({std::string("order ") + reorder::to_string(o), &g, {o}});
  if (!orders.empty()) {
    const reorder::Order o = orders.back();
    views.push_back({std::string("random permutation, then order ") + reorder::to_string(o), &shuffled, {o}});
  }
  KernelCache own_cache, shuffled_cache;
  for (Mode m : modes) {
    engine::AccessCounts counts;
    Execution x;
    x.engine = m == Mode::kNuma ? EngineChoice::kNuma : EngineChoice::kFlat;
    if (m == Mode::kShared) x.account = &counts;
    x.cache = &own_cache;
    const auto base = run(g, x);
    for (const auto& view : views) {
      SCOPED_TRACE(std::string(name(m)) + ", " + view.name);
      Execution xv = x;
      xv.reorder = view.spec;
      xv.cache = view.graph == &g ? &own_cache : &shuffled_cache;
      same(base, run(*view.graph, xv));
    }
  }
}

// |a - b| within `rel` of the larger magnitude (and 1e-12 near zero).
void expect_close(const NumaArray<double>& a, const NumaArray<double>& b, double rel) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t v = 0; v < a.size(); ++v)
    ASSERT_NEAR(a[v], b[v], rel * std::max(std::fabs(a[v]), std::fabs(b[v])) + 1e-12) << "vertex " << v;
}

template <typename T>
void expect_equal(const NumaArray<T>& a, const NumaArray<T>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t v = 0; v < a.size(); ++v) ASSERT_EQ(a[v], b[v]) << "vertex " << v;
}

// The random graphs: Kronecker (skewed, with isolated vertices, so
// disconnected) undirected and directed, weighted, and a sparse uniform
// graph of many small components; 32- and 64-bit ids.
AnyGraph build(EdgeList e, bool directed, bool force64) {
  e.undirected = !directed;
  BuildOptions b;
  b.relabel = Relabel::kOff;
  b.force_64bit_ids = force64;
  b.dedupe = true;
  b.drop_self_loops = true;
  return build_graph(std::move(e), b);
}

struct Named {
  std::string name;
  AnyGraph g;
};

std::vector<Named> random_graphs(bool undirected_only = false) {
  auto kron = [](int scale, bool weighted, std::uint64_t seed) {
    GeneratorOptions o;
    o.scale = scale;
    o.edge_factor = 8;
    o.weighted = weighted;
    o.seed = seed;
    return generate_kronecker(o);
  };
  GeneratorOptions sparse;
  sparse.scale = 9;
  sparse.edge_factor = 1;
  sparse.seed = 7;
  std::vector<Named> gs;
  gs.push_back({"kron undirected 32-bit", build(kron(9, false, 1), false, false)});
  gs.push_back({"kron undirected weighted 64-bit", build(kron(9, true, 2), false, true)});
  gs.push_back({"uniform sparse (many components) 32-bit", build(generate_uniform(sparse), false, false)});
  if (!undirected_only) {
    gs.push_back({"kron directed 32-bit", build(kron(9, false, 3), true, false)});
    gs.push_back({"kron directed weighted 64-bit", build(kron(8, true, 4), true, true)});
  }
  return gs;
}

// A vertex with out-edges (a root that reaches something).
template <typename V>
V first_with_edges(const CSRGraph<V>& g) {
  V v = 0;
  while (g.out_degree(v) == 0) ++v;
  return v;
}

// --- BFS: depths exact, parents a valid BFS tree of the caller's graph ---

template <typename V>
void expect_bfs_in_every_order(const CSRGraph<V>& g) {
  const V root = first_with_edges(g);
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return bfs(graph, root, {}, x); },
      [&](const BfsResult<V>& base, const BfsResult<V>& got) {
        expect_equal(base.depth, got.depth);
        const auto ok = verify::bfs_tree(g, root, got.parent.data(), got.depth.data());
        EXPECT_TRUE(ok.ok) << ok.message;
      });
}

TEST_F(ReorderKernels, BfsDepthsAndTreesInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_bfs_in_every_order(g); }, any);
  }
}

// --- PageRank: Jacobi within 1e-6 (double contributions), Gauss-Seidel
// within what its stopping rule leaves ---

template <typename V>
void expect_pagerank_in_every_order(const CSRGraph<V>& g) {
  PageRankOptions jacobi;
  jacobi.variant = PageRankVariant::kJacobi;
  jacobi.tolerance = 1e-9;  // below 1e-6: double contributions
  jacobi.max_iterations = 30;
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return pagerank(graph, jacobi, x); },
      [](const PageRankResult& base, const PageRankResult& got) {
        EXPECT_EQ(base.iterations, got.iterations);
        expect_close(base.scores, got.scores, 1e-6);
      });
  PageRankOptions gs;
  gs.variant = PageRankVariant::kGaussSeidel;
  gs.use_weights = false;  // Gauss-Seidel runs the unweighted model only
  gs.tolerance = 1e-6;
  gs.max_iterations = 200;
  expect_same_in_every_order(
      g, {Mode::kFlat}, [&](const CSRGraph<V>& graph, const Execution& x) { return pagerank(graph, gs, x); },
      [&](const PageRankResult& base, const PageRankResult& got) {
        // Both stopped with an L1 change below the tolerance: each is within
        // tolerance * d / (1 - d) of the fixed point in L1.
        double l1 = 0;
        for (std::size_t v = 0; v < base.scores.size(); ++v) l1 += std::fabs(base.scores[v] - got.scores[v]);
        EXPECT_LE(l1, 2 * gs.tolerance * gs.damping / (1 - gs.damping));
      });
}

TEST_F(ReorderKernels, PageRankScoresInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_pagerank_in_every_order(g); }, any);
  }
}

// --- SSSP: distances exact (integer weights; unweighted graphs: hops) ---

template <typename V>
void expect_sssp_in_every_order(const CSRGraph<V>& g) {
  const V source = first_with_edges(g);
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return sssp(graph, source, {}, x); },
      [](const SsspResult& base, const SsspResult& got) { expect_equal(base.dist, got.dist); });
}

TEST_F(ReorderKernels, SsspDistancesInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_sssp_in_every_order(g); }, any);
  }
}

// --- Connected components: the same partition, labels are caller ids ---

// Both label arrays name the same partition (a bijection between labels),
// and every label of `got` is a member of its own component.
template <typename V>
void expect_same_partition(const NumaArray<V>& base, const NumaArray<V>& got) {
  ASSERT_EQ(base.size(), got.size());
  std::vector<std::int64_t> to_got(base.size(), -1), to_base(base.size(), -1);
  for (std::size_t v = 0; v < base.size(); ++v) {
    auto& a = to_got[base[v]];
    auto& b = to_base[got[v]];
    if (a == -1) a = got[v];
    if (b == -1) b = base[v];
    ASSERT_EQ(a, static_cast<std::int64_t>(got[v])) << "vertex " << v << " is in another component";
    ASSERT_EQ(b, static_cast<std::int64_t>(base[v])) << "vertex " << v << " is in another component";
  }
  for (std::size_t v = 0; v < got.size(); ++v) ASSERT_EQ(got[got[v]], got[v]) << "label of " << v << " not a member";
}

template <typename V>
void expect_components_in_every_order(const CSRGraph<V>& g) {
  for (CcVariant variant : {CcVariant::kAfforest, CcVariant::kShiloachVishkin, CcVariant::kLabelPropagation}) {
    SCOPED_TRACE(kernels::to_string(variant));
    CcOptions o;
    o.variant = variant;
    const std::vector<Mode> modes = variant == CcVariant::kShiloachVishkin    ? std::vector<Mode>{Mode::kFlat}
                                    : variant == CcVariant::kLabelPropagation ? std::vector<Mode>{Mode::kNuma}
                                                                              : kAllModes;
    expect_same_in_every_order(
        g, modes, [&](const CSRGraph<V>& graph, const Execution& x) { return connected_components(graph, o, x); },
        [&](const CcResult<V>& base, const CcResult<V>& got) {
          expect_same_partition(base.labels, got.labels);
          const auto ok = verify::components(g, got.labels.data());
          EXPECT_TRUE(ok.ok) << ok.message;
        });
  }
}

TEST_F(ReorderKernels, ComponentsArePartitionsInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_components_in_every_order(g); }, any);
  }
}

// The engine labels each component by its smallest id; so does any run in
// another order, in the caller's ids.
TEST_F(ReorderKernels, ComponentLabelsAreTheSmallestCallerIdInAnotherOrder) {
  const auto graphs = random_graphs();
  const auto& g = std::get<Graph32>(graphs[2].g);  // many components
  const auto shuffled = randomly_renumbered(g, 11);
  Execution numa;
  numa.engine = EngineChoice::kNuma;
  const auto base = connected_components(g, {}, numa);
  expect_equal(base.labels, connected_components(shuffled, {}, Execution{}).labels);
  expect_equal(base.labels, connected_components(shuffled, {}, numa).labels);
}

// --- k-core and triangles: exact (undirected graphs) ---

template <typename V>
void expect_cores_and_triangles_in_every_order(const CSRGraph<V>& g) {
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return core_numbers(graph, {}, x); },
      [](const KcoreResult<V>& base, const KcoreResult<V>& got) {
        EXPECT_EQ(base.max_core, got.max_core);
        expect_equal(base.core, got.core);
      });
  for (bool per_vertex : {false, true}) {
    TcOptions o;
    o.per_vertex = per_vertex;
    expect_same_in_every_order(
        g, {Mode::kFlat}, [&](const CSRGraph<V>& graph, const Execution& x) { return triangles(graph, o, x); },
        [](const TcResult& base, const TcResult& got) {
          EXPECT_EQ(base.triangles, got.triangles);
          expect_equal(base.per_vertex, got.per_vertex);
        });
  }
}

TEST_F(ReorderKernels, CoreNumbersAndTrianglesInTheCallersIds) {
  for (const auto& [label, any] : random_graphs(/*undirected_only=*/true)) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_cores_and_triangles_in_every_order(g); }, any);
  }
}

// --- SpMV and belief propagation: within 1e-6 ---

template <typename V>
void expect_spmv_in_every_order(const CSRGraph<V>& g) {
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return spmv(graph, {}, x); },
      [](const SpmvResult& base, const SpmvResult& got) { expect_close(base.y, got.y, 1e-6); });
}

TEST_F(ReorderKernels, SpmvProductInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_spmv_in_every_order(g); }, any);
  }
}

// Each vertex keeps its own prior: the beliefs, not just their multiset, match.
template <typename V>
void expect_bp_in_every_order(const CSRGraph<V>& g) {
  expect_same_in_every_order(
      g, kAllModes,
      [&](const CSRGraph<V>& graph, const Execution& x) { return belief_propagation(graph, {}, x); },
      [](const BpResult& base, const BpResult& got) { expect_close(base.belief, got.belief, 1e-6); });
}

TEST_F(ReorderKernels, BeliefsInTheCallersIds) {
  for (const auto& [label, any] : random_graphs(/*undirected_only=*/true)) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_bp_in_every_order(g); }, any);
  }
}

// --- Betweenness: every flat variant and the engine, within 1e-6 ---

template <typename V>
void expect_betweenness_in_every_order(const CSRGraph<V>& g) {
  const std::vector<V> sources = kernels::pick_roots(g, 4, 3);
  // work-queues also names the engine's variant.
  for (BcVariant variant :
       {BcVariant::kBrandes, BcVariant::kDirectionOptimizing, BcVariant::kBatched, BcVariant::kWorkQueues}) {
    SCOPED_TRACE(kernels::to_string(variant));
    BcOptions o;
    o.variant = variant;
    const std::vector<Mode> modes = variant == BcVariant::kWorkQueues ? kAllModes : std::vector<Mode>{Mode::kFlat};
    expect_same_in_every_order(
        g, modes, [&](const CSRGraph<V>& graph, const Execution& x) { return betweenness(graph, sources, o, x); },
        [](const BcResult& base, const BcResult& got) { expect_close(base.scores, got.scores, 1e-6); });
  }
}

TEST_F(ReorderKernels, BetweennessInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_betweenness_in_every_order(g); }, any);
  }
}

// --- Diameter: the same sweeps, so the same bound and endpoints ---

template <typename V>
void expect_diameter_in_every_order(const CSRGraph<V>& g) {
  expect_same_in_every_order(
      g, {Mode::kFlat, Mode::kNuma},
      [&](const CSRGraph<V>& graph, const Execution& x) { return diameter(graph, {}, x); },
      [](const DiameterResult<V>& base, const DiameterResult<V>& got) {
        EXPECT_EQ(base.bound, got.bound);
        EXPECT_EQ(base.from, got.from);
        EXPECT_EQ(base.to, got.to);
        EXPECT_EQ(base.sweeps, got.sweeps);
      });
}

TEST_F(ReorderKernels, DiameterEndpointsInTheCallersIds) {
  for (const auto& [label, any] : random_graphs()) {
    SCOPED_TRACE(label);
    visit([](const auto& g) { expect_diameter_in_every_order(g); }, any);
  }
}

// --- A real graph: email-Enron (undirected, skewed, disconnected) ---

TEST_F(ReorderKernels, EmailEnronInTheCallersIds) {
  const std::string path = std::string(NUMAGRAPH_SHARED_DATA) + "/email-Enron/email-Enron.txt.gz";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent: the real-graph case is skipped";
  BuildOptions b;
  b.symmetrize = true;
  b.dedupe = true;
  b.drop_self_loops = true;
  b.relabel = Relabel::kOff;
  const auto g = std::get<Graph32>(load_graph(path, {}, b));
  using V = std::uint32_t;
  // A random permutation, the degree order and both; flat and NUMA engine.
  const std::vector<reorder::Order> degree{reorder::Order::kDegree};
  const std::vector<Mode> modes{Mode::kFlat, Mode::kNuma};
  const V root = first_with_edges(g);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return bfs(graph, root, {}, x); },
      [&](const BfsResult<V>& base, const BfsResult<V>& got) {
        expect_equal(base.depth, got.depth);
        const auto ok = verify::bfs_tree(g, root, got.parent.data(), got.depth.data());
        EXPECT_TRUE(ok.ok) << ok.message;
      },
      degree);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return sssp(graph, root, {}, x); },
      [](const SsspResult& base, const SsspResult& got) { expect_equal(base.dist, got.dist); }, degree);
  PageRankOptions jacobi;
  jacobi.variant = PageRankVariant::kJacobi;
  jacobi.tolerance = 1e-9;
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return pagerank(graph, jacobi, x); },
      [](const PageRankResult& base, const PageRankResult& got) { expect_close(base.scores, got.scores, 1e-6); },
      degree);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return connected_components(graph, {}, x); },
      [](const CcResult<V>& base, const CcResult<V>& got) { expect_same_partition(base.labels, got.labels); },
      degree);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return core_numbers(graph, {}, x); },
      [](const KcoreResult<V>& base, const KcoreResult<V>& got) { expect_equal(base.core, got.core); }, degree);
  TcOptions per_vertex;
  per_vertex.per_vertex = true;
  expect_same_in_every_order(
      g, {Mode::kFlat}, [&](const Graph32& graph, const Execution& x) { return triangles(graph, per_vertex, x); },
      [](const TcResult& base, const TcResult& got) { expect_equal(base.per_vertex, got.per_vertex); }, degree);
  const std::vector<V> sources = kernels::pick_roots(g, 2, 5);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return betweenness(graph, sources, {}, x); },
      [](const BcResult& base, const BcResult& got) { expect_close(base.scores, got.scores, 1e-6); }, degree);
  expect_same_in_every_order(
      g, modes, [&](const Graph32& graph, const Execution& x) { return belief_propagation(graph, {}, x); },
      [](const BpResult& base, const BpResult& got) { expect_close(base.belief, got.belief, 1e-6); }, degree);
}

// --- Renumbered twice, then reordered: the permutations compose ---

TEST_F(ReorderKernels, PermutationsComposeOverTwoRenumberingsAndAnOrder) {
  const auto graphs = random_graphs();
  const auto& g = std::get<Graph64>(graphs[1].g);
  const auto once = randomly_renumbered(g, 21);
  const auto twice = randomly_renumbered(once, 22);
  for (std::int64_t v = 0; v < g.num_vertices(); ++v) {  // vertex k of `twice` is vertex to_old(k) of g
    const auto k = static_cast<std::uint64_t>(v);
    ASSERT_EQ(twice.out_degree(k), g.out_degree(twice.permutation().to_old(k)));
  }
  const std::uint64_t root = first_with_edges(g);
  for (EngineChoice engine : {EngineChoice::kFlat, EngineChoice::kNuma}) {
    Execution x;
    x.engine = engine;
    const auto base = bfs(g, root, {}, x);
    const auto base_dist = sssp(g, root, {}, x);
    for (reorder::Order o : built_orders()) {
      SCOPED_TRACE(reorder::to_string(o));
      x.reorder = {o};
      expect_equal(base.depth, bfs(twice, root, {}, x).depth);
      expect_equal(base_dist.dist, sssp(twice, root, {}, x).dist);
    }
  }
}

// --- The cache: one renumbered copy per order, built once ---

TEST_F(ReorderKernels, TheCacheBuildsTheRenumberedGraphOnce) {
  if (built_orders().empty()) GTEST_SKIP() << "no vertex order is built yet";
  const auto graphs = random_graphs();
  const auto& g = std::get<Graph32>(graphs[0].g);
  const std::uint32_t root = first_with_edges(g);
  struct Phases : PhaseListener {  // the call's own phases, not the BFS levels inside them
    std::vector<std::string> events;
    int depth = 0;
    void begin(std::string_view p) override {
      if (depth++ == 0) events.push_back("+" + std::string(p));
    }
    void end(std::string_view p) override {
      if (--depth == 0) events.push_back("-" + std::string(p));
    }
  } listener;
  KernelCache cache;
  Execution x;
  x.engine = EngineChoice::kNuma;
  x.cache = &cache;
  x.listener = &listener;
  x.reorder = {built_orders()[0]};
  const auto first = bfs(g, root, {}, x);
  EXPECT_GT(first.ran.reorder_s, 0);
  EXPECT_GT(first.ran.setup_s, 0);
  const auto second = bfs(g, root, {}, x);
  EXPECT_EQ(second.ran.reorder_s, 0) << "the renumbered graph came from the cache";
  EXPECT_EQ(second.ran.reorder_bfs_equiv, 0);
  EXPECT_EQ(second.ran.setup_s, 0) << "so did its partitioned copy";
  EXPECT_EQ(listener.events, (std::vector<std::string>{"+reorder", "-reorder", "+setup", "-setup", "+bfs", "-bfs",
                                                       "+reorder", "-reorder", "+setup", "-setup", "+bfs", "-bfs"}));
  expect_equal(first.depth, second.depth);
  // The graph's own order on the same cache: the kernel state follows the
  // graph the kernel runs on, and the answers stay the same.
  x.listener = nullptr;
  Execution plain = x;
  plain.reorder = {};
  const auto own = bfs(g, root, {}, plain);
  EXPECT_GT(own.ran.setup_s, 0) << "a partitioned copy of g itself";
  expect_equal(first.depth, own.depth);
  const auto again = bfs(g, root, {}, x);
  EXPECT_EQ(again.ran.reorder_s, 0) << "the renumbered copy stays while the graph's own order runs";
  expect_equal(first.depth, again.depth);
  // No cache: built for the call and dropped.
  Execution uncached = x;
  uncached.cache = nullptr;
  EXPECT_GT(bfs(g, root, {}, uncached).ran.reorder_s, 0);
}

TEST_F(ReorderKernels, ABadRootIsRefusedBeforeItIsMapped) {
  const auto graphs = random_graphs();
  const auto& g = std::get<Graph32>(graphs[0].g);
  Execution x;
  x.reorder = {reorder::Order::kDegree};
  EXPECT_THROW(bfs(g, static_cast<std::uint32_t>(g.num_vertices()), {}, x), UsageError);
}

}  // namespace
