"""The NetworkX backend: dispatching, results equal to NetworkX's, and NetworkX's
own test suite run with --backend numagraph for the functions implemented."""
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
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


def test_weighted_pagerank_is_declined():
    G = nx.Graph()
    G.add_edge(0, 1, weight=3.0)
    G.add_edge(1, 2, weight=1.0)
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
             "components/tests/test_connected.py", "traversal/tests/test_bfs.py",
             "shortest_paths/tests/test_unweighted.py", "tests/test_cluster.py"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--backend", "numagraph",
                           "-W", "ignore", *[str(root / f) for f in files]],
                          capture_output=True, text=True, timeout=600, cwd=root)
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    assert re.search(r"\d+ passed", tail) and not re.search(r"\d+ failed", tail), tail
