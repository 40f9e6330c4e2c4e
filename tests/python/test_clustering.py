"""numagraph.clustering / average_clustering / transitivity and the NetworkX
backend's clustering, average_clustering and transitivity against NetworkX
(to 1e-12): random graphs with node objects, isolated vertices and
self-loops, undirected real graphs from ../shared/data, and the refusals
(directed graphs, weight=)."""
import gzip
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.io

import numagraph as ng
from numagraph.nx_backend import BackendDeclined


def random_graph(seed, n, p):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_nodes_from(["lonely", ("a", "tuple")])  # isolated, and not integers
    G.add_edges_from([("x", "y"), ("y", "z"), ("z", "x"), ("z", 0), (1, 1)])  # a triangle and a self-loop
    return G


def check(G):
    g = ng.Graph.from_networkx(G)
    got = g.to_dict(ng.clustering(g))
    expected = nx.clustering(G)
    assert got.keys() == expected.keys()
    for v, c in expected.items():
        assert got[v] == pytest.approx(c, abs=1e-12), v
    # networkx.average_clustering is the mean of these same coefficients (all,
    # or the nonzero ones): taken from them rather than a second NetworkX pass.
    for count_zeros in (True, False):
        values = [c for c in expected.values() if count_zeros or abs(c) > 0]
        assert ng.average_clustering(g, count_zeros=count_zeros) == \
            pytest.approx(sum(values) / len(values), abs=1e-12)
    assert ng.transitivity(g) == pytest.approx(nx.transitivity(G), abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("n,p", [(60, 0.05), (200, 0.03), (150, 0.3)])
def test_clustering_matches_networkx(seed, n, p):
    check(random_graph(seed, n, p))


def read_snap(path):
    with gzip.open(path, "rt") as f:
        G = nx.read_edgelist(f, nodetype=int)
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G


def read_metis(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    n = int(lines[0].split()[0])
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for u, line in enumerate(lines[1:n + 1]):
        G.add_edges_from((u, int(w) - 1) for w in line.split() if int(w) - 1 != u)
    return G


def test_clustering_on_real_graphs(shared_data):
    check(read_snap(shared_data / "facebook_combined/facebook_combined.txt.gz"))
    check(read_snap(shared_data / "email-Enron/email-Enron.txt.gz"))
    G = nx.Graph(scipy.io.mmread(str(shared_data / "netscience/netscience.mtx")))
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    check(G)
    check(read_metis(shared_data / "PGPgiantcompo/PGPgiantcompo.graph"))


def test_one_thread_gives_the_same_coefficients(shared_data):
    # facebook is skewed: renumbered by degree; one thread builds the lists
    # without sorting and counts without atomics, a team sorts and sums.
    g = ng.read(shared_data / "facebook_combined/facebook_combined.txt.gz", directed=False)
    want = ng.clustering(g)
    with ng.config(threads=1):
        assert np.array_equal(ng.clustering(g), want)


def test_directed_graph_is_refused():
    g = ng.Graph.from_networkx(nx.gnp_random_graph(30, 0.1, seed=1, directed=True))
    with pytest.raises(ng.UsageError, match="networkx.clustering"):
        ng.clustering(g)


def test_backend_matches_networkx():
    G = random_graph(3, 120, 0.05)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendDeclined)
        got = nx.clustering(G, backend="numagraph")
        assert got.keys() == nx.clustering(G).keys()
        assert all(got[v] == pytest.approx(c, abs=1e-12) for v, c in nx.clustering(G).items())
        assert nx.clustering(G, 0, backend="numagraph") == pytest.approx(nx.clustering(G, 0), abs=1e-12)
        nodes = [0, "x", "lonely", 5]
        assert nx.clustering(G, nodes, backend="numagraph") == pytest.approx(nx.clustering(G, nodes), abs=1e-12)
        for kw in ({}, {"count_zeros": False}, {"nodes": nodes}):
            assert nx.average_clustering(G, backend="numagraph", **kw) == \
                pytest.approx(nx.average_clustering(G, **kw), abs=1e-12), kw
        assert nx.transitivity(G, backend="numagraph") == pytest.approx(nx.transitivity(G), abs=1e-12)
        with pytest.raises(ZeroDivisionError):
            nx.average_clustering(nx.Graph(), backend="numagraph")


def test_backend_declines_directed_and_weighted():
    D = nx.gnp_random_graph(30, 0.1, seed=1, directed=True)
    for call in (lambda: nx.clustering(D, backend="numagraph"), lambda: nx.transitivity(D, backend="numagraph"),
                 lambda: nx.clustering(nx.path_graph(4), weight="weight", backend="numagraph")):
        with pytest.warns(BackendDeclined, match="networkx"), pytest.raises(NotImplementedError):
            call()
