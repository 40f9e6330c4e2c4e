"""numagraph.communities / louvain_communities / modularity and the NetworkX
backend's louvain_communities and modularity against NetworkX: the reported
modularity is networkx.community.modularity of the labels, at most 1 % below
networkx.louvain_communities' (random graphs with node objects and weights,
undirected real graphs and undirected views of directed ones from
../shared/data); Leiden's communities are connected; the answer does not
depend on the thread count; directed graphs are refused or declined."""
import warnings

import networkx as nx
import numpy as np
from networkx.algorithms.community.quality import NotAPartition
import pytest

import numagraph as ng
from numagraph.nx_backend import BackendDeclined


def parts_of(g, labels):
    ids = g.vertex_ids()
    ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    parts = [set() for _ in range(int(labels.max()) + 1)] if len(labels) else []
    for node, c in zip(ids, labels.tolist()):
        parts[c].add(node)
    return parts


def random_graph(seed, n, p, weighted):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})  # node objects, not dense ids
    G.add_node("lonely")
    if weighted:
        rng = np.random.default_rng(seed)
        for u, v in G.edges():
            G[u][v]["weight"] = float(rng.integers(1, 20))
    return G


def check(G, g, r, resolution=1.0, connected=False, weight="weight"):
    parts = parts_of(g, r.labels)
    assert len(parts) == r.communities and all(parts)
    q = nx.community.modularity(G, parts, weight=weight, resolution=resolution)
    assert r.modularity == pytest.approx(q, abs=1e-9)
    assert ng.modularity(g, r.labels, resolution=resolution) == pytest.approx(q, abs=1e-9)
    q_nx = nx.community.modularity(G, nx.community.louvain_communities(G, weight=weight, resolution=resolution, seed=1),
                                   weight=weight, resolution=resolution)
    assert q >= q_nx - 0.01 * abs(q_nx), (q, q_nx)
    if connected:
        assert all(nx.is_connected(G.subgraph(p)) for p in parts)


@pytest.mark.parametrize("variant", ["louvain", "leiden"])
@pytest.mark.parametrize("seed,n,p,weighted,resolution", [(1, 300, 0.02, False, 1.0), (2, 500, 0.01, True, 1.0),
                                                          (3, 400, 0.03, True, 0.5), (4, 300, 0.05, False, 1.7)])
def test_communities_match_networkx(variant, seed, n, p, weighted, resolution):
    G = random_graph(seed, n, p, weighted)
    g = ng.Graph.from_networkx(G, weight="weight" if weighted else None)
    r = ng.communities(g, resolution=resolution, variant=variant)
    check(G, g, r, resolution, connected=variant == "leiden")
    labels = ng.louvain_communities(g, resolution=resolution, variant=variant)
    assert labels.dtype == np.int64 and np.array_equal(labels, r.labels)


@pytest.mark.parametrize("name,directed", [("email-Enron/email-Enron.txt.gz", False),
                                           ("wiki-Vote/wiki-Vote.txt.gz", True),
                                           ("p2p-Gnutella05/p2p-Gnutella05.txt", True)])
def test_real_graphs(shared_data, name, directed):
    g = ng.read(str(shared_data / name), directed=False)  # the undirected view of directed ones
    src = np.repeat(np.arange(g.num_vertices), g.out_degree)
    G = nx.Graph()
    G.add_nodes_from(range(g.num_vertices))
    G.add_edges_from(zip(src.tolist(), np.asarray(g.indices).tolist()))
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    for variant in ("louvain", "leiden"):
        r = ng.communities(g, variant=variant)
        parts = [set(np.flatnonzero(r.labels == c).tolist()) for c in range(r.communities)]
        q = nx.community.modularity(G, parts)
        assert r.modularity == pytest.approx(q, abs=1e-9)
        if variant == "leiden":
            assert all(nx.is_connected(G.subgraph(p)) for p in parts)
        else:
            q_nx = nx.community.modularity(G, nx.community.louvain_communities(G, seed=1))
            assert q >= 0.99 * q_nx, (q, q_nx)


def test_same_answer_on_any_thread_count():
    g = ng.generate.kronecker(12)
    try:
        answers = []
        for threads in (1, 2, 3):
            ng.config(threads=threads)
            answers.append(ng.communities(g, variant="leiden", seed=5))
    finally:
        ng.config(threads=0)
    assert all(np.array_equal(a.labels, answers[0].labels) and a.modularity == answers[0].modularity
               for a in answers)
    other = ng.communities(g, variant="leiden", seed=6)
    assert other.modularity != answers[0].modularity or not np.array_equal(other.labels, answers[0].labels)


def test_refusals():
    D = nx.gnp_random_graph(50, 0.1, seed=1, directed=True)
    with pytest.raises(ng.UsageError, match="directed=False"):
        ng.communities(ng.Graph.from_networkx(D))
    g = ng.Graph.from_networkx(nx.path_graph(5))
    with pytest.raises(ng.UsageError, match="louvain or leiden"):
        ng.communities(g, variant="infomap")
    with pytest.raises(ng.UsageError):
        ng.modularity(g, [0, 1])


@pytest.mark.parametrize("weighted", [False, True])
def test_networkx_backend(weighted):
    G = random_graph(7, 400, 0.02, weighted)
    parts = nx.community.louvain_communities(G, seed=3, backend="numagraph")
    assert sorted(set().union(*parts), key=str) == sorted(G, key=str)
    assert sum(len(p) for p in parts) == len(G)
    again = nx.community.louvain_communities(G, seed=3, backend="numagraph")
    assert sorted(map(sorted, parts)) == sorted(map(sorted, again))  # one answer per int seed
    q = nx.community.modularity(G, parts)
    assert nx.community.modularity(G, parts, backend="numagraph") == pytest.approx(q, abs=1e-9)
    assert nx.community.modularity(G, parts, resolution=0.5, backend="numagraph") == \
        pytest.approx(nx.community.modularity(G, parts, resolution=0.5), abs=1e-9)
    q_nx = nx.community.modularity(G, nx.community.louvain_communities(G, seed=3))
    assert q >= q_nx - 0.01 * abs(q_nx)
    with pytest.raises(NotAPartition):
        nx.community.modularity(G, parts[1:], backend="numagraph")


def test_networkx_backend_declines_directed_graphs():
    D = nx.gnp_random_graph(60, 0.1, seed=2, directed=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(NotImplementedError):
            nx.community.louvain_communities(D, backend="numagraph")
    assert any(issubclass(w.category, BackendDeclined) and "directed" in str(w.message) for w in caught)
