"""PageRank through the CLI against NetworkX and SciPy: random graphs, real
graphs from ../shared/data (directed ones with dangling vertices and sparse
ids that get relabelled), NetworkX's default stopping rule with and without
cache blocking, both variants on a real graph, and fixed-iteration runs
against a SciPy power iteration; NetworkX's weighted and personalized model
(weights, --personalization, --dangling, --unweighted) on both engines and
its refusals. Every run also passes the kernel's verifier."""
import random

import networkx as nx
import numpy as np
import pytest

from cli.cli_util import GRAPHS, kernel_output, output_of_one_run, random_graph, read_snap, write_mtx
from harness import run_cli, run_json


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


# ---- Weights and personalization: NetworkX's model (kernels/pr/model.hpp) ----

ENGINES = [["--engine", "flat"]] + [["--engine", "numa", "--topology", f"pack:{k} numa:1 core:1", "--bind", "none"]
                                    for k in (1, 2, 4)]


def weighted_graph(seed, directed):
    """random_graph with weights 1..255, and on a few edges weight 0: a vertex
    whose out-edges all weigh 0 is dangling in NetworkX's weighted model."""
    G = random_graph(seed, directed, weighted=True)
    for u, v in list(G.edges())[:: 9]:
        G[u][v]["weight"] = 0
    return G


def write_distribution(path, values):
    with open(path, "w") as f:
        f.write("# vertex value\n")
        for v, x in values.items():
            f.write(f"{v} {x}\n")
    return path


def max_diff(scores, expected):
    assert scores.keys() == expected.keys()
    return max(abs(scores[v] - expected[v]) for v in expected)


@pytest.mark.parametrize("seed,directed", GRAPHS)
@pytest.mark.parametrize("engine", ENGINES, ids=["flat", "numa1", "numa2", "numa4"])
def test_weighted_and_personalized_pagerank_match_networkx(cli, tmp_path, seed, directed, engine):
    """NetworkX's defaults (weight="weight", tol 1e-6, 100 iterations) on
    weighted graphs with dangling vertices, on both engines and 1, 2 and 4
    synthetic nodes: weighted, personalized (the dangling mass follows the
    personalization), with a dangling distribution, and --unweighted
    (weight=None). Every run passes the verifier, which checks the same model."""
    G = weighted_graph(seed, directed)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    rng = random.Random(seed)
    p = {v: rng.choice([0, 0.5, 1, 3]) for v in G if rng.random() < 0.3}
    p[0] = 2
    q = {v: 1 + v % 4 for v in list(G)[::7]}
    pfile = write_distribution(tmp_path / "p.txt", p)
    qfile = write_distribution(tmp_path / "q.txt", q)
    runs = [([], {}), (["--personalization", pfile], {"personalization": p}),
            (["--personalization", pfile, "--dangling", qfile], {"personalization": p, "dangling": q}),
            (["--unweighted"], {"weight": None}),
            (["--unweighted", "--personalization", pfile], {"weight": None, "personalization": p})]
    for flags, kw in runs:
        scores, rec = kernel_output(cli, tmp_path, "pr", path, "--networkx", *engine, *flags)
        assert rec["weights_used"] is ("weight" not in kw) and rec["personalized"] is ("personalization" in kw)
        assert rec["variant"] == "jacobi" and rec["engine"] == engine[1]
        assert max_diff(scores, nx.pagerank(G, **kw)) < 1e-9, (flags, engine)


