"""numagraph.eigenvector_centrality and numagraph.katz_centrality against
NetworkX on random graphs (node objects, isolated vertices, directed or not,
weighted or not), both engines; the non-convergence error; and the NetworkX
backend with NetworkX's own arguments, errors and refusals."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng
from numagraph.nx_backend import BackendDeclined


def random_graph(seed, directed, weighted):
    G = nx.gnp_random_graph(150, 0.05, seed=seed, directed=directed)
    G.add_nodes_from(["lonely", ("a", "tuple")])
    G.add_edges_from([("x", "y"), ("y", 0)])
    if weighted:
        rng = np.random.default_rng(seed)
        for u, v in G.edges():
            G[u][v]["weight"] = float(rng.integers(1, 9))
    return G


def by_node(g, values):
    ids = g.vertex_ids()
    ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    return dict(zip(ids, values.tolist()))


def assert_close(got, want, tol=1e-9):
    assert set(got) == set(want)
    assert max(abs(got[v] - want[v]) for v in want) <= tol


@pytest.mark.parametrize("engine", ["flat", "numa"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_match_networkx(engine, directed, weighted):
    G = random_graph(7, directed, weighted)
    weight = "weight" if weighted else None
    g = ng.Graph.from_networkx(G, weight=weight)
    x = ng.eigenvector_centrality(g, max_iter=1000, weight=weight, engine=engine)
    assert x.dtype == np.float64
    assert_close(by_node(g, x), nx.eigenvector_centrality(G, max_iter=1000, weight=weight))
    alpha = 0.01 if weighted else 0.05
    x = ng.katz_centrality(g, alpha=alpha, weight=weight, engine=engine)
    assert_close(by_node(g, x), nx.katz_centrality(G, alpha=alpha, weight=weight))
    x, iterations, change = ng.katz_centrality(g, alpha=alpha, beta=0.5, normalized=False, weight=weight,
                                               engine=engine, return_info=True)
    assert_close(by_node(g, x), nx.katz_centrality(G, alpha=alpha, beta=0.5, normalized=False, weight=weight))
    assert iterations > 1 and change < g.num_vertices * 1e-6


@pytest.mark.parametrize("name,alpha", [("email-Enron/email-Enron.txt.gz", 0.005),
                                        ("facebook_combined/facebook_combined.txt.gz", 0.005)])
def test_undirected_real_graphs(shared_data, name, alpha):
    """Read by numagraph, handed to NetworkX as its edges (self-loops dropped by both)."""
    g = ng.read(shared_data / name, directed=False)
    src = np.repeat(np.arange(g.num_vertices), g.out_degree)
    G = nx.Graph()
    G.add_nodes_from(range(g.num_vertices))
    G.add_edges_from(zip(src.tolist(), np.asarray(g.indices).tolist()))
    eigen, katz = nx.eigenvector_centrality(G), nx.katz_centrality(G, alpha=alpha)
    for engine in ("flat", "numa"):
        assert_close(dict(enumerate(ng.eigenvector_centrality(g, engine=engine).tolist())), eigen)
        assert_close(dict(enumerate(ng.katz_centrality(g, alpha=alpha, engine=engine).tolist())), katz)


def test_non_convergence_raises_with_the_fix():
    g = ng.Graph.from_networkx(random_graph(2, False, False))
    with pytest.raises(ng.UsageError, match="raise max_iter or tol"):
        ng.eigenvector_centrality(g, max_iter=2)
    with pytest.raises(ng.UsageError, match="lower alpha"):
        ng.katz_centrality(g, alpha=0.9)


def test_as_frame_column():
    pytest.importorskip("pandas")
    g = ng.Graph.from_networkx(nx.karate_club_graph())
    frame = ng.eigenvector_centrality(g, as_frame=True, weight=None)
    assert list(frame.columns) == ["centrality"]
    assert frame["centrality"].to_dict() == pytest.approx(nx.eigenvector_centrality(nx.karate_club_graph()))


@pytest.mark.parametrize("directed", [False, True])
def test_backend_matches_networkx(directed):
    G = random_graph(3, directed, True)
    for weight in (None, "weight"):
        assert_close(nx.eigenvector_centrality(G, weight=weight, max_iter=500, backend="numagraph"),
                     nx.eigenvector_centrality(G, weight=weight, max_iter=500))
        assert_close(nx.katz_centrality(G, 0.01, 2.0, 1000, 1e-8, None, False, weight, backend="numagraph"),
                     nx.katz_centrality(G, 0.01, 2.0, 1000, 1e-8, None, False, weight))


def test_backend_errors_as_networkx():
    G = nx.gnp_random_graph(100, 0.1, seed=4)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.eigenvector_centrality(G, max_iter=2, backend="numagraph")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.katz_centrality(G, alpha=0.9, backend="numagraph")
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.eigenvector_centrality(nx.Graph(), backend="numagraph")
    assert nx.katz_centrality(nx.Graph(), backend="numagraph") == {}


def test_backend_declines_nstart_and_beta_dicts():
    G = nx.path_graph(5)
    for call in (lambda: nx.eigenvector_centrality(G, nstart={v: 1 for v in G}, backend="numagraph"),
                 lambda: nx.katz_centrality(G, beta={v: 1.0 for v in G}, backend="numagraph"),
                 lambda: nx.katz_centrality(G, weight="length", backend="numagraph")):
        with pytest.warns(BackendDeclined, match="not supported"), pytest.raises(NotImplementedError):
            call()
