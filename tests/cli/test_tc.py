"""Triangle counting through the CLI against NetworkX: totals and per-vertex
counts on random graphs and on real graphs from ../shared/data. Every run
also passes the kernel's verifier."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_snap, write_mtx


@pytest.mark.parametrize("seed", [1, 2])
def test_triangles_match_networkx(cli, tmp_path, seed):
    G = random_graph(seed, False, n=80, p=0.15)
    path = write_mtx(tmp_path / "g.mtx", G)
    per_vertex, rec = kernel_output(cli, tmp_path, "tc", path, cast=int)
    expected = nx.triangles(G)
    assert rec["triangles"] == sum(expected.values()) // 3
    for v in G.nodes:
        assert per_vertex[v] == expected[v]


def test_triangles_on_real_graph(cli, shared_data, tmp_path):
    path = shared_data / "facebook_combined/facebook_combined.txt.gz"
    G = nx.read_edgelist(path, nodetype=int)
    _, rec = kernel_output(cli, tmp_path, "tc", path, "-s", cast=int)
    assert rec["triangles"] == sum(nx.triangles(G).values()) // 3


@pytest.mark.parametrize("name,symmetrize", [("email-Enron/email-Enron.txt.gz", False),
                                             ("wiki-Vote/wiki-Vote.txt.gz", True)])
def test_triangles_per_vertex_on_real_graphs(cli, shared_data, tmp_path, name, symmetrize):
    G = read_snap(shared_data / name, directed=False)  # Graph() merges u->v and v->u, as -s does
    per_vertex, rec = output_of_one_run(tmp_path, "tc", shared_data / name, "-s", "--relabel", "on", cast=int)
    expected = nx.triangles(G)
    assert rec["triangles"] == sum(expected.values()) // 3
    assert per_vertex == expected
