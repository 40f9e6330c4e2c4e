"""Connected components through the CLI against NetworkX: the same partition
on random graphs (many small components too) and on real graphs from
../shared/data, for every variant, and the variant deciding the engine.
Every run also passes the kernel's verifier."""
import networkx as nx
import pytest

from cli.cli_util import GRAPHS, kernel_output, output_of_one_run, random_graph, read_snap, write_mtx
from harness import run_cli, run_json


@pytest.mark.parametrize("seed,directed", GRAPHS)
@pytest.mark.parametrize("variant", ["afforest", "sv"])
def test_components_match_networkx(cli, tmp_path, seed, directed, variant):
    G = random_graph(seed, directed, p=0.012)
    path = write_mtx(tmp_path / "g.mtx", G)
    labels, rec = kernel_output(cli, tmp_path, "cc", path, "--variant", variant, cast=int)
    comps = list(nx.weakly_connected_components(G) if directed else nx.connected_components(G))
    assert rec["num_components"] == len(comps)
    for comp in comps:
        assert len({labels[v] for v in comp}) == 1


def test_components_on_real_graphs(cli, shared_data, tmp_path):
    path = shared_data / "p2p-Gnutella05/p2p-Gnutella05.txt"
    G = nx.read_edgelist(path, nodetype=int, create_using=nx.DiGraph)
    _, rec = kernel_output(cli, tmp_path, "cc", path, cast=int)
    assert rec["num_components"] == nx.number_weakly_connected_components(G)


@pytest.mark.parametrize("name,directed", [("wiki-Vote/wiki-Vote.txt.gz", True),
                                           ("soc-Slashdot0902/soc-Slashdot0902.txt.gz", True),
                                           ("email-Enron/email-Enron.txt.gz", False),
                                           ("facebook_combined/facebook_combined.txt.gz", False)])
@pytest.mark.parametrize("variant", ["afforest", "sv"])
def test_components_partition_on_real_graphs(cli, shared_data, tmp_path, name, directed, variant):
    G = read_snap(shared_data / name, directed)
    flags = ["--relabel", "on"] + ([] if directed else ["-s"])  # wiki-Vote's unused ids are not vertices in NetworkX
    labels, rec = output_of_one_run(tmp_path, "cc", shared_data / name, "--variant", variant, "--engine", "flat", *flags,
                            cast=int)
    comps = list(nx.weakly_connected_components(G) if directed else nx.connected_components(G))
    assert rec["num_components"] == len(comps)
    # The same partition: one label per component, a different one for each.
    assert len({labels[next(iter(c))] for c in comps}) == len(comps)
    for c in comps:
        assert len({labels[v] for v in c}) == 1


@pytest.mark.parametrize("seed", [5, 6])
def test_components_many_small_ones(cli, tmp_path, seed):
    """Sparse random digraphs: hundreds of weak components, no giant one to skip."""
    G = random_graph(seed, True, n=400, p=0.002)
    path = write_mtx(tmp_path / "g.mtx", G)
    for variant in ("afforest", "sv"):
        labels, rec = output_of_one_run(tmp_path, "cc", path, "--variant", variant, cast=int)
        comps = list(nx.weakly_connected_components(G))
        assert rec["num_components"] == len(comps)
        for c in comps:
            assert len({labels[v] for v in c}) == 1


def test_components_variant_decides_the_engine(cli, tmp_path):
    """sv runs flat only, lp on the NUMA engine only: engine auto follows the
    variant, an explicit contradiction is a usage error that says what to do."""
    path = write_mtx(tmp_path / "g.mtx", random_graph(8, True, n=300, p=0.01))
    want = run_json("cc", path, "--variant", "afforest", "--engine", "flat")[-1]["num_components"]
    for variant, engine, ran in (("sv", "auto", "flat"), ("lp", "auto", "numa"), ("afforest", "numa", "numa")):
        rec = run_json("cc", path, "--variant", variant, "--engine", engine, "--verify")[-1]
        assert rec["variant"] == variant and rec["engine"] == ran
        assert rec["verified"] is True and rec["num_components"] == want
    proc = run_cli("cc", path, "--variant", "sv", "--engine", "numa", check=False)
    assert proc.returncode == 2 and "--engine flat" in proc.stderr, proc.stderr
    proc = run_cli("cc", path, "--variant", "lp", "--engine", "flat", check=False)
    assert proc.returncode == 2 and "--engine numa" in proc.stderr, proc.stderr
    proc = run_cli("cc", path, "--variant", "sv", "--account", check=False)
    assert proc.returncode == 2 and "--account" in proc.stderr, proc.stderr
