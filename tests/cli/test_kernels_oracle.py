"""Every kernel against an independent oracle (NetworkX, SciPy) on random
graphs - directed and undirected, with isolated vertices and several
components - and on real graphs from ../shared/data. Each run also passes
the kernel's own verifier (--verify)."""
import math
import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from conftest import read_vertex_values, run_cli, run_json


def write_mtx(path, G, weighted=False):
    """Writes G as Matrix Market (declares n, so isolated vertices survive)."""
    directed = G.is_directed()
    edges = [(u, v, d.get("weight", 1)) for u, v, d in G.edges(data=True)]
    if not directed:
        edges = [(max(u, v), min(u, v), w) for u, v, w in edges]
    field = "integer" if weighted else "pattern"
    with open(path, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate {field} {'general' if directed else 'symmetric'}\n")
        f.write(f"{G.number_of_nodes()} {G.number_of_nodes()} {len(edges)}\n")
        for u, v, w in edges:
            f.write(f"{u + 1} {v + 1}" + (f" {w}" if weighted else "") + "\n")
    return path


def random_graph(seed, directed, n=120, p=0.03, weighted=False):
    rng = random.Random(seed)
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    G.add_nodes_from(range(n + 5))  # isolated vertices at the end
    if weighted:
        for u, v in G.edges():
            G[u][v]["weight"] = rng.randint(1, 255)
    return G


GRAPHS = [(seed, directed) for seed in (1, 2) for directed in (False, True)]


def kernel_output(cli, tmp_path, kernel, graph_file, *flags, cast=float):
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph_file, "--verify", "-n", "1", "--output", out, *flags)
    assert all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_bfs_depths_match_networkx(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed)
    path = write_mtx(tmp_path / "g.mtx", G)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    depth, _ = kernel_output(cli, tmp_path, "bfs", path, "--source", src, cast=int)
    expected = nx.single_source_shortest_path_length(G, src)
    for v in G.nodes:
        assert depth[v] == expected.get(v, -1)


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


@pytest.mark.parametrize("seed,directed", GRAPHS)
@pytest.mark.parametrize("normalized", [False, True])
def test_exact_betweenness_matches_networkx(cli, tmp_path, seed, directed, normalized):
    G = random_graph(seed, directed, n=60, p=0.06)
    path = write_mtx(tmp_path / "g.mtx", G)
    flags = ["--exact"] + (["--normalized"] if normalized else [])
    scores, _ = kernel_output(cli, tmp_path, "bc", path, *flags)
    expected = nx.betweenness_centrality(G, normalized=normalized)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_diameter_bound(cli, tmp_path, seed):
    G = random_graph(seed, False, n=150, p=0.02)
    path = write_mtx(tmp_path / "g.mtx", G)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["verified"] is True
    comp = max(nx.connected_components(G), key=len)
    assert rec["diameter_lower_bound"] <= nx.diameter(G.subgraph(comp))


@pytest.mark.parametrize("make", [lambda: nx.path_graph(57), lambda: nx.random_labeled_tree(200, seed=5),
                                  lambda: nx.balanced_tree(3, 5)])
def test_diameter_exact_on_trees_and_paths(cli, tmp_path, make):
    T = nx.convert_node_labels_to_integers(make())
    path = write_mtx(tmp_path / "t.mtx", T)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["diameter_lower_bound"] == nx.diameter(T)


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_pagerank_matches_networkx(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed)
    path = write_mtx(tmp_path / "g.mtx", G)
    scores, _ = kernel_output(cli, tmp_path, "pr", path, "--networkx", "--tolerance", "1e-10", "-i", "1000")
    expected = nx.pagerank(G, weight=None, tol=1e-10, max_iter=1000)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], abs=1e-8)


@pytest.mark.parametrize("variant", ["gauss-seidel", "jacobi"])
def test_pagerank_variants_agree_on_real_graph(cli, shared_data, tmp_path, variant):
    path = shared_data / "facebook_combined/facebook_combined.txt.gz"
    scores, rec = kernel_output(cli, tmp_path, "pr", path, "-s", "--variant", variant, "--tolerance", "1e-9", "-i", "500")
    G = nx.read_edgelist(path, nodetype=int)
    expected = nx.pagerank(G, weight=None, tol=1e-12, max_iter=1000)
    # No dangling vertices here, so gapbs's rule and NetworkX's agree.
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], abs=1e-7)


