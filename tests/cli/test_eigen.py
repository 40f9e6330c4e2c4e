"""Eigenvector and Katz centrality through the CLI against NetworkX
(networkx.eigenvector_centrality, networkx.katz_centrality): the same values
to 1e-9 on random graphs (directed or not, weighted or not, isolated
vertices) and on real graphs from ../shared/data, flat and NUMA engine;
every run passes the verifier; a run that does not converge fails with exit
2 and the fix."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_mtx_undirected, read_snap, write_mtx
from harness import run_cli


def assert_close(values, want, tol=1e-9):
    assert set(values) == set(want)
    worst = max(abs(values[v] - want[v]) for v in want)
    assert worst <= tol, worst


@pytest.mark.parametrize("engine", ["flat", "numa"])
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_random_graphs_match_networkx(cli, tmp_path, engine, directed, weighted):
    G = random_graph(3, directed, n=200, p=0.04, weighted=weighted)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=weighted)
    weight = "weight" if weighted else None
    flags = ["--engine", engine] + ([] if weighted else ["--unweighted"])
    values, rec = kernel_output(cli, tmp_path, "eigenvector", path, "--max-iterations", "1000", *flags)
    assert_close(values, nx.eigenvector_centrality(G, max_iter=1000, weight=weight))
    assert rec["iterations"] > 1
    alpha = 0.0005 if weighted else 0.05
    values, rec = kernel_output(cli, tmp_path, "katz", path, "--alpha", str(alpha), *flags)
    assert_close(values, nx.katz_centrality(G, alpha=alpha, weight=weight))
    values, _ = kernel_output(cli, tmp_path, "katz_centrality", path, "--alpha", str(alpha), "--beta", "2",
                              "--no-normalize", *flags)
    assert_close(values, nx.katz_centrality(G, alpha=alpha, beta=2.0, normalized=False, weight=weight))


# email-Enron and facebook_combined: tests/python/test_eigen.py (the runtime split between the files).
@pytest.mark.parametrize("name,directed,alpha", [("wiki-Vote/wiki-Vote.txt.gz", True, 0.02),
                                                 ("p2p-Gnutella05/p2p-Gnutella05.txt", True, 0.1)])
def test_real_graphs_match_networkx(cli, shared_data, tmp_path, name, directed, alpha):
    G = read_snap(shared_data / name, directed)
    flags = ["--relabel", "on"] + ([] if directed else ["-s"])
    values, _ = output_of_one_run(tmp_path, "eigenvector", shared_data / name, *flags, cast=float)
    assert_close(values, nx.eigenvector_centrality(G))
    values, _ = output_of_one_run(tmp_path, "katz", shared_data / name, "--alpha", str(alpha), *flags, cast=float)
    assert_close(values, nx.katz_centrality(G, alpha=alpha))


def test_netscience_weighted(cli, shared_data, tmp_path):
    import scipy.io
    path = shared_data / "netscience/netscience.mtx"
    A = scipy.io.mmread(str(path)).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(A.shape[0]))
    G.add_weighted_edges_from((int(u), int(v), float(w)) for u, v, w in zip(A.row, A.col, A.data) if u != v)
    values, _ = output_of_one_run(tmp_path, "eigenvector", path, "--max-iterations", "1000", cast=float)
    # Weights are stored as float32: the vectors agree to about 1e-7.
    assert_close(values,
                 nx.eigenvector_centrality(G, max_iter=1000, weight="weight"), tol=1e-6)


def test_rome99_weighted_katz(cli, shared_data, tmp_path):
    path = shared_data / "rome99/rome99.gr"
    G = nx.DiGraph()
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                G.add_nodes_from(range(int(line.split()[2])))
            elif line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u) - 1, int(v) - 1, int(w)
                if u != v and (not G.has_edge(u, v) or G[u][v]["weight"] > w):  # numagraph keeps the lightest
                    G.add_edge(u, v, weight=w)
    values, _ = output_of_one_run(tmp_path, "katz", path, "--alpha", "1e-5", cast=float)
    assert_close(values, nx.katz_centrality(G, alpha=1e-5, weight="weight"))


def test_non_convergence_fails_with_the_fix(cli, tmp_path):
    path = write_mtx(tmp_path / "g.mtx", random_graph(5, False, n=200, p=0.05))
    proc = run_cli("katz", path, "--alpha", "0.5", check=False)
    assert proc.returncode == 2
    assert "raise --max-iterations or --tolerance" in proc.stderr
    proc = run_cli("eigenvector", path, "--max-iterations", "2", check=False)
    assert proc.returncode == 2
    assert "did not converge in 2 iterations" in proc.stderr
