"""Communities through the CLI against NetworkX: the modularity numagraph
reports is networkx.community.modularity of the partition it writes (weighted
and unweighted, several resolutions), and is at most 1 % below
networkx.louvain_communities' at the same resolution, on random graphs and on
real graphs from ../shared/data; Leiden's communities are connected; the answer
is the same on 1 and 2 threads; directed graphs and bad flags are refused with
the fix. Every run also passes the verifier (partition, modularity recomputed,
connectivity for Leiden)."""
import networkx as nx
import pytest
import scipy.io

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_snap, write_mtx
from harness import run_cli


def communities_of(labels):
    parts = {}
    for v, c in labels.items():
        parts.setdefault(c, set()).add(v)
    return list(parts.values())


def check(G, labels, rec, resolution, connected, weight="weight", tolerance=1e-8):
    parts = communities_of(labels)
    assert rec["communities"] == len(parts)
    assert sorted(labels.values())[-1] == len(parts) - 1  # dense ids
    q = nx.community.modularity(G, parts, weight=weight, resolution=resolution)
    assert rec["modularity"] == pytest.approx(q, abs=tolerance)  # the record holds 9 significant digits
    reference = nx.community.louvain_communities(G, weight=weight, resolution=resolution, seed=1)
    q_nx = nx.community.modularity(G, reference, weight=weight, resolution=resolution)
    assert q >= q_nx - 0.01 * abs(q_nx), (q, q_nx)
    if connected:
        for part in parts:
            assert nx.is_connected(G.subgraph(part)), sorted(part)[:10]


@pytest.mark.parametrize("variant", ["louvain", "leiden"])
@pytest.mark.parametrize("seed,p,weighted", [(1, 0.02, False), (2, 0.05, False), (3, 0.03, True), (4, 0.01, True)])
def test_communities_match_networkx(cli, tmp_path, variant, seed, p, weighted):
    G = random_graph(seed, False, n=400, p=p, weighted=weighted)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=weighted)
    labels, rec = kernel_output(cli, tmp_path, "communities", path, "--variant", variant, cast=int)
    assert rec["weights_used"] is weighted
    check(G, labels, rec, 1.0, variant == "leiden")


@pytest.mark.parametrize("resolution", [0.3, 2.0])
def test_resolution(cli, tmp_path, resolution):
    G = nx.connected_caveman_graph(12, 8)
    path = write_mtx(tmp_path / "g.mtx", G)
    labels, rec = kernel_output(cli, tmp_path, "louvain", path, "--resolution", resolution, cast=int)
    check(G, labels, rec, resolution, False)


def read_mtx_weighted(path):
    """A real symmetric Matrix Market file as a weighted undirected NetworkX graph without self-loops."""
    A = scipy.io.mmread(str(path)).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(A.shape[0]))
    G.add_weighted_edges_from((int(u), int(v), float(w)) for u, v, w in zip(A.row, A.col, A.data) if u != v)
    return G


def read_metis(path):
    """A METIS .graph file (1-based adjacency lines) as an undirected NetworkX graph on ids 0..n-1."""
    G = nx.Graph()
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    n = int(lines[0].split()[0])
    G.add_nodes_from(range(n))
    for v, line in enumerate(lines[1:n + 1]):
        G.add_edges_from((v, int(u) - 1) for u in line.split() if int(u) - 1 != v)
    return G


@pytest.mark.parametrize("name", ["facebook_combined/facebook_combined.txt.gz", "netscience/netscience.mtx",
                                  "PGPgiantcompo/PGPgiantcompo.graph"])
def test_communities_on_real_graphs(cli, shared_data, tmp_path, name):
    path = shared_data / name
    if name.endswith(".txt.gz"):
        G, flags = read_snap(path, False), ["-s", "--relabel", "on"]
    else:
        G, flags = (read_mtx_weighted(path) if name.endswith(".mtx") else read_metis(path)), []
    for variant in ("louvain", "leiden"):
        labels, rec = output_of_one_run(tmp_path, "communities", path, *flags, "--variant", variant, cast=int)
        assert rec["weights_used"] is name.endswith(".mtx")
        # netscience's real weights are float32 in numagraph
        check(G, labels, rec, 1.0, variant == "leiden", tolerance=1e-6 if name.endswith(".mtx") else 1e-8)


def test_same_answer_on_any_thread_count_and_run(cli, tmp_path):
    G = random_graph(5, False, n=3000, p=0.004)
    path = write_mtx(tmp_path / "g.mtx", G)
    for variant in ("louvain", "leiden"):
        runs = [kernel_output(cli, tmp_path, "communities", path, "--variant", variant, "-t", t, "--seed", 7, cast=int)
                for t in (1, 2, 2)]
        assert runs[0][0] == runs[1][0] == runs[2][0]
        assert runs[0][1]["modularity"] == runs[1][1]["modularity"] == runs[2][1]["modularity"]


def test_leiden_command_runs_leiden(cli, tmp_path):
    path = write_mtx(tmp_path / "g.mtx", random_graph(6, False, n=200, p=0.03))
    labels, rec = kernel_output(cli, tmp_path, "leiden", path, cast=int)
    assert rec["variant"] == "leiden"
    labels, rec = kernel_output(cli, tmp_path, "louvain_communities", path, cast=int)
    assert rec["variant"] == "louvain"


def test_refusals(cli, tmp_path):
    directed = write_mtx(tmp_path / "d.mtx", random_graph(8, True, n=100, p=0.03))
    proc = run_cli("communities", directed, check=False)
    assert proc.returncode == 2 and "--symmetrize" in proc.stderr, proc.stderr
    undirected = write_mtx(tmp_path / "u.mtx", random_graph(8, False, n=100, p=0.03))
    proc = run_cli("communities", undirected, "--variant", "infomap", check=False)
    assert proc.returncode == 2 and "louvain or leiden" in proc.stderr, proc.stderr
    proc = run_cli("communities", undirected, "--resolution", "-1", check=False)
    assert proc.returncode != 0
    proc = run_cli("communities", directed, "-s", "--verify", "-n", "1")
    assert "PASS" in proc.stdout
