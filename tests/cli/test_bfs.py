"""BFS through the CLI against NetworkX: depths on random graphs and on real
graphs from ../shared/data, relabelled sparse ids, every direction schedule
and summary granularity, and Graph500 TEPS bookkeeping. Every run also passes
the kernel's verifier."""
import gzip

import networkx as nx
import pytest

from cli.cli_util import GRAPHS, kernel_output, output_of, random_graph, read_mtx_undirected, write_mtx
from harness import run_json


def read_gr(path):
    """A DIMACS .gr file as a DiGraph, the lightest of parallel arcs kept."""
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


def read_snap(path):
    """A gzip'ed SNAP edge list as a DiGraph of its own ids, without self-loops."""
    G = nx.DiGraph()
    with gzip.open(path, "rt") as f:
        for line in f:
            if not line.startswith("#"):
                u, v = map(int, line.split())
                if u != v:
                    G.add_edge(u, v)
    return G


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_bfs_depths_match_networkx(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed)
    path = write_mtx(tmp_path / "g.mtx", G)
    src = max(G.nodes, key=G.out_degree if directed else G.degree)
    depth, _ = kernel_output(cli, tmp_path, "bfs", path, "--source", src, cast=int)
    expected = nx.single_source_shortest_path_length(G, src)
    for v in G.nodes:
        assert depth[v] == expected.get(v, -1)


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
