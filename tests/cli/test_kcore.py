"""k-core decomposition through the CLI against networkx.core_number: random
graphs (sparse and dense, isolated vertices, several components) and real
graphs from ../shared/data, on the flat kernel and the NUMA engine, each run
passing its own verifier; and the refusals (directed graphs, self-loops)."""
import gzip

import networkx as nx
import pytest

from harness import read_vertex_values, run_cli, run_json


def write_mtx(path, G):
    """Writes G (nodes 0..n-1) as symmetric Matrix Market: n is declared, so isolated vertices survive."""
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern symmetric\n")
        f.write(f"{G.number_of_nodes()} {G.number_of_nodes()} {G.number_of_edges()}\n")
        for u, v in G.edges():
            f.write(f"{max(u, v) + 1} {min(u, v) + 1}\n")
    return path


def read_edges(path):
    """A SNAP edge list (maybe gzip'ed) as an undirected NetworkX graph without self-loops."""
    G = nx.Graph()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith(("#", "%")) or not line.strip():
                continue
            u, v = map(int, line.split()[:2])
            if u != v:
                G.add_edge(u, v)
    return G


def cores(tmp_path, graph_file, *flags):
    out = tmp_path / "core.out"
    rec = run_json("kcore", graph_file, "--verify", "-n", "1", "--output", out, *flags)[-1]
    assert rec["verified"] is True, rec
    return read_vertex_values(out, int), rec


ENGINES = [["--engine", "flat"], ["--engine", "numa", "--topology", "pack:2 numa:1 core:1", "--bind", "none"]]


@pytest.mark.parametrize("engine", ENGINES, ids=["flat", "numa"])
@pytest.mark.parametrize("seed,n,p", [(1, 200, 0.02), (2, 200, 0.1), (3, 60, 0.5)])
def test_random_graphs_match_networkx(cli, tmp_path, engine, seed, n, p):
    G = nx.gnp_random_graph(n, p, seed=seed)
    G.add_edges_from([(n, n + 1), (n + 1, n + 2)])  # a separate path
    got, rec = cores(tmp_path, write_mtx(tmp_path / "g.mtx", G), *engine)
    want = nx.core_number(G)
    assert got == want
    assert rec["max_core"] == max(want.values())
    assert rec["engine"] == engine[1]


@pytest.mark.parametrize("engine", ENGINES, ids=["flat", "numa"])
@pytest.mark.parametrize("rel", ["email-Enron/email-Enron.txt.gz", "facebook_combined/facebook_combined.txt.gz",
                                 "wiki-Vote/wiki-Vote.txt.gz"])
def test_real_graphs_match_networkx(cli, shared_data, tmp_path, engine, rel):
    got, rec = cores(tmp_path, shared_data / rel, "-s", *engine)
    want = nx.core_number(read_edges(shared_data / rel))
    # Files whose ids are not relabelled also list the unused ids (isolated, core 0).
    assert {v: c for v, c in got.items() if v in want or c != 0} == want
    assert rec["max_core"] == max(want.values())


def test_directed_graph_is_refused_with_the_fix(cli, shared_data):
    proc = run_cli("kcore", shared_data / "p2p-Gnutella05/p2p-Gnutella05.txt", check=False)
    assert proc.returncode == 2
    assert "-s (--symmetrize)" in proc.stderr and proc.stderr.count("numagraph: error:") == 1


def test_self_loops_are_refused_with_the_fix(cli, tmp_path):
    path = tmp_path / "loop.el"
    path.write_text("0 1\n1 2\n2 2\n")
    proc = run_cli("kcore", path, "-s", "--keep-self-loops", check=False)
    assert proc.returncode == 2
    assert "--keep-self-loops" in proc.stderr
    assert run_json("kcore", path, "-s", "-n", "1")[-1]["max_core"] == 1  # dropped by default


def test_accounting_keeps_random_accesses_local_on_eight_nodes(cli):
    """Every decrement goes to a vertex the node owns in the engine; the
    flat run's accesses spread over the eight synthetic nodes."""
    counts = {}
    for engine in ("flat", "numa"):
        rec = run_json("kcore", "--kron", "14", "-n", "1", "--account", "--engine", engine,
                       "--topology", "pack:8 numa:1 core:1", "--bind", "none")[-1]
        counts[engine] = rec["account"]
    assert counts["numa"]["remote_random"] == 0
    assert counts["flat"]["remote_random"] > counts["flat"]["local_random"]


def test_python_name_is_a_command_alias(cli):
    for name in ("core_number", "core-number"):
        assert run_json(name, "-g", "8", "-n", "1")[-1]["kernel"] == "kcore"
