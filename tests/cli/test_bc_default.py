"""One betweenness default on every face: with no sources named, exact while
vertices x stored arcs <= 2^30, else 4 sampled sources with a note naming the
flag/argument that makes it exact. The CLI's bc and numagraph.betweenness take
the same decision and the same sources on the same graph; NetworkX is the
oracle for the exact scores."""
import json
import random
import warnings

import networkx as nx
import numpy as np
import pytest

from harness import run_cli

EXACT_WORK = 2 ** 30
NOTE = "numagraph: note: bc estimates the scores from 4 random sources"


def pairs(path, count):
    """`count` disjoint edges: 2*count vertices and 2*count stored arcs (undirected), so
    vertices x arcs = 4 count^2 sits on either side of 2^30 while exact BC stays cheap."""
    path.write_text("".join(f"{2 * i} {2 * i + 1}\n" for i in range(count)))
    return path


def python_graph(ng, path):
    """The edge-list file as numagraph.Graph, built from arrays as the CLI reads it with -s."""
    edges = np.loadtxt(path, dtype=np.int64, ndmin=2)
    return ng.Graph.from_edges(edges[:, 0], edges[:, 1], directed=False, drop_self_loops=True, dedupe=True,
                               relabel="off")


def bc_run(*args):
    proc = run_cli("bc", *args, "-n", "1", "--json")
    return json.loads(proc.stdout), proc.stderr


def test_small_graphs_are_exact(cli, tmp_path):
    G = nx.petersen_graph()
    G.remove_node(9)  # 9 vertices: the default used to sample 4 of them
    path = tmp_path / "g.el"
    path.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    rec, err = bc_run(path, "-s", "--normalized", "--output", tmp_path / "bc.out")
    assert rec["exact"] is True and rec["num_sources"] == 9 and NOTE not in err
    got = {int(a): float(b) for a, b in (line.split() for line in (tmp_path / "bc.out").read_text().splitlines())}
    want = nx.betweenness_centrality(G, normalized=True)
    assert got == pytest.approx(want, abs=1e-9)
    assert run_cli("bc", path, "-s", "-n", "1").stdout.splitlines()[0] == \
        "betweenness centrality of 9 vertices, exact (every vertex a source)"


def test_the_threshold_on_both_faces(cli, tmp_path):
    ng = pytest.importorskip("numagraph")
    assert ng._core.BC_EXACT_WORK == EXACT_WORK and ng._core.BC_DEFAULT_SAMPLES == 4
    at = pairs(tmp_path / "at.el", 2 ** 14)  # 32768 x 32768 = 2^30: exact
    above = pairs(tmp_path / "above.el", 2 ** 14 + 1)  # 32770^2 > 2^30: sampled
    rec, err = bc_run(at, "-s")
    assert rec["exact"] is True and rec["num_sources"] == 2 ** 15 and NOTE not in err
    rec, err = bc_run(above, "-s")
    assert rec["exact"] is False and rec["num_sources"] == 4
    said = [line for line in err.splitlines() if line.startswith(NOTE)]
    assert len(said) == 1 and "--exact runs every vertex" in said[0] and "1073872900 arcs" in said[0], err
    rec, err = bc_run(above, "-s", "--exact")
    assert rec["exact"] is True and rec["num_sources"] == 2 * (2 ** 14 + 1) and NOTE not in err
    rec, err = bc_run(above, "-s", "--sources", "4")  # asked for a sample: no note
    assert rec["exact"] is False and NOTE not in err
    for path, sampled in ((at, False), (above, True)):
        g = python_graph(ng, path)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ng.betweenness(g)
        said = [str(w.message) for w in caught if "numagraph.betweenness estimates" in str(w.message)]
        assert len(said) == (1 if sampled else 0), said
        if sampled:
            assert "exact=True runs every vertex" in said[0]


def test_the_faces_sample_the_same_sources(cli, tmp_path):
    """Above the threshold: the CLI's four sources and scores are Python's."""
    ng = pytest.importorskip("numagraph")
    G = nx.gnm_random_graph(2000, 300000, seed=3)  # 2000 x 600000 arcs = 1.2e9 > 2^30
    path = tmp_path / "g.el"
    path.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    rec, err = bc_run(path, "-s", "--output", tmp_path / "bc.out")
    assert rec["exact"] is False and len(rec["sources"]) == 4 and NOTE in err
    cli_scores = [float(line.split()[1]) for line in (tmp_path / "bc.out").read_text().splitlines()]
    g = python_graph(ng, path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        py = ng.betweenness(g)
    assert np.allclose(py, cli_scores, rtol=1e-9, atol=1e-12)

    class TheseSources(random.Random):  # NetworkX's k-sample, drawn as the CLI drew it
        def sample(self, population, k):
            return list(rec["sources"])

    want = nx.betweenness_centrality(G, k=4, seed=TheseSources(), normalized=False)
    assert np.allclose([want[v] for v in range(len(G))], cli_scores, rtol=1e-9, atol=1e-9)