def test_weighted_pagerank_on_a_real_graph(cli, shared_data, tmp_path):
    """p2p-Gnutella05 (8,846 vertices, dangling ones among them) with random
    integer weights 0..100, NetworkX's defaults, flat and on two synthetic
    nodes, weighted and personalized; and gapbs's model (dropped dangling
    mass) still matches a SciPy power iteration of the weighted chain."""
    G = nx.convert_node_labels_to_integers(read_snap(shared_data / "p2p-Gnutella05/p2p-Gnutella05.txt",
                                                     directed=True), ordering="sorted")
    rng = random.Random(5)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.randint(0, 100)
    path = write_mtx(tmp_path / "w.mtx", G, weighted=True)
    p = {v: rng.randint(1, 9) for v in rng.sample(sorted(G), 300)}
    pfile = write_distribution(tmp_path / "p.txt", p)
    for engine in ENGINES[:1] + ENGINES[2:3]:
        for flags, kw in (([], {}), (["--personalization", pfile], {"personalization": p})):
            scores, rec = kernel_output(cli, tmp_path, "pr", path, "--networkx", *engine, *flags)
            assert rec["weights_used"] is True
            assert max_diff(scores, nx.pagerank(G, **kw)) < 1e-9, (engine, flags)
    nodes = sorted(G)
    A = nx.to_scipy_sparse_array(G, nodelist=nodes, weight="weight", format="csr").astype(float)
    out = np.asarray(A.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
    x = np.full(len(nodes), 1.0 / len(nodes))
    for _ in range(5):
        x = 0.15 / len(nodes) + 0.85 * (A.T @ (x * inv))
    scores, rec = kernel_output(cli, tmp_path, "pr", path, "--tolerance", "0", "-i", "5", "--engine", "flat")
    assert rec["variant"] == "jacobi" and not rec["networkx"]  # auto picks Jacobi for weights
    for i, v in enumerate(nodes):
        assert scores[v] == pytest.approx(x[i], rel=1e-5, abs=1e-12)


def test_weighted_summary_and_record(cli, tmp_path):
    G = weighted_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    first = run_cli("pr", path, "-n", "1", "--networkx").stdout.splitlines()[0]
    assert "weighted by the edge weights (--unweighted ignores them)" in first, first
    first = run_cli("pr", path, "-n", "1", "--unweighted").stdout.splitlines()[0]
    assert "edge weights ignored (--unweighted)" in first, first
    rec = run_json("pr", path, "-n", "1")[-1]
    assert rec["weighted"] is True and rec["weights_used"] is True and rec["personalized"] is False
    # Dangling in the weighted model: no out-edges, or out-edges of weight 0 only.
    out = {u: sum(d["weight"] for _, _, d in G.out_edges(u, data=True)) for u in G}
    assert rec["dangling_vertices"] == sum(1 for u in G if out[u] == 0)
    plain = write_mtx(tmp_path / "plain.mtx", G)
    rec = run_json("pr", plain, "-n", "1")[-1]
    assert rec["weights_used"] is False and "weighted by" not in run_cli("pr", plain, "-n", "1").stdout


def test_personalization_by_name(cli, tmp_path):
    """A graph read with names takes names in the personalization file (blanks included)."""
    graph = tmp_path / "names.tsv"
    graph.write_text("from\tto\tweight\nmary ann\tbob\t2\nbob\tcarl\t1\ncarl\tmary ann\t3\nbob\tmary ann\t1\n")
    pfile = tmp_path / "p.txt"
    pfile.write_text("mary ann 1\ncarl 3\n")
    out = tmp_path / "pr.tsv"
    rec = run_json("pr", graph, "--networkx", "--personalization", pfile, "-n", "1", "--verify", "--output", out)[-1]
    assert rec["verified"] is True and rec["personalized"] is True
    G = nx.DiGraph()
    G.add_weighted_edges_from([("mary ann", "bob", 2), ("bob", "carl", 1), ("carl", "mary ann", 3),
                               ("bob", "mary ann", 1)])
    expected = nx.pagerank(G, personalization={"mary ann": 1, "carl": 3})
    lines = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert max(abs(float(x) - expected[name]) for name, x in lines) < 1e-9


@pytest.mark.parametrize("lines,flags,why", [
    ("7 1\n999 2\n", [], "vertex 999 is out of range"),
    ("3 -1\n", [], "must be a finite number >= 0, found '-1'"),
    ("3 0\n4 0\n", [], "no vertex has a positive value"),
    ("3 1\n3 2\n", [], "vertex 3 is listed twice"),
    ("3\n", [], "expected a vertex id and a value"),
    ("3 1\n", ["--variant", "gauss-seidel"], "use the jacobi (or auto) variant on a weighted graph"),
])
def test_personalization_errors(cli, tmp_path, lines, flags, why):
    G = weighted_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    pfile = tmp_path / "p.txt"
    pfile.write_text(lines)
    proc = run_cli("pr", path, "--personalization", pfile, *flags, check=False)
    assert proc.returncode != 0 and why in proc.stderr, proc.stderr


def test_refusals_of_the_weighted_model(cli, tmp_path):
    neg = tmp_path / "neg.mtx"
    neg.write_text("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1.5\n2 3 -2\n3 1 1\n")
    proc = run_cli("pr", neg, check=False)
    assert proc.returncode != 0 and "PageRank needs edge weights >= 0: the edge 1 -> 2 has weight -2" in proc.stderr
    assert "--unweighted" in proc.stderr
    rec = run_json("pr", neg, "--unweighted", "-n", "1", "--verify")[-1]  # weights ignored: runs
    assert rec["verified"] is True and rec["weights_used"] is False
    q = tmp_path / "q.txt"
    q.write_text("0 1\n")
    proc = run_cli("pr", neg, "--unweighted", "--dangling", q, check=False)
    assert proc.returncode != 0 and "dangling distribution needs NetworkX's model" in proc.stderr
