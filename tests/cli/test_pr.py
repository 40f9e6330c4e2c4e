"""PageRank through the CLI against NetworkX and SciPy: random graphs, real
graphs from ../shared/data (directed ones with dangling vertices and sparse
ids that get relabelled), NetworkX's default stopping rule with and without
cache blocking, both variants on a real graph, and fixed-iteration runs
against a SciPy power iteration. Every run also passes the kernel's
verifier."""
import networkx as nx
import numpy as np
import pytest

from cli.cli_util import GRAPHS, kernel_output, output_of_one_run, random_graph, read_snap, write_mtx


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


DIRECTED = ["wiki-Vote/wiki-Vote.txt.gz", "p2p-Gnutella05/p2p-Gnutella05.txt"]


@pytest.mark.parametrize("name", DIRECTED)
@pytest.mark.parametrize("block", ["off", "4K"])
def test_pagerank_networkx_defaults_on_directed_real_graphs(cli, shared_data, tmp_path, name, block):
    """Dangling vertices and NetworkX's own defaults (tol 1e-6 on L1 < n tol,
    100 iterations): the same stopping rule gives the same iterate, with and
    without cache blocking (4K blocks cut these graphs into 14 and 18 segments)."""
    G = read_snap(shared_data / name, directed=True)
    scores, rec = output_of_one_run(tmp_path, "pr", shared_data / name, "--networkx", "--relabel", "on",
                            "--engine", "flat", "--cache-block", block)
    assert (rec["cache_segments"] > 1) == (block != "off")
    expected = nx.pagerank(G, weight=None)
    assert set(scores) == set(G.nodes)  # sparse ids come back as the file's ids
    for v, s in expected.items():
        assert scores[v] == pytest.approx(s, abs=1e-9)


def gapbs_model_iterates(G, iterations):
    """A SciPy power iteration in gapbs's model (damping 0.85, the dangling mass dropped) from
    scores 1/n: the sorted node ids and the scores after `iterations` steps."""
    nodes = sorted(G.nodes)
    A = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="csr").astype(float)
    outdeg = np.asarray(A.sum(axis=1)).ravel()
    inv = np.divide(1.0, outdeg, out=np.zeros_like(outdeg), where=outdeg > 0)
    n = len(nodes)
    x = np.full(n, 1.0 / n)
    for _ in range(iterations):
        x = 0.15 / n + 0.85 * (A.T @ (x * inv))
    return nodes, x


def test_pagerank_fixed_iterations_match_scipy(cli, shared_data, tmp_path):
    """Polymer-style fixed count (--tolerance 0), gapbs's dangling rule (mass
    dropped), on a directed graph whose self-loops numagraph removes."""
    name = "soc-Slashdot0902/soc-Slashdot0902.txt.gz"
    nodes, x = gapbs_model_iterates(read_snap(shared_data / name, directed=True), 5)
    for variant, block in (("jacobi", "off"), ("jacobi", "16K"), ("gauss-seidel", "auto"), ("gauss-seidel", "16K")):
        scores, rec = output_of_one_run(tmp_path, "pr", shared_data / name, "--tolerance", "0", "-i", "5",
                                "--variant", variant, "--engine", "flat", "--cache-block", block)
        assert rec["iterations"] == 5
        assert rec["cache_segments"] == (21 if block == "16K" else 1)  # 82168 vertices, 4096 per block
        if variant == "jacobi":  # Gauss-Seidel is another iteration: only the fixed point is shared
            for i, v in enumerate(nodes):
                assert scores[v] == pytest.approx(x[i], rel=1e-5, abs=1e-12)


def test_pagerank_undirected_real_graph_networkx_mode(cli, shared_data, tmp_path):
    name = "email-Enron/email-Enron.txt.gz"
    G = read_snap(shared_data / name, directed=False)
    scores, _ = output_of_one_run(tmp_path, "pr", shared_data / name, "-s", "--networkx", "--tolerance", "1e-10", "-i", "500")
    expected = nx.pagerank(G, weight=None, tol=1e-10, max_iter=500)
    for v, s in expected.items():
        assert scores[v] == pytest.approx(s, abs=1e-10)


def test_gauss_seidel_on_many_threads_reaches_the_fixed_point(cli, shared_data, tmp_path):
    """soc-Slashdot0902 (82,168 vertices) on 16 threads: Gauss-Seidel's chunks shrink to 1,344
    vertices so that every thread has some (kernels/pr/pull_gauss_seidel.hpp), and the threads
    read contributions that others are writing. The sweep still lands on the fixed point of
    gapbs's model (dangling mass dropped), computed here by a SciPy power iteration."""
    name = "soc-Slashdot0902/soc-Slashdot0902.txt.gz"
    nodes, x = gapbs_model_iterates(read_snap(shared_data / name, directed=True), 300)
    scores, rec = output_of_one_run(tmp_path, "pr", shared_data / name, "--variant", "gauss-seidel",
                                    "--engine", "flat", "-t", "16", "--tolerance", "1e-11", "-i", "1000")
    assert rec["threads"] == 16 and rec["iterations"] > 20
    for i, v in enumerate(nodes):
        assert scores[v] == pytest.approx(x[i], rel=1e-6, abs=1e-12)
