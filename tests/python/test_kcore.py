"""numagraph.core_number against networkx.core_number: random graphs from
NetworkX (node objects, isolated vertices), both engines on one and two
synthetic nodes, the NetworkX backend, and the refusal of directed graphs."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng

GRAPHS = [(seed, n, p) for seed, n, p in ((1, 300, 0.01), (2, 150, 0.08), (3, 50, 0.6))]


def random_graph(seed, n, p):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_nodes_from(["lonely", ("a", "tuple")])  # isolated, and not integers
    G.add_edge("x", "y")
    return G


@pytest.mark.parametrize("engine", ["flat", "numa", "auto"])
@pytest.mark.parametrize("seed,n,p", GRAPHS)
def test_core_number_matches_networkx(seed, n, p, engine):
    G = random_graph(seed, n, p)
    g = ng.Graph.from_networkx(G)
    for topology in ("pack:1 numa:1 core:2 pu:1", "pack:2 numa:1 core:1 pu:1"):
        with ng.config(topology=topology, bind="none"):
            core = ng.core_number(g, engine=engine)
        assert core.dtype == np.int32
        assert g.to_dict(core) == nx.core_number(G)


def test_networkx_backend_dispatches_core_number():
    G = random_graph(4, 200, 0.05)
    assert nx.core_number(G, backend="numagraph") == nx.core_number(G)
    assert nx.core_number(nx.Graph(), backend="numagraph") == {}


def test_networkx_backend_leaves_directed_and_self_loops_to_networkx():
    from numagraph.nx_backend import BackendInterface
    D = nx.gnp_random_graph(30, 0.2, seed=5, directed=True)
    assert BackendInterface.can_run("core_number", (D,), {}) is not True
    L = nx.path_graph(4)
    L.add_edge(2, 2)
    assert BackendInterface.can_run("core_number", (L,), {}) is not True
    assert BackendInterface.can_run("core_number", (nx.path_graph(4),), {}) is True


def test_directed_and_self_loops_are_refused():
    D = ng.Graph.from_edges(np.array([0, 1]), np.array([1, 2]), directed=True)
    with pytest.raises(ng.UsageError, match="undirected"):
        ng.core_number(D)
    L = ng.Graph.from_edges(np.array([0, 1]), np.array([1, 1]), directed=False, drop_self_loops=False)
    with pytest.raises(ng.UsageError, match="self-loops"):
        ng.core_number(L)
    ok = ng.Graph.from_edges(np.array([0, 1]), np.array([1, 1]), directed=False, drop_self_loops=True)
    assert ng.core_number(ok).tolist() == [1, 1]
