"""numagraph.closeness_centrality / harmonic_centrality and the NetworkX
backend against NetworkX: exact scores to 1e-12 relative on random graphs
(isolated vertices, several components; directed; weighted), NetworkX's
own arguments through the backend, the sampled estimate's definition and
its accuracy, and the refusals."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng


def graph(seed, directed, n=150, p=0.03, weighted=False):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    G.add_nodes_from(range(n + 5))  # isolated vertices
    if weighted:
        rng = np.random.default_rng(seed)
        for u, v in G.edges():
            G[u][v]["weight"] = int(rng.integers(1, 100))
    return G


def same(values, expected):
    assert len(values) == len(expected)
    for v, c in expected.items():
        assert values[v] == pytest.approx(c, rel=1e-12, abs=1e-300), v


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_functions_match_networkx(seed, directed, weighted):
    G = graph(seed, directed, weighted=weighted)
    g = ng.Graph.from_networkx(G, weight="weight" if weighted else None)
    distance = "weight" if weighted else None
    same(ng.closeness_centrality(g), nx.closeness_centrality(G, distance=distance))
    same(ng.closeness_centrality(g, wf_improved=False), nx.closeness_centrality(G, distance=distance, wf_improved=False))
    same(ng.harmonic_centrality(g), nx.harmonic_centrality(G, distance=distance))
    if weighted:
        same(ng.closeness_centrality(g, weighted=False), nx.closeness_centrality(G))
    sources = [0, 3, 7, 150]
    same(ng.harmonic_centrality(g, sources=sources), nx.harmonic_centrality(G, sources=sources, distance=distance))


@pytest.mark.parametrize("directed", [False, True])
def test_backend_matches_networkx(directed):
    G = graph(4, directed, n=300, p=0.01, weighted=True)
    for kw in ({}, {"wf_improved": False}, {"distance": "weight"}):
        same(nx.closeness_centrality(G, backend="numagraph", **kw), nx.closeness_centrality(G, **kw))
    for kw in ({}, {"distance": "weight"}, {"nbunch": [1, 2, 5]}, {"sources": [0, 9, 299, 301]},
               {"nbunch": range(50), "sources": range(100, 200)}):
        want = nx.harmonic_centrality(G, **kw)
        got = nx.harmonic_centrality(G, backend="numagraph", **kw)
        assert set(got) == set(want)
        same(got, want)


def test_backend_declines():
    """What numagraph cannot serve exactly is declined: backend='numagraph' raises, the warning says why."""
    G = graph(5, False, n=60, p=0.1)
    with pytest.warns(Warning, match="u is not supported"), pytest.raises(NotImplementedError):
        nx.closeness_centrality(G, u=3, backend="numagraph")
    nx.add_path(G, [0, 1, 2])
    for u, v in G.edges():
        G[u][v]["length"] = 0.5
    with pytest.warns(Warning, match="whole-number weights"), pytest.raises(NotImplementedError):
        nx.harmonic_centrality(G, distance="length", backend="numagraph")


def test_sampled_estimate():
    G = nx.connected_watts_strogatz_graph(1000, 8, 0.1, seed=2)
    g = ng.Graph.from_networkx(G)
    closeness = nx.closeness_centrality(G)
    exact = np.array([closeness[v] for v in range(1000)])
    est = ng.closeness_centrality(g, samples=300, seed=5)
    assert np.mean(np.abs(est - exact) / exact) < 0.05
    assert np.array_equal(est, ng.closeness_centrality(g, samples=300, seed=5))
    assert not np.array_equal(est, ng.closeness_centrality(g, samples=300, seed=6))
    h = ng.harmonic_centrality(g, samples=300, seed=5)
    harmonic = nx.harmonic_centrality(G)
    hx = np.array([harmonic[v] for v in range(1000)])
    assert np.mean(np.abs(h - hx) / hx) < 0.05
    assert np.array_equal(ng.closeness_centrality(g, samples=5000), exact) or \
        np.allclose(ng.closeness_centrality(g, samples=5000), exact, rtol=1e-12)


def test_refusals():
    G = graph(1, False, n=40, p=0.2, weighted=True)
    g = ng.Graph.from_networkx(G, weight="weight")
    with pytest.raises(ng.UsageError, match="samples"):
        ng.closeness_centrality(g, samples=0)
    with pytest.raises(ng.UsageError, match="not both"):
        ng.harmonic_centrality(g, samples=3, sources=[1])
    G[0][next(iter(G[0]))]["weight"] = -1
    with pytest.raises(ng.UsageError, match="negative"):
        ng.closeness_centrality(ng.Graph.from_networkx(G, weight="weight"))
    assert np.all(ng.harmonic_centrality(g, sources=[]) == 0)