@pytest.mark.parametrize("seed,directed", GRAPHS)
@pytest.mark.parametrize("variant", ["afforest", "sv"])
def test_components_match_networkx(cli, tmp_path, seed, directed, variant):
    G = random_graph(seed, directed, p=0.012)
    path = write_mtx(tmp_path / "g.mtx", G)
    labels, rec = kernel_output(cli, tmp_path, "cc", path, "--variant", variant, cast=int)
    comps = list(nx.weakly_connected_components(G) if directed else nx.connected_components(G))
    assert rec["num_components"] == len(comps)
    for comp in comps:
        assert len({labels[v] for v in comp}) == 1


def test_components_on_real_graphs(cli, shared_data, tmp_path):
    path = shared_data / "p2p-Gnutella05/p2p-Gnutella05.txt"
    G = nx.read_edgelist(path, nodetype=int, create_using=nx.DiGraph)
    _, rec = kernel_output(cli, tmp_path, "cc", path, cast=int)
    assert rec["num_components"] == nx.number_weakly_connected_components(G)


@pytest.mark.parametrize("seed", [1, 2])
def test_triangles_match_networkx(cli, tmp_path, seed):
    G = random_graph(seed, False, n=80, p=0.15)
    path = write_mtx(tmp_path / "g.mtx", G)
    per_vertex, rec = kernel_output(cli, tmp_path, "tc", path, cast=int)
    expected = nx.triangles(G)
    assert rec["triangles"] == sum(expected.values()) // 3
    for v in G.nodes:
        assert per_vertex[v] == expected[v]


def test_triangles_on_real_graph(cli, shared_data, tmp_path):
    path = shared_data / "facebook_combined/facebook_combined.txt.gz"
    G = nx.read_edgelist(path, nodetype=int)
    _, rec = kernel_output(cli, tmp_path, "tc", path, "-s", cast=int)
    assert rec["triangles"] == sum(nx.triangles(G).values()) // 3


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_spmv_matches_scipy(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed, weighted=True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    y, _ = kernel_output(cli, tmp_path, "spmv", path, "-i", "5")
    A = nx.to_scipy_sparse_array(G, nodelist=sorted(G.nodes), weight="weight", format="csr")
    x = np.full(A.shape[0], 1.0 / A.shape[0])
    for it in range(5):
        out = A @ x
        if it < 4:
            x = out / np.abs(out).sum()
    for v in G.nodes:
        assert y[v] == pytest.approx(out[v], rel=1e-9, abs=1e-15)


def test_belief_propagation_on_a_tree_is_exact(cli, tmp_path):
    """On a tree BP's marginals are exact: compare with enumeration in Python."""
    T = nx.random_labeled_tree(10, seed=3)
    path = write_mtx(tmp_path / "t.mtx", T)
    belief, _ = kernel_output(cli, tmp_path, "bp", path, "-i", "20")
    coupling, seed = 0.7, 27491095

    def prior(v):  # the model of kernels/bp/model.hpp, re-derived in Python
        mask = (1 << 64) - 1
        x = seed ^ ((v * 0x9E3779B97F4A7C15) & mask)
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        x ^= x >> 31
        return 0.1 + 0.8 * (x >> 11) * 2.0 ** -53

    n = T.number_of_nodes()
    z, p1 = 0.0, [0.0] * n
    for state in range(1 << n):
        bits = [(state >> v) & 1 for v in range(n)]
        w = 1.0
        for v in range(n):
            w *= prior(v) if bits[v] else 1 - prior(v)
        for u, v in T.edges():
            w *= coupling if bits[u] == bits[v] else 1 - coupling
        z += w
        for v in range(n):
            p1[v] += w * bits[v]
    for v in range(n):
        assert belief[v] == pytest.approx(p1[v] / z, abs=1e-9)


def test_bad_requests_give_clear_errors(cli, tmp_path):
    G = random_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G)
    proc = run_cli("bfs", path, "--source", "99999", check=False)
    assert proc.returncode == 2 and "out of range" in proc.stderr
    proc = run_cli("tc", path, check=False)
    assert proc.returncode == 2 and "-s" in proc.stderr
    neg = tmp_path / "neg.wel"
    neg.write_text("0 1 -3\n1 2 4\n")
    proc = run_cli("sssp", neg, "--source", "0", check=False)
    assert proc.returncode == 2 and "negative weight" in proc.stderr
