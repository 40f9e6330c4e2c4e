"""Strongly connected components through the CLI against NetworkX: the same
partition, each component labelled by its smallest member, on random digraphs
(from all-trivial SCCs to one giant) and on directed real graphs from
../shared/data; undirected graphs give the connected components; the NUMA
engine is refused with the fix. Every run also passes the Tarjan verifier."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, random_graph, read_snap, write_mtx
from harness import run_cli


def check_partition(labels, rec, comps):
    assert rec["num_components"] == len(comps)
    assert rec["largest_component"] == max(len(c) for c in comps)
    for c in comps:
        assert {labels[v] for v in c} == {min(c)}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("p", [0.005, 0.012, 0.03])
def test_scc_match_networkx(cli, tmp_path, seed, p):
    G = random_graph(seed, True, n=300, p=p)
    path = write_mtx(tmp_path / "g.mtx", G)
    labels, rec = kernel_output(cli, tmp_path, "scc", path, cast=int)
    check_partition(labels, rec, list(nx.strongly_connected_components(G)))


def test_scc_of_undirected_graph_are_components(cli, tmp_path):
    G = random_graph(4, False, n=300, p=0.006)
    path = write_mtx(tmp_path / "g.mtx", G)
    labels, rec = kernel_output(cli, tmp_path, "scc", path, cast=int)
    check_partition(labels, rec, list(nx.connected_components(G)))


@pytest.mark.parametrize("name,flags", [("wiki-Vote/wiki-Vote.txt.gz", []),
                                        ("p2p-Gnutella05/p2p-Gnutella05.txt", []),
                                        ("email-Enron/email-Enron.txt.gz", []),
                                        ("soc-Slashdot0902/soc-Slashdot0902.txt.gz", [])])
def test_scc_on_real_graphs(cli, shared_data, tmp_path, name, flags):
    G = read_snap(shared_data / name, True)
    # --relabel on: ids absent from the file are not vertices in NetworkX.
    labels, rec = output_of_one_run(tmp_path, "scc", shared_data / name, "--relabel", "on", *flags, cast=int)
    check_partition(labels, rec, list(nx.strongly_connected_components(G)))


def test_scc_refuses_the_engine(cli, tmp_path):
    path = write_mtx(tmp_path / "g.mtx", random_graph(8, True, n=100, p=0.02))
    for flag in (["--engine", "numa"], ["--account"]):
        proc = run_cli("scc", path, *flag, check=False)
        assert proc.returncode == 2, proc.stderr
    proc = run_cli("strongly-connected-components", path, "--verify", check=False)
    assert proc.returncode == 0, proc.stderr
