"""Every kernel against NetworkX/SciPy on random graphs and on ../shared/data."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng


def random_graph(n, p, directed, seed):
    return nx.gnp_random_graph(n, p, seed=seed, directed=directed)


GRAPHS = [(60, 0.08, False, 1), (120, 0.03, False, 2), (80, 0.05, True, 3), (200, 0.01, False, 4)]


@pytest.mark.parametrize("n,p,directed,seed", GRAPHS)
def test_bfs_matches_networkx(n, p, directed, seed):
    G = random_graph(n, p, directed, seed)
    g = ng.Graph.from_networkx(G)
    depth, parent = ng.bfs(g, 0, parents=True)
    want = nx.single_source_shortest_path_length(G, 0)
    got = {v: int(d) for v, d in enumerate(depth) if d >= 0}
    assert got == want
    for v, d in got.items():  # parents form a BFS tree
        if d > 0:
            assert G.has_edge(int(parent[v]), v) and depth[parent[v]] == d - 1
    assert parent[0] == 0 and all(parent[v] == -1 for v in range(n) if depth[v] < 0)


@pytest.mark.parametrize("n,p,directed,seed", GRAPHS)
def test_sssp_matches_dijkstra(n, p, directed, seed):
    G = random_graph(n, p, directed, seed)
    rng = np.random.default_rng(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = int(rng.integers(1, 20))
    g = ng.Graph.from_networkx(G, weight="weight")
    dist = ng.sssp(g, 0)
    want = nx.single_source_dijkstra_path_length(G, 0)
    assert {v: d for v, d in enumerate(dist.tolist()) if np.isfinite(d)} == pytest.approx(want)


@pytest.mark.parametrize("engine", ["flat", "numa"])
@pytest.mark.parametrize("delta", [1.1, 2.2, 0.3, 1e-3])
def test_sssp_any_delta_matches_dijkstra(delta, engine):
    # Deltas that do not divide the distances evenly (1.1: distance 55 lies in
    # bucket 50, yet 1.1 * 50 rounds above 55) and one far below the weights
    # (entries thousands of buckets ahead): a unit path reaches every integer
    # distance up to 299, random chords mix the cases.
    G = nx.path_graph(300, create_using=nx.DiGraph)
    nx.set_edge_attributes(G, 1, "weight")
    rng = np.random.default_rng(7)
    for _ in range(600):
        u, v = (int(x) for x in rng.integers(0, 300, 2))
        if u != v:
            G.add_edge(u, v, weight=int(rng.integers(1, 60)))
    G.add_edge(299, 0, weight=55)
    g = ng.Graph.from_networkx(G, weight="weight")
    dist = ng.sssp(g, 0, delta=delta, engine=engine)
    want = nx.single_source_dijkstra_path_length(G, 0)
    assert {v: d for v, d in enumerate(dist.tolist()) if np.isfinite(d)} == want


@pytest.mark.parametrize("shape", ["broom", "grid"])
def test_small_sssp_starting_alone_matches_dijkstra(monkeypatch, shape):
    # With the measured cut-offs (the suite turns them off), a small search starts on one
    # thread and calls the team at its first round of 1,000 entries: the broom's 2,000
    # children give it one at delta 1e6, the grid's rounds never do.
    monkeypatch.delenv("NUMAGRAPH_SERIAL_BELOW", raising=False)
    rng = np.random.default_rng(11)
    if shape == "broom":
        G = nx.star_graph(2000)
        G.add_edges_from((i, 2000 + i) for i in range(1, 2001))
        G.add_edges_from((2000 + i, 2001 + i) for i in range(1, 2000))
    else:
        G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(40, 40))
    for u, v in G.edges():
        G[u][v]["weight"] = int(rng.integers(1, 40))
    g = ng.Graph.from_networkx(G, weight="weight")
    want = nx.single_source_dijkstra_path_length(G, 0)
    with ng.config(threads=2):
        for delta in (1e6, None):
            dist = ng.sssp(g, 0) if delta is None else ng.sssp(g, 0, delta=delta)
            assert {v: d for v, d in enumerate(dist.tolist()) if np.isfinite(d)} == want, delta


@pytest.mark.parametrize("n,p,directed,seed", GRAPHS)
@pytest.mark.parametrize("normalized", [False, True])
def test_betweenness_exact(n, p, directed, seed, normalized):
    G = random_graph(n, p, directed, seed)
    got = ng.betweenness(ng.Graph.from_networkx(G), normalized=normalized)
    want = nx.betweenness_centrality(G, normalized=normalized)
    np.testing.assert_allclose(got, [want[v] for v in G], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("n,p,directed,seed", GRAPHS)
def test_pagerank_networkx_mode(n, p, directed, seed):
    G = random_graph(n, p, directed, seed)
    got = ng.pagerank(ng.Graph.from_networkx(G), networkx=True, tolerance=1e-6, max_iterations=100)
    want = nx.pagerank(G)
    np.testing.assert_allclose(got, [want[v] for v in G], atol=1e-6)


def weighted_digraph(seed, n=90):
    """A random digraph with integer weights 0..20 (exact in float32) and dangling
    vertices: 5 isolated ones, and any whose out-edges all weigh 0."""
    G = nx.gnp_random_graph(n, 0.04, seed=seed, directed=True)
    G.add_nodes_from(range(n, n + 5))
    rng = np.random.default_rng(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = int(rng.integers(0, 21))
    return G


NX_DEFAULTS = {"networkx": True, "tolerance": 1e-6, "max_iterations": 100}  # networkx.pagerank's tol and max_iter


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("directed", [True, False])
def test_weighted_and_personalized_pagerank_match_networkx(seed, directed):
    """weight= (default: the graph's weights), personalization= and dangling=
    as dicts of node objects or arrays in vertex_ids() order: networkx.pagerank's answer to 1e-9."""
    G = weighted_digraph(seed)
    if not directed:
        G = nx.Graph(G)
    g = ng.Graph.from_networkx(G, weight="weight")
    nodes = list(G)
    p = {v: float(1 + v % 3) for v in nodes[::5]}
    q = {v: 1.0 for v in nodes[1::9]}
    p_array = np.array([p.get(v, 0.0) for v in nodes])
    for kw, ours in (({}, {}), ({"weight": None}, {"weight": None}), ({"personalization": p}, {"personalization": p}),
                     ({"personalization": p}, {"personalization": p_array}),
                     ({"personalization": p, "dangling": q}, {"personalization": p, "dangling": q}),
                     ({"weight": None, "personalization": p}, {"weight": False, "personalization": p})):
        want = nx.pagerank(G, **kw)
        got = ng.pagerank(g, **NX_DEFAULTS, **ours)
        assert np.abs(got - [want[v] for v in nodes]).max() < 1e-9, kw


def test_personalization_in_user_ids_of_a_relabelled_graph():
    """Sparse ids are compacted (relabel='auto'): personalization keys are the user's ids."""
    G = weighted_digraph(4, n=60)
    G.remove_nodes_from(list(nx.isolates(G)))
    G = nx.relabel_nodes(G, {v: 1000 + 7 * v for v in G})
    src, dst, w = zip(*G.edges(data="weight"))
    g = ng.Graph.from_edges(np.array(src), np.array(dst), np.array(w), directed=True, relabel=True)
    p = {v: 1.0 + v % 5 for v in list(G)[::3]}
    got = g.to_dict(ng.pagerank(g, **NX_DEFAULTS, personalization=p))
    want = nx.pagerank(G, personalization=p)
    assert max(abs(got[v] - want[v]) for v in want) < 1e-9
    with pytest.raises(ng.UsageError, match="does not appear in the graph"):
        ng.pagerank(g, personalization={3: 1.0})


def test_pagerank_weights_refusals():
    G = weighted_digraph(5)
    g = ng.Graph.from_networkx(G, weight="weight")
    with pytest.raises(ng.UsageError, match="all zeros"):
        ng.pagerank(g, personalization={0: 0.0})
    with pytest.raises(ng.UsageError, match="finite and >= 0"):
        ng.pagerank(g, personalization={0: -1.0})
    with pytest.raises(ng.UsageError, match="one value per vertex"):
        ng.pagerank(g, personalization=np.ones(3))
    with pytest.raises(ng.UsageError, match="is not in the graph"):
        ng.pagerank(g, personalization={"x": 1.0})
    with pytest.raises(ng.UsageError, match="jacobi"):
        ng.pagerank(g, variant="gauss-seidel")
    with pytest.raises(ng.UsageError, match="NetworkX's model"):
        ng.pagerank(g, dangling={0: 1.0})
    with pytest.raises(ng.UsageError, match="weight='weight'"):
        ng.pagerank(g, weight="cost")
    neg = ng.Graph.from_edges([0, 1], [1, 2], [1.0, -2.0], directed=True)
    with pytest.raises(ng.UsageError, match="edge weights >= 0: the edge 1 -> 2 has weight -2"):
        ng.pagerank(neg)
    assert ng.pagerank(neg, weight=None).shape == (3,)  # weights ignored: runs


def test_pagerank_default_converges():
    g = ng.generate.kronecker(10)
    scores, iterations, change = ng.pagerank(g, return_info=True)
    # gapbs model: the mass of dangling vertices is dropped, so the sum is <= 1.
    assert 0.5 < scores.sum() <= 1 + 1e-9 and change < 1e-4 and iterations <= 20


@pytest.mark.parametrize("n,p,directed,seed", GRAPHS)
def test_connected_components(n, p, directed, seed):
    G = random_graph(n, p, directed, seed)
    comp = ng.connected_components(ng.Graph.from_networkx(G))
    want = list(nx.weakly_connected_components(G) if directed else nx.connected_components(G))
    assert np.unique(comp).size == len(want)
    for c in want:
        assert len({int(comp[v]) for v in c}) == 1


@pytest.mark.parametrize("n,p,seed", [(60, 0.1, 1), (150, 0.05, 2)])
def test_triangles(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    g = ng.Graph.from_networkx(G)
    want = nx.triangles(G)
    assert ng.triangles(g, per_vertex=True).tolist() == [want[v] for v in G]
    assert ng.triangles(g) == sum(want.values()) // 3


def test_diameter_is_exact_on_a_path_and_bounded_on_random():
    g = ng.Graph.from_networkx(nx.path_graph(30))
    d = ng.diameter(g)
    assert d.bound == 29 and set(d.endpoints) == {0, 29}
    G = nx.connected_watts_strogatz_graph(100, 4, 0.1, seed=5)
    assert ng.diameter(ng.Graph.from_networkx(G)).bound <= nx.diameter(G)


def test_spmv_matches_scipy():
    G = random_graph(100, 0.05, True, 7)
    g = ng.Graph.from_networkx(G)
    A = g.to_scipy().astype(np.float64)
    x = np.full(g.num_vertices, 1.0 / g.num_vertices)
    y = ng.spmv(g, 1)
    # One product, up to the kernel's normalisation: same direction as A^T x or A x.
    ref = [A @ x, A.T @ x]
    assert any(np.allclose(y / np.linalg.norm(y), r / np.linalg.norm(r)) for r in ref if np.linalg.norm(r) > 0)


@pytest.mark.parametrize("directed", [False, True])
def test_cache_blocking_changes_nothing_but_rounding(directed):
    """Forced blocks (256 bytes of double contributions, 1 KiB of x: 32 and 8
    ranges) give the unblocked results; a bad size is refused with what to pass."""
    g = ng.Graph.from_networkx(random_graph(1000, 0.01, True, 9)) if directed else ng.generate.kronecker(10)
    for variant in ("jacobi", "gauss-seidel"):
        off = ng.pagerank(g, variant=variant, cache_block="off", tolerance=1e-9, max_iterations=200, engine="flat")
        on = ng.pagerank(g, variant=variant, cache_block=256, tolerance=1e-9, max_iterations=200, engine="flat")
        np.testing.assert_allclose(on, off, rtol=1e-12 if variant == "jacobi" else 1e-6, atol=1e-12)
    np.testing.assert_allclose(ng.spmv(g, 5, cache_block="1K", engine="flat"),
                               ng.spmv(g, 5, cache_block="off", engine="flat"), rtol=1e-12, atol=1e-300)
    with pytest.raises(ng.UsageError, match="'auto', 'off' or a size in bytes"):
        ng.pagerank(g, cache_block="4X")


def test_belief_propagation_in_unit_interval_and_deterministic():
    g = ng.generate.kronecker(8)
    a = ng.belief_propagation(g, 5)
    assert a.shape == (g.num_vertices,) and np.all((a >= 0) & (a <= 1))
    np.testing.assert_array_equal(a, ng.belief_propagation(g, 5))


def test_kernels_on_shared_data(shared_data):
    g = ng.read(shared_data / "facebook_combined" / "facebook_combined.txt.gz", directed=False)
    assert (g.num_vertices, g.num_edges) == (4039, 88234)
    G = g.to_networkx()
    assert ng.bfs(g, 0).max() == max(nx.single_source_shortest_path_length(G, 0).values())
    assert ng.triangles(g) == sum(nx.triangles(G).values()) // 3
    assert np.unique(ng.connected_components(g)).size == nx.number_connected_components(G)
    got = ng.pagerank(g, networkx=True, tolerance=1e-6, max_iterations=100)
    want = nx.pagerank(G)
    np.testing.assert_allclose(got, [want[v] for v in g.vertex_ids().tolist()], atol=1e-6)


def test_relabelled_graph_keeps_labels(shared_data):
    g = ng.read(shared_data / "wiki-Vote" / "wiki-Vote.txt.gz", relabel=True)
    assert g.relabelled and g.num_vertices == 7115 and g.labels.max() == 8297
    src = int(g.labels[0])
    depth = ng.bfs(g, src)  # sources are original ids
    assert depth[0] == 0
    with pytest.raises(ng.UsageError, match="does not appear"):
        ng.bfs(g, 8298 + 5)


def test_weighted_road_graph_sssp(shared_data):
    g = ng.read(shared_data / "rome99" / "rome99.gr")
    G = nx.DiGraph()
    src = np.repeat(np.arange(g.num_vertices), g.out_degree)
    G.add_weighted_edges_from(zip(src.tolist(), g.indices.tolist(), g.weights.tolist()))
    want = nx.single_source_dijkstra_path_length(G, 0)
    dist = ng.sssp(g, 0)
    assert {v: d for v, d in enumerate(dist.tolist()) if np.isfinite(d)} == pytest.approx(want)
