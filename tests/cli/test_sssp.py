"""SSSP through the CLI against NetworkX's Dijkstra: random weighted graphs,
real weighted graphs from ../shared/data, and unweighted graphs as hop
counts. Every run also passes the kernel's verifier."""
import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from cli.cli_util import GRAPHS, kernel_output, output_of, random_graph, write_mtx


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_sssp_distances_match_networkx(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed, weighted=True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    dist, _ = kernel_output(cli, tmp_path, "sssp", path, "--source", src)
    expected = nx.single_source_dijkstra_path_length(G, src)
    for v in G.nodes:
        assert dist[v] == expected.get(v, math.inf)


@pytest.mark.parametrize("name,fmt", [("rome99/rome99.gr", "gr"), ("netscience/netscience.mtx", "mtx")])
def test_sssp_on_real_weighted_graphs(cli, shared_data, tmp_path, name, fmt):
    path = shared_data / name
    if fmt == "gr":
        G = nx.DiGraph()
        with open(path) as f:
            for line in f:
                if line.startswith("a "):
                    _, u, v, w = line.split()
                    u, v, w = int(u) - 1, int(v) - 1, int(w)
                    if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                        G.add_edge(u, v, weight=w)
    else:
        A = sp.coo_matrix(__import__("scipy.io", fromlist=["mmread"]).mmread(str(path)))
        G = nx.Graph()
        G.add_nodes_from(range(A.shape[0]))
        for u, v, w in zip(A.row, A.col, A.data):
            if u != v and (not G.has_edge(u, v) or G[u][v]["weight"] > w):
                G.add_edge(int(u), int(v), weight=float(np.float32(w)))
    src = max(G.nodes, key=G.degree)
    dist, _ = kernel_output(cli, tmp_path, "sssp", path, "--source", src)
    expected = nx.single_source_dijkstra_path_length(G, src)
    for v, d in expected.items():
        assert dist[v] == pytest.approx(d, rel=1e-9)


@pytest.mark.parametrize("directed", [False, True])
def test_sssp_on_unweighted_graph_counts_hops(cli, tmp_path, directed):
    G = random_graph(7, directed)
    path = write_mtx(tmp_path / "g.mtx", G)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    dist, _ = output_of(tmp_path, "sssp", path, "--source", src, "-n", "1")
    expected = nx.single_source_shortest_path_length(G, src)
    for v in G.nodes:
        assert dist[v] == expected.get(v, math.inf)
