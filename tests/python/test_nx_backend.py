"""The NetworkX backend: dispatching, results equal to NetworkX's, and NetworkX's
own test suite run with --backend numagraph for the functions implemented."""
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")


@pytest.fixture(scope="module")
def graphs():
    return [nx.karate_club_graph(), nx.gnp_random_graph(150, 0.04, seed=1),
            nx.gnp_random_graph(80, 0.05, seed=2, directed=True)]


def close(a, b, tol=1e-8):
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) <= tol for k in a)


def test_backend_is_registered():
    assert "numagraph" in nx.utils.backends.backends
    assert "pagerank" in nx.utils.backends.backend_info["numagraph"]["functions"]


def test_pagerank(graphs):
    for G in graphs:
        assert close(nx.pagerank(G, weight=None, backend="numagraph"), nx.pagerank(G, weight=None), 1e-6)


def weighted_digraph(seed):
    """A random weighted digraph with dangling vertices (no out-edges, or out-weight 0)."""
    G = nx.gnp_random_graph(90, 0.04, seed=seed, directed=True)
    G.add_nodes_from(range(90, 95))
    rng = np.random.default_rng(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = int(rng.integers(0, 20))
    return G


@pytest.mark.parametrize("seed", [1, 2])
def test_weighted_and_personalized_pagerank(seed):
    """NetworkX's weighted and personalized PageRank: weight="weight" (its
    default), weight=None, personalization (keys that are not nodes ignored,
    as NetworkX does) and dangling, equal to NetworkX's own to 1e-9."""
    G = weighted_digraph(seed)
    U = nx.Graph(G)  # a weighted undirected graph
    p = {v: 1 + v % 3 for v in range(0, 95, 4)}
    p["not a node"] = 5
    for H in (G, U):
        for kw in ({}, {"weight": None}, {"personalization": p}, {"personalization": p, "dangling": {1: 1, 2: 3}},
                   {"weight": None, "personalization": p}, {"alpha": 0.7, "tol": 1e-10}):
            assert close(nx.pagerank(H, backend="numagraph", **kw), nx.pagerank(H, **kw), 1e-9), kw


def test_pagerank_refusals_follow_networkx():
    G = weighted_digraph(3)
    with pytest.raises(ZeroDivisionError):
        nx.pagerank(G, backend="numagraph", personalization={0: 0})
    for kw in ({"nstart": dict.fromkeys(G, 1)}, {"weight": "cost"}, {"personalization": {0: -1}}):
        with pytest.warns(UserWarning, match="numagraph backend declines pagerank"):
            with pytest.raises(NotImplementedError):
                nx.pagerank(G, backend="numagraph", **kw)
    G[0][next(iter(G[0]))]["weight"] = -1
    with pytest.warns(UserWarning, match="negative edge weights"):
        with pytest.raises(NotImplementedError):
            nx.pagerank(G, backend="numagraph")


@pytest.mark.parametrize("k", [None, 10])
def test_betweenness(graphs, k):
    for G in graphs:
        for normalized in (True, False):
            got = nx.betweenness_centrality(G, k=k, normalized=normalized, seed=42, backend="numagraph")
            want = nx.betweenness_centrality(G, k=k, normalized=normalized, seed=42)
            assert close(got, want, 1e-9)


def test_components_triangles_and_paths(graphs):
    G = nx.union(graphs[1], nx.path_graph(5), rename=("a", "b"))
    got = sorted(map(sorted, nx.connected_components(G, backend="numagraph")))
    assert got == sorted(map(sorted, nx.connected_components(G)))
    assert nx.number_connected_components(G, backend="numagraph") == nx.number_connected_components(G)
    assert nx.triangles(G, backend="numagraph") == nx.triangles(G)
    for H in graphs:
        assert nx.single_source_shortest_path_length(H, 0, backend="numagraph") == \
            nx.single_source_shortest_path_length(H, 0)
        assert nx.single_source_shortest_path_length(H, 0, cutoff=2, backend="numagraph") == \
            nx.single_source_shortest_path_length(H, 0, cutoff=2)


def test_bfs_edges_and_tree_are_bfs_trees(graphs):
    for G in graphs:
        depth = nx.single_source_shortest_path_length(G, 0)
        edges = list(nx.bfs_edges(G, 0, backend="numagraph"))
        assert len(edges) == len(depth) - 1
        assert all(G.has_edge(u, v) and depth[v] == depth[u] + 1 for u, v in edges)
        T = nx.bfs_tree(G, 0, backend="numagraph")
        assert set(T) == set(depth) and T.number_of_edges() == len(depth) - 1


def test_directed_components_raise_like_networkx():
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.connected_components(nx.DiGraph([(0, 1)]), backend="numagraph"))


def test_networkx_test_suite_with_backend():
    """NetworkX's backend test hook: its own tests for these functions, auto-converted."""
    root = Path(nx.__file__).parent / "algorithms"
    files = ["link_analysis/tests/test_pagerank.py", "centrality/tests/test_betweenness_centrality.py",
             "components/tests/test_connected.py", "components/tests/test_strongly_connected.py",
             "components/tests/test_weakly_connected.py", "traversal/tests/test_bfs.py",
             "shortest_paths/tests/test_unweighted.py", "tests/test_cluster.py"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--backend", "numagraph",
                           "-W", "ignore", *[str(root / f) for f in files]],
                          capture_output=True, text=True, timeout=600, cwd=root)
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    assert re.search(r"\d+ passed", tail) and not re.search(r"\d+ failed", tail), tail
