"""Closeness and harmonic centrality through the CLI against NetworkX: every
vertex's score (--output, 17 digits) to 1e-12 relative, exact, on random
graphs (isolated vertices, several components; directed, weighted) and on
real graphs from ../shared/data; the sampled estimate against its own
definition (the verifier) and against the exact scores on average. Every
run passes the verifier."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_mtx_undirected, read_snap, write_mtx
from harness import run_cli, run_json


def check(expected, values):
    assert len(values) == len(expected)
    for v, c in expected.items():
        assert values[v] == pytest.approx(c, rel=1e-12, abs=1e-300), v


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("p", [0.01, 0.05])
def test_exact_matches_networkx(cli, tmp_path, seed, directed, p):
    G = random_graph(seed, directed, n=150, p=p)
    path = write_mtx(tmp_path / "g.mtx", G)
    values, rec = kernel_output(cli, tmp_path, "closeness", path)
    assert rec["exact"] is True and rec["sources"] == G.number_of_nodes()
    check(nx.closeness_centrality(G), values)
    values, _ = kernel_output(cli, tmp_path, "closeness", path, "--no-wf-improved")
    check(nx.closeness_centrality(G, wf_improved=False), values)
    values, _ = kernel_output(cli, tmp_path, "harmonic", path)
    check(nx.harmonic_centrality(G), values)


@pytest.mark.parametrize("directed", [False, True])
def test_weighted_matches_networkx(cli, tmp_path, directed):
    G = random_graph(5, directed, n=150, p=0.04, weighted=True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    values, rec = kernel_output(cli, tmp_path, "closeness", path)
    assert rec["weighted"] is True
    check(nx.closeness_centrality(G, distance="weight"), values)
    values, _ = kernel_output(cli, tmp_path, "harmonic_centrality", path)
    check(nx.harmonic_centrality(G, distance="weight"), values)
    values, rec = kernel_output(cli, tmp_path, "closeness", path, "--unweighted")
    assert rec["weighted"] is False
    check(nx.closeness_centrality(G), values)


def test_many_batches(cli, tmp_path):
    """More than 256 sources: several batches of the 256-wide BFS."""
    G = random_graph(7, True, n=700, p=0.004)
    path = write_mtx(tmp_path / "g.mtx", G)
    values, rec = kernel_output(cli, tmp_path, "closeness", path)
    assert rec["batches"] == 3
    check(nx.closeness_centrality(G), values)
    values, _ = kernel_output(cli, tmp_path, "harmonic", path)
    check(nx.harmonic_centrality(G), values)


def test_sampled_estimate(cli, tmp_path):
    G = nx.connected_watts_strogatz_graph(600, 6, 0.1, seed=3)
    path = write_mtx(tmp_path / "g.mtx", G)
    values, rec = kernel_output(cli, tmp_path, "closeness", path, "--samples", "200", "--seed", "9")
    assert rec["exact"] is False and rec["sources"] == 200
    exact = nx.closeness_centrality(G)
    # Connected: closeness is 1 / average distance; the estimate's relative error is small on average.
    error = sum(abs(values[v] - c) / c for v, c in exact.items()) / len(exact)
    assert error < 0.05, error
    again, _ = kernel_output(cli, tmp_path, "closeness", path, "--samples", "200", "--seed", "9")
    assert again == values
    other, _ = kernel_output(cli, tmp_path, "closeness", path, "--samples", "200", "--seed", "10")
    assert other != values
    full, rec = kernel_output(cli, tmp_path, "harmonic", path, "--samples", "10000")
    assert rec["exact"] is True
    check(nx.harmonic_centrality(G), full)


def check_sample(G, values, name, distance=None, count=40):
    """NetworkX's per-vertex closeness (u=) and harmonic (nbunch=) on `count`
    vertices spread over the ids: the whole graph takes NetworkX minutes."""
    nodes = sorted(G.nodes())
    some = nodes[:: max(1, len(nodes) // count)]
    closeness, harmonic = values
    wanted = nx.harmonic_centrality(G, nbunch=some, distance=distance)
    for v in some:
        assert closeness[v] == pytest.approx(nx.closeness_centrality(G, u=v, distance=distance), rel=1e-12), (name, v)
        assert harmonic[v] == pytest.approx(wanted[v], rel=1e-12), (name, v)


def both(tmp_path, graph, *flags):
    closeness, _ = output_of_one_run(tmp_path, "closeness", graph, *flags)
    harmonic, _ = output_of_one_run(tmp_path, "harmonic", graph, *flags)
    return closeness, harmonic


@pytest.mark.parametrize("name,directed", [("facebook_combined/facebook_combined.txt.gz", False),
                                           ("email-Enron/email-Enron.txt.gz", False),
                                           ("wiki-Vote/wiki-Vote.txt.gz", True),
                                           ("p2p-Gnutella05/p2p-Gnutella05.txt", True)])
def test_snap_graphs(cli, shared_data, tmp_path, name, directed):
    G = read_snap(shared_data / name, directed)
    flags = ("--relabel", "on") + (() if directed else ("-s",))
    check_sample(G, both(tmp_path, shared_data / name, *flags), name)


def test_netscience(cli, shared_data, tmp_path):
    """Its weights are reals (float32 here, doubles in NetworkX): compared on hops."""
    path = shared_data / "netscience/netscience.mtx"
    check_sample(read_mtx_undirected(path), both(tmp_path, path, "--unweighted"), "netscience")


def read_dimacs(path):
    """A DIMACS .gr graph (vertices 1..n become 0..n-1), the lightest of parallel arcs."""
    G = nx.DiGraph()
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                G.add_nodes_from(range(int(line.split()[2])))
            elif line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u) - 1, int(v) - 1, int(w)
                if u != v and (not G.has_edge(u, v) or G[u][v]["weight"] > w):
                    G.add_edge(u, v, weight=w)
    return G


def test_rome99_weighted(cli, shared_data, tmp_path):
    path = shared_data / "rome99/rome99.gr"
    values = both(tmp_path, path)
    check_sample(read_dimacs(path), values, "rome99", distance="weight")


def test_refusals(cli, tmp_path):
    path = write_mtx(tmp_path / "g.mtx", random_graph(1, False, n=50, p=0.1))
    proc = run_cli("closeness", path, "--engine", "numa", check=False)
    assert proc.returncode == 2 and "--engine flat" in proc.stderr, proc.stderr
    proc = run_cli("closeness", path, "--samples", "0", check=False)
    assert proc.returncode != 0 and "positive" in proc.stderr, proc.stderr
    proc = run_cli("harmonic", path, "--no-wf-improved", check=False)
    assert proc.returncode != 0
