"""Shortest paths from Python against NetworkX: numagraph.shortest_path,
shortest_path_length, predecessors and sssp(predecessors=True) on random
graphs with unreachable parts (node objects, directed and undirected) and on
real graphs; the NetworkX backend's path functions (valid paths of
NetworkX's length, exact distances and predecessor() dicts, NetworkX's
errors, declined calls); the same predecessors on every engine and topology."""
import gzip
import math
import random
import warnings

import networkx as nx
import numpy as np
import pytest

import numagraph as ng
from numagraph.nx_backend import BackendDeclined


def random_graph(seed, directed, n=150, p=0.025, weights=(1, 20)):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = random.Random(seed)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(*weights)
    G.add_nodes_from(["lonely", ("a", "tuple")])  # unreachable, and not integers
    G.add_edge("x", 0, weight=3)  # reaches 0; unreachable from 0 when directed
    return G


def weight_of(G, path, weight="weight"):
    for u, v in zip(path, path[1:]):
        assert G.has_edge(u, v), (u, v)
    return sum(G[u][v][weight] if weight else 1 for u, v in zip(path, path[1:]))


def smallest_tight(G, index, dist, v, weight="weight"):
    ins = G.predecessors(v) if G.is_directed() else G.neighbors(v)
    return min((u for u in ins if u in dist and dist[u] < dist[v]
                and dist[u] + (G[u][v][weight] if weight else 1) == dist[v]), key=index.get)


GRAPHS = [(seed, directed) for seed in (1, 2) for directed in (False, True)]


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_shortest_path_matches_networkx(seed, directed):
    G = random_graph(seed, directed)
    g = ng.Graph.from_networkx(G, weight="weight")
    dist = nx.single_source_dijkstra_path_length(G, 0)
    hops = nx.single_source_shortest_path_length(G, 0)
    for t in G.nodes:
        if t not in dist:
            with pytest.raises(ng.NoPathError, match="is not reachable"):
                ng.shortest_path(g, 0, t)
            with pytest.raises(LookupError):
                ng.shortest_path_length(g, 0, t)
            continue
        path = ng.shortest_path(g, 0, t)
        assert path[0] == 0 and path[-1] == t and weight_of(G, path) == dist[t]
        assert ng.shortest_path_length(g, 0, t) == dist[t]
        assert len(ng.shortest_path(g, 0, t, weighted=False)) - 1 == hops[t]
    every = ng.shortest_path(g, 0)
    assert every.keys() == dist.keys() and list(every)[0] == 0
    assert all(p[-1] == t and weight_of(G, p) == dist[t] for t, p in every.items())
    assert ng.shortest_path_length(g, 0) == dist and ng.shortest_path_length(g, 0, weighted=False) == hops


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_predecessor_arrays_are_the_smallest_tight_in_neighbour(seed, directed):
    G = random_graph(seed, directed)
    g = ng.Graph.from_networkx(G, weight="weight")
    index = {v: i for i, v in enumerate(g.nodes)}
    d, pred = ng.sssp(g, 0, predecessors=True)
    assert pred.dtype == np.int64
    assert np.array_equal(d, ng.sssp(g, 0))
    dist = nx.single_source_dijkstra_path_length(G, 0)
    hops = nx.single_source_shortest_path_length(G, 0)
    every = nx.predecessor(G, 0)
    unweighted = ng.predecessors(g, 0, weighted=False)
    for v, i in index.items():
        if v not in dist:
            assert pred[i] == -1 and unweighted[i] == -1
            continue
        expected = 0 if v == 0 else index[smallest_tight(G, index, dist, v)]
        assert pred[i] == expected, v
        assert unweighted[i] == (0 if v == 0 else min(index[u] for u in every[v]))
        assert hops[v] == (0 if v == 0 else hops[g.nodes[unweighted[i]]] + 1)
    assert np.array_equal(ng.predecessors(g, 0), pred)
    frame = ng.sssp(g, 0, predecessors=True, as_frame=True)
    assert frame.loc["x", "predecessor"] == (None if directed else 0)


