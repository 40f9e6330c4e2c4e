"""The NUMA engine from Python: same answers as the flat kernels and NetworkX
under synthetic topologies with 1, 2 and 4 nodes."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng


@pytest.fixture(scope="module")
def graphs():
    G = nx.gnp_random_graph(300, 0.02, seed=11)
    D = nx.gnp_random_graph(200, 0.02, seed=12, directed=True)
    return (G, ng.Graph.from_networkx(G)), (D, ng.Graph.from_networkx(D))


@pytest.mark.parametrize("topology", ["pack:2 numa:1 core:1 pu:1", "pack:4 numa:1 core:2 pu:1"])
@pytest.mark.parametrize("delta", [1.1, 8.0, 200.0])
def test_numa_sssp_weighted_matches_networkx(topology, delta):
    # Several nodes: each relaxes into its own part and skips the stale entries
    # their owners marked; on integer weights the search runs on 32-bit distances.
    G = nx.gnp_random_graph(400, 0.02, seed=5, directed=True)
    rng = np.random.default_rng(5)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(1, 100))
    g = ng.Graph.from_networkx(G, weight="weight")
    want = nx.single_source_dijkstra_path_length(G, 0)
    with ng.config(topology=topology, bind="none"):
        dist = ng.sssp(g, 0, delta=delta, engine="numa")
    assert {v: d for v, d in enumerate(dist.tolist()) if np.isfinite(d)} == want


@pytest.mark.parametrize("topology", ["pack:1 numa:1 core:2 pu:1", "pack:2 numa:1 core:1 pu:1",
                                      "pack:4 numa:1 core:1 pu:1"])
def test_numa_engine_matches(graphs, topology):
    with ng.config(topology=topology, bind="none"):
        for G, g in graphs:
            np.testing.assert_array_equal(ng.bfs(g, 0, engine="numa"), ng.bfs(g, 0, engine="flat"))
            depth, parents = ng.bfs(g, 0, parents=True, engine="numa")
            assert parents.dtype == ng.bfs(g, 0, depth=False, parents=True, engine="flat").dtype
            np.testing.assert_array_equal(parents < 0, depth < 0)
            assert (parents[depth < 0] == -1).all()  # the engine's degree marks never leak out
            reached = np.flatnonzero(depth > 0)
            np.testing.assert_array_equal(depth[parents[reached]] + 1, depth[reached])
            assert ng.bfs(g, 0, depth=False, parents=True, engine="numa").dtype == parents.dtype
            np.testing.assert_allclose(ng.sssp(g, 0, engine="numa"), ng.sssp(g, 0, engine="flat"))
            want = nx.pagerank(G)
            got = ng.pagerank(g, networkx=True, tolerance=1e-6, max_iterations=100, engine="numa")
            np.testing.assert_allclose(got, [want[v] for v in G], atol=1e-6)
            np.testing.assert_allclose(ng.betweenness(g, 16, engine="numa"), ng.betweenness(g, 16, engine="flat"),
                                       rtol=1e-9, atol=1e-9)
            np.testing.assert_allclose(ng.spmv(g, 3, engine="numa"), ng.spmv(g, 3, engine="flat"), rtol=1e-9)
            cf = ng.connected_components(g, engine="flat")
            want = list(nx.weakly_connected_components(G) if G.is_directed() else nx.connected_components(G))
            for variant in ("afforest", "lp"):  # the engine's two CC variants: the same partition
                cn = ng.connected_components(g, variant=variant, engine="numa")
                assert np.unique(cn).size == np.unique(cf).size == len(want)
                assert len(set(zip(cn.tolist(), cf.tolist()))) == np.unique(cn).size
                for c in want:  # NetworkX's components, each labelled by its smallest id
                    assert set(cn[list(c)].tolist()) == {min(c)}
        G, g = graphs[0]
        np.testing.assert_allclose(ng.belief_propagation(g, engine="numa"), ng.belief_propagation(g, engine="flat"),
                                   rtol=1e-9)


def test_auto_engine_follows_topology(graphs):
    _, g = graphs[0]
    with ng.config(topology="pack:2 numa:1 core:1 pu:1", bind="none"):
        assert ng.config.current()["numa_nodes"] == 2
        np.testing.assert_array_equal(ng.bfs(g, 0), ng.bfs(g, 0, engine="flat"))
    with pytest.raises(ng.UsageError, match="engine"):
        ng.bfs(g, 0, engine="gpu")


def test_components_variant_picks_engine(graphs):
    """sv exists only flat and lp only on the engine: engine='auto' follows an
    explicit variant, and a contradicting engine is refused with a hint."""
    _, g = graphs[0]
    with ng.config(topology="pack:2 numa:1 core:1 pu:1", bind="none"):
        assert np.unique(ng.connected_components(g, variant="sv")).size == np.unique(ng.connected_components(g)).size
        with pytest.raises(ValueError, match="engine='flat'"):
            ng.connected_components(g, variant="sv", engine="numa")
    with pytest.raises(ValueError, match="engine='numa'"):
        ng.connected_components(g, variant="lp", engine="flat")
    lp = ng.connected_components(g, variant="lp")  # auto -> the engine, even on one node
    assert np.unique(lp).size == np.unique(ng.connected_components(g)).size


@pytest.mark.parametrize("topology", ["pack:1 numa:1 core:2 pu:1", "pack:2 numa:1 core:1 pu:1",
                                      "pack:4 numa:1 core:1 pu:1"])
def test_numa_weighted_personalized_pagerank_matches_networkx(topology):
    """NetworkX's weighted and personalized PageRank on the engine: a random
    weighted digraph with dangling vertices (weights 0..20), 1, 2 and 4 nodes,
    networkx.pagerank's answer to 1e-9 and the flat kernel's to 1e-12."""
    G = nx.gnp_random_graph(300, 0.02, seed=13, directed=True)
    G.add_nodes_from(range(300, 305))
    rng = np.random.default_rng(13)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(0, 21))
    g = ng.Graph.from_networkx(G, weight="weight")
    p = {v: float(1 + v % 4) for v in range(0, 305, 6)}
    with ng.config(topology=topology, bind="none"):
        for kw in ({}, {"personalization": p}, {"weight": None, "personalization": p}):
            want = nx.pagerank(G, **kw)
            got = ng.pagerank(g, networkx=True, tolerance=1e-6, max_iterations=100, engine="numa", **kw)
            flat = ng.pagerank(g, networkx=True, tolerance=1e-6, max_iterations=100, engine="flat", **kw)
            assert np.abs(got - [want[v] for v in G]).max() < 1e-9, kw
            assert np.abs(got - flat).max() < 1e-12, kw
