"""Traversal kernels (bfs, sssp, bc, diameter) against NetworkX beyond the
basic random-graph checks of test_kernels_oracle.py: real graphs from
../shared/data, relabelled sparse ids, every BFS direction schedule and
summary granularity, Graph500 TEPS bookkeeping, sampled BC scaling, and the
unweighted-SSSP convention. Every run also passes the kernel's verifier."""
import gzip
import math
import random

import networkx as nx
import pytest
import scipy.io

from conftest import read_vertex_values, run_cli, run_json
from test_kernels_oracle import random_graph, write_mtx


def output_of(tmp_path, kernel, graph, *flags, cast=float):
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph, "--verify", "--output", out, *flags)
    assert recs and all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


def read_gr(path):
    G = nx.DiGraph()
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                G.add_nodes_from(range(int(line.split()[2])))
            elif line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u) - 1, int(v) - 1, int(w)
                if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                    G.add_edge(u, v, weight=w)
    return G


def read_mtx_undirected(path):
    A = scipy.io.mmread(str(path)).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(A.shape[0]))
    G.add_edges_from((int(u), int(v)) for u, v in zip(A.row, A.col) if u != v)
    return G


def read_snap(path):
    G = nx.DiGraph()
    with gzip.open(path, "rt") as f:
        for line in f:
            if not line.startswith("#"):
                u, v = map(int, line.split())
                if u != v:
                    G.add_edge(u, v)
    return G


@pytest.mark.parametrize("name", ["rome99/rome99.gr", "netscience/netscience.mtx"])
def test_bfs_depths_on_real_graphs(cli, shared_data, tmp_path, name):
    path = shared_data / name
    G = read_gr(path) if name.endswith(".gr") else read_mtx_undirected(path)
    src = max(G.nodes, key=G.degree)
    depth, rec = output_of(tmp_path, "bfs", path, "--source", src, "-n", "1", cast=int)
    expected = nx.single_source_shortest_path_length(G, src)
    assert len(depth) == G.number_of_nodes()
    for v in G.nodes:
        assert depth[v] == expected.get(v, -1), v


def test_bfs_on_relabelled_sparse_ids_takes_original_source(cli, shared_data, tmp_path):
    """wiki-Vote uses 7,115 of the ids 0..8,297: relabelled, --source and
    --output speak the original ids."""
    path = shared_data / "wiki-Vote" / "wiki-Vote.txt.gz"
    G = read_snap(path)
    src = max(G.nodes, key=G.out_degree)
    depth, _ = output_of(tmp_path, "bfs", path, "--relabel", "on", "--source", src, "-n", "1", cast=int)
    expected = nx.single_source_shortest_path_length(G, src)
    assert set(depth) == set(G.nodes)
    for v in G.nodes:
        assert depth[v] == expected.get(v, -1), v


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_every_schedule_and_summary_granularity(cli, tmp_path, directed):
    G = random_graph(5, directed, n=400, p=0.01)
    path = write_mtx(tmp_path / "g.mtx", G)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    expected = nx.single_source_shortest_path_length(G, src)
    # (alpha, beta): default; always bottom-up; top-down until nothing is
    # left unexplored (then Beamer's rule turns bottom-up whatever alpha is).
    for alpha, beta in [(15, 18), (1e12, 1e12), (1e-12, 18)]:
        for bits in (64, 256, 4096):
            depth, rec = output_of(tmp_path, "bfs", path, "--source", src, "-n", "1", "--alpha", alpha,
                                   "--beta", beta, "--summary-bits", bits, cast=int)
            assert (rec["top_down_steps"] == 0) == (alpha > 1e6)
            for v in G.nodes:
                assert depth[v] == expected.get(v, -1)