def test_relabelled_graph_answers_in_labels():
    g = ng.Graph.from_edges(np.array([10, 20, 10]), np.array([20, 30, 40]), weights=np.array([1.0, 2.0, 9.0]),
                            directed=True)
    assert g.relabelled
    assert ng.shortest_path(g, 10, 30) == [10, 20, 30]
    _, pred = ng.sssp(g, 10, predecessors=True)
    assert pred.tolist() == [10, 10, 20, 10]
    with pytest.raises(ng.NoPathError, match="along the arcs' direction"):
        ng.shortest_path(g, 30, 10)


def test_same_predecessors_on_every_engine_and_topology():
    G = nx.gnp_random_graph(400, 0.02, seed=3)
    rng = random.Random(3)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(0, 3)  # zero weights and ties
    g = ng.Graph.from_networkx(G, weight="weight")
    base = ng.sssp(g, 0, predecessors=True, engine="flat")[1]
    hops = ng.predecessors(g, 0, weighted=False, engine="flat")
    for topology in ("pack:1 numa:1 core:2 pu:1", "pack:2 numa:1 core:1 pu:1"):
        with ng.config(topology=topology, bind="none"):
            assert np.array_equal(ng.sssp(g, 0, predecessors=True, engine="numa")[1], base)
            assert np.array_equal(ng.predecessors(g, 0, weighted=False, engine="numa"), hops)


# --- The NetworkX backend ---

def backend(f, *args, **kw):
    return f(*args, backend="numagraph", **kw)


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_backend_path_functions_match_networkx(seed, directed):
    G = random_graph(seed, directed)
    dist, paths = nx.single_source_dijkstra(G, 0)
    d2, p2 = backend(nx.single_source_dijkstra, G, 0)
    assert d2 == dist and p2.keys() == paths.keys()
    assert all(weight_of(G, p) == dist[t] for t, p in p2.items())
    assert backend(nx.single_source_dijkstra_path_length, G, 0, cutoff=25) == \
        nx.single_source_dijkstra_path_length(G, 0, cutoff=25)
    assert backend(nx.single_source_dijkstra_path, G, 0, cutoff=25).keys() == \
        nx.single_source_dijkstra_path(G, 0, cutoff=25).keys()
    hop_paths = backend(nx.single_source_shortest_path, G, 0, cutoff=3)
    assert hop_paths.keys() == nx.single_source_shortest_path(G, 0, cutoff=3).keys()
    assert all(len(p) - 1 == nx.shortest_path_length(G, 0, t) for t, p in hop_paths.items())
    assert backend(nx.shortest_path_length, G, 0) == nx.shortest_path_length(G, 0)
    assert backend(nx.shortest_path_length, G, 0, weight="weight") == nx.shortest_path_length(G, 0, weight="weight")
    for t in [v for v in dist if v != 0][:8]:
        for method in ("dijkstra", "bellman-ford"):
            p = backend(nx.shortest_path, G, 0, t, weight="weight", method=method)
            assert p[0] == 0 and weight_of(G, p) == dist[t]
        assert weight_of(G, backend(nx.dijkstra_path, G, 0, t)) == dist[t]
        assert backend(nx.dijkstra_path_length, G, 0, t) == dist[t]
        length, p = backend(nx.bidirectional_dijkstra, G, 0, t)
        assert length == dist[t] and weight_of(G, p) == dist[t]
        assert backend(nx.single_source_dijkstra, G, 0, t)[0] == dist[t]
        hops = nx.shortest_path_length(G, 0, t)
        assert len(backend(nx.bidirectional_shortest_path, G, 0, t)) - 1 == hops
        assert len(backend(nx.shortest_path, G, 0, t)) - 1 == hops
        assert backend(nx.shortest_path_length, G, 0, t) == hops
    pred = backend(nx.predecessor, G, 0)
    order = {v: i for i, v in enumerate(G.nodes)}
    expected = nx.predecessor(G, 0)
    assert {v: sorted(p, key=order.get) for v, p in expected.items()} == pred
    for cutoff in (1, 2, 0):
        assert backend(nx.predecessor, G, 0, cutoff=cutoff).keys() == nx.predecessor(G, 0, cutoff=cutoff).keys()
    t = max(expected, key=lambda v: len(expected[v]))
    assert sorted(backend(nx.predecessor, G, 0, t), key=order.get) == sorted(expected[t], key=order.get)
    assert backend(nx.predecessor, G, 0, "lonely", return_seen=True) == ([], -1)
    seen = backend(nx.predecessor, G, 0, return_seen=True)[1]
    assert seen == nx.predecessor(G, 0, return_seen=True)[1]


