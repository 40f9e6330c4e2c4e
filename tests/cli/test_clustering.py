"""Clustering coefficients through the CLI against NetworkX: every vertex's
coefficient (--output, 17 digits) to 1e-12, average clustering and
transitivity, on random graphs (isolated vertices, several components) and
on undirected real graphs from ../shared/data; directed graphs are refused
with the NetworkX function that computes them. Every run passes the
brute-force verifier."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_mtx_undirected, read_snap, write_mtx
from harness import run_cli


def read_metis(path):
    """A METIS graph file as NetworkX reads its edges (vertices 1..n become 0..n-1)."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    n = int(lines[0].split()[0])
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for u, line in enumerate(lines[1:n + 1]):
        G.add_edges_from((u, int(w) - 1) for w in line.split() if int(w) - 1 != u)
    return G


def check(G, values, rec):
    expected = nx.clustering(G)
    assert len(values) == len(expected)
    for v, c in expected.items():
        assert values[v] == pytest.approx(c, abs=1e-12), v
    # networkx.average_clustering is the mean of these same coefficients, and
    # transitivity 3 triangles / connected triples: both from one more pass.
    assert rec["average_clustering"] == pytest.approx(sum(expected.values()) / len(expected), abs=1e-8)
    triangles = sum(nx.triangles(G).values())  # each triangle at its 3 corners
    triples = sum(d * (d - 1) // 2 for _, d in G.degree())
    assert rec["triangles"] == triangles // 3
    assert rec["transitivity"] == pytest.approx(triangles / triples if triples else 0, abs=1e-8)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("p", [0.01, 0.05, 0.2])
def test_clustering_matches_networkx(cli, tmp_path, seed, p):
    G = random_graph(seed, False, n=200, p=p)
    path = write_mtx(tmp_path / "g.mtx", G)
    values, rec = kernel_output(cli, tmp_path, "clustering", path)
    check(G, values, rec)
    assert sum(values.values()) / len(values) == pytest.approx(nx.average_clustering(G), abs=1e-12)


@pytest.mark.parametrize("name", ["facebook_combined/facebook_combined.txt.gz", "email-Enron/email-Enron.txt.gz"])
def test_clustering_on_snap_graphs(cli, shared_data, tmp_path, name):
    G = read_snap(shared_data / name, False)
    values, rec = output_of_one_run(tmp_path, "clustering", shared_data / name, "-s", "--relabel", "on")
    check(G, values, rec)


def test_clustering_on_netscience(cli, shared_data, tmp_path):
    path = shared_data / "netscience/netscience.mtx"
    G = read_mtx_undirected(path)
    values, rec = kernel_output(cli, tmp_path, "clustering", path)
    check(G, values, rec)


def test_clustering_on_pgp(cli, shared_data, tmp_path):
    path = shared_data / "PGPgiantcompo/PGPgiantcompo.graph"
    G = read_metis(path)
    values, rec = kernel_output(cli, tmp_path, "clustering", path)
    check(G, values, rec)


def test_clustering_refuses_directed_graphs(cli, tmp_path):
    path = write_mtx(tmp_path / "g.mtx", random_graph(8, True, n=100, p=0.02))
    proc = run_cli("clustering", path, check=False)
    assert proc.returncode == 2 and "networkx.clustering" in proc.stderr, proc.stderr
    proc = run_cli("transitivity", path, "-s", "--verify", check=False)
    assert proc.returncode == 0, proc.stderr