def test_bfs_teps_are_graph500s(cli, tmp_path):
    """One trial per root; TEPS = edges of the traversed component (each
    undirected edge once) / time; the harmonic mean over roots."""
    G = random_graph(6, False, n=300, p=0.004)  # several components
    path = write_mtx(tmp_path / "g.mtx", G)
    rec = run_json("bfs", path, "--sources", "6", "--seed", "3", "--verify")[0]
    assert len(rec["roots"]) == len(rec["trials"]) == len(rec["teps"]) == 6
    for root, t, teps in zip(rec["roots"], rec["trials"], rec["teps"]):
        comp = nx.node_connected_component(G, root)
        assert teps * t == pytest.approx(G.subgraph(comp).number_of_edges(), rel=1e-6)
        assert G.degree(root) > 0
    hm = len(rec["teps"]) / sum(1 / x for x in rec["teps"])
    assert rec["teps_harmonic_mean"] == pytest.approx(hm, rel=1e-6)  # JSON keeps ~9 digits
    again = run_json("bfs", path, "--sources", "6", "--seed", "3")[0]
    assert again["roots"] == rec["roots"]  # the same roots from the same seed


@pytest.mark.parametrize("directed", [False, True])
def test_sssp_on_unweighted_graph_counts_hops(cli, tmp_path, directed):
    G = random_graph(7, directed)
    path = write_mtx(tmp_path / "g.mtx", G)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    dist, _ = output_of(tmp_path, "sssp", path, "--source", src, "-n", "1")
    expected = nx.single_source_shortest_path_length(G, src)
    for v in G.nodes:
        assert dist[v] == expected.get(v, math.inf)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [False, True])
def test_sampled_betweenness_matches_networkx_k(cli, tmp_path, directed, normalized):
    """NetworkX draws k sources with random.Random(seed).sample(list(G), k);
    the same sources through --roots must give NetworkX's scaled scores."""
    G = random_graph(8, directed, n=80, p=0.05)
    path = write_mtx(tmp_path / "g.mtx", G)
    k, seed = 7, 12
    sources = random.Random(seed).sample(list(G.nodes()), k)
    roots = tmp_path / "roots.txt"
    roots.write_text("".join(f"{s}\n" for s in sources))
    flags = ["--roots", roots, "-n", "1"] + (["--normalized"] if normalized else [])
    scores, rec = output_of(tmp_path, "bc", path, *flags)
    assert rec["sources"] == sources
    expected = nx.betweenness_centrality(G, k=k, seed=seed, normalized=normalized)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12)


def test_exact_betweenness_on_real_graph(cli, shared_data, tmp_path):
    path = shared_data / "netscience" / "netscience.mtx"
    G = read_mtx_undirected(path)
    scores, _ = output_of(tmp_path, "bc", path, "--exact", "-n", "1")
    expected = nx.betweenness_centrality(G, normalized=False)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-9)


def test_diameter_on_real_graph_is_a_bound_of_the_start_component(cli, shared_data, tmp_path):
    path = shared_data / "netscience" / "netscience.mtx"
    G = read_mtx_undirected(path)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["verified"] is True
    a, b = rec["endpoints"]
    comp = G.subgraph(nx.node_connected_component(G, a))
    assert b in comp
    assert nx.shortest_path_length(G, a, b) == rec["diameter_lower_bound"] <= nx.diameter(comp)


def test_bad_traversal_requests(cli, tmp_path):
    G = random_graph(1, False)
    path = write_mtx(tmp_path / "g.mtx", G)
    proc = run_cli("bfs", path, "--summary-bits", "100", check=False)
    assert proc.returncode == 2 and "summary-bits" in proc.stderr
    for delta, why in (("-1", "must be positive (got -1)"), ("0", "must be positive (got 0)"),
                       ("abc", "expects a number (got 'abc')"), ("1e-320", "is out of the range of a double")):
        proc = run_cli("sssp", path, "--delta", delta, check=False)
        assert proc.returncode == 2 and f"--delta: {why}" in proc.stderr
        assert len(proc.stderr) < 200  # one short line, not CLI11's 309-digit range
    proc = run_cli("bfs", path, "--sources", "0", check=False)
    assert proc.returncode == 2 and "--sources: must be positive (got 0)" in proc.stderr
    roots = tmp_path / "roots.txt"
    roots.write_text("1\nxyz\n")
    proc = run_cli("bc", path, "--roots", roots, check=False)
    assert proc.returncode != 0 and "xyz" in proc.stderr
