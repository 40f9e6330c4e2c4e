"""numagraph.strongly_connected_components against
networkx.strongly_connected_components: random digraphs from NetworkX (node
objects, isolated vertices), directed real graphs from ../shared/data, the
refusal of the NUMA engine, and the NetworkX backend's strongly and weakly
connected components on a DiGraph."""
import gzip

import networkx as nx
import numpy as np
import pytest

import numagraph as ng


def random_digraph(seed, n, p):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    G.add_nodes_from(["lonely", ("a", "tuple")])  # isolated, and not integers
    G.add_edges_from([("x", "y"), ("y", "x"), ("y", 0)])
    return G


def same_partition(g, labels, comps):
    """Each component is one label, a different one each, its smallest id."""
    ids = g.vertex_ids()
    ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    by_node = dict(zip(ids, labels.tolist()))
    assert len({by_node[next(iter(c))] for c in comps}) == len(comps)
    for c in comps:
        assert len({by_node[v] for v in c}) == 1


@pytest.mark.parametrize("seed,n,p", [(1, 300, 0.003), (2, 300, 0.006), (3, 200, 0.02), (4, 100, 0.1)])
def test_scc_matches_networkx(seed, n, p):
    G = random_digraph(seed, n, p)
    g = ng.Graph.from_networkx(G)
    labels = ng.strongly_connected_components(g)
    assert labels.shape == (g.num_vertices,)
    same_partition(g, labels, list(nx.strongly_connected_components(G)))
    frame = ng.strongly_connected_components(g, as_frame=True)
    assert list(frame.columns) == ["component"]


def test_scc_labels_are_smallest_ids():
    G = nx.DiGraph([(5, 3), (3, 5), (3, 7), (7, 9), (9, 7)])
    g = ng.Graph.from_edges(np.array([5, 3, 3, 7, 9]), np.array([3, 5, 7, 9, 7]), directed=True, relabel="on")
    labels = g.to_dict(ng.strongly_connected_components(g))
    for c in nx.strongly_connected_components(G):
        assert {labels[v] for v in c} == {min(c)}


def test_scc_of_undirected_graph_are_components():
    G = nx.gnp_random_graph(300, 0.005, seed=7)
    g = ng.Graph.from_networkx(G)
    same_partition(g, ng.strongly_connected_components(g), list(nx.connected_components(G)))


def test_scc_refuses_the_numa_engine():
    g = ng.Graph.from_networkx(random_digraph(5, 50, 0.05))
    with pytest.raises(ng.UsageError):
        ng.strongly_connected_components(g, engine="numa")


@pytest.mark.parametrize("name", ["wiki-Vote/wiki-Vote.txt.gz", "p2p-Gnutella05/p2p-Gnutella05.txt",
                                  "email-Enron/email-Enron.txt.gz", "soc-Slashdot0902/soc-Slashdot0902.txt.gz"])
def test_scc_on_real_graphs(shared_data, name):
    path = shared_data / name
    g = ng.read(path, directed=True, relabel="on")
    opener = gzip.open if name.endswith(".gz") else open
    G = nx.DiGraph()
    with opener(path, "rt") as f:
        G.add_edges_from((int(a), int(b)) for a, b in (line.split()[:2] for line in f if not line.startswith("#"))
                         if a != b)
    labels = ng.strongly_connected_components(g)
    comps = list(nx.strongly_connected_components(G))
    assert np.unique(labels).size == len(comps)
    same_partition(g, labels, comps)
    with ng.config(threads=1):  # Tarjan's search instead of forward-backward: the same labels
        assert np.array_equal(ng.strongly_connected_components(g), labels)


def test_networkx_backend_strong_and_weak_components():
    G = random_digraph(6, 300, 0.006)
    got = sorted(map(sorted, map(lambda c: [str(v) for v in c], nx.strongly_connected_components(G, backend="numagraph"))))
    want = sorted(map(sorted, map(lambda c: [str(v) for v in c], nx.strongly_connected_components(G))))
    assert got == want
    assert nx.number_strongly_connected_components(G, backend="numagraph") == nx.number_strongly_connected_components(G)
    got = sorted(map(sorted, map(lambda c: [str(v) for v in c], nx.weakly_connected_components(G, backend="numagraph"))))
    want = sorted(map(sorted, map(lambda c: [str(v) for v in c], nx.weakly_connected_components(G))))
    assert got == want
    assert nx.number_weakly_connected_components(G, backend="numagraph") == nx.number_weakly_connected_components(G)
    assert nx.is_strongly_connected(G, backend="numagraph") is False
    C = nx.cycle_graph(50, create_using=nx.DiGraph)
    assert nx.is_strongly_connected(C, backend="numagraph") is True
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_strongly_connected(nx.DiGraph(), backend="numagraph")
    assert list(nx.strongly_connected_components(nx.DiGraph(), backend="numagraph")) == []
    with pytest.raises(nx.NetworkXNotImplemented):
        list(nx.strongly_connected_components(nx.Graph([(0, 1)]), backend="numagraph"))
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.number_weakly_connected_components(nx.Graph([(0, 1)]), backend="numagraph")