def test_backend_raises_networkx_errors():
    G = random_graph(1, True)
    with pytest.raises(nx.NetworkXNoPath):
        backend(nx.dijkstra_path, G, 0, "lonely")
    with pytest.raises(nx.NetworkXNoPath):
        backend(nx.shortest_path, G, 0, "x")
    with pytest.raises(nx.NetworkXNoPath):
        backend(nx.single_source_dijkstra, G, 0, "lonely")
    with pytest.raises(nx.NodeNotFound):
        backend(nx.shortest_path, G, "nowhere", 0)
    with pytest.raises(nx.NodeNotFound):
        backend(nx.bidirectional_shortest_path, G, 0, "nowhere")
    with pytest.raises(nx.NodeNotFound):
        backend(nx.predecessor, G, "nowhere")
    with pytest.raises(nx.NetworkXNoPath):
        backend(nx.dijkstra_path_length, G, 0, "nowhere")


def test_backend_declines_what_it_cannot_serve():
    G = random_graph(2, False)
    G[0][next(iter(G[0]))]["weight"] = -1
    for call in (lambda: nx.shortest_path(G, 0, 5, weight="weight", method="bellman-ford", backend="numagraph"),
                 lambda: nx.dijkstra_path(nx.path_graph(3), 0, 2, weight=lambda u, v, d: 1, backend="numagraph"),
                 lambda: nx.shortest_path(G, backend="numagraph")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(NotImplementedError):
                call()
        assert any(issubclass(w.category, BackendDeclined) for w in caught)


def read_gr(path):
    G = nx.DiGraph()
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                G.add_nodes_from(range(int(line.split()[2])))
            if line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u) - 1, int(v) - 1, int(w)
                if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                    G.add_edge(u, v, weight=w)
    return G


def test_real_graphs(shared_data):
    G = read_gr(shared_data / "rome99" / "rome99.gr")
    g = ng.read(shared_data / "rome99" / "rome99.gr")
    dist = nx.single_source_dijkstra_path_length(G, 0)
    assert ng.shortest_path_length(g, 0) == dist
    for t in (1, 1000, 2500, max(dist, key=dist.get)):
        assert weight_of(G, ng.shortest_path(g, 0, t)) == dist[t]
        assert weight_of(G, backend(nx.dijkstra_path, G, 0, t)) == dist[t]
    with gzip.open(shared_data / "email-Enron" / "email-Enron.txt.gz", "rt") as f:
        E = nx.read_edgelist(f, nodetype=int)
    E.remove_edges_from(list(nx.selfloop_edges(E)))
    expected = nx.predecessor(E, 0)
    order = {v: i for i, v in enumerate(E.nodes)}
    assert backend(nx.predecessor, E, 0) == {v: sorted(p, key=order.get) for v, p in expected.items()}
    with gzip.open(shared_data / "wiki-Vote" / "wiki-Vote.txt.gz", "rt") as f:
        W = nx.read_edgelist(f, nodetype=int, create_using=nx.DiGraph)
    s = max(W.nodes, key=W.out_degree)
    hops = nx.single_source_shortest_path_length(W, s)
    paths = backend(nx.single_source_shortest_path, W, s)
    assert paths.keys() == hops.keys() and all(weight_of(W, p, None) == hops[t] for t, p in paths.items())
    assert math.isclose(len(paths), len(hops))
