"""The double-sweep diameter through the CLI against NetworkX: a lower bound
of the start component's diameter on random and real graphs, exact on paths
and trees; every run passes the kernel's verifier."""
import networkx as nx
import pytest

from cli.cli_util import random_graph, read_mtx_undirected, write_mtx
from harness import run_json


@pytest.mark.parametrize("seed", [3, 4])
def test_diameter_bound(cli, tmp_path, seed):
    G = random_graph(seed, False, n=150, p=0.02)
    path = write_mtx(tmp_path / "g.mtx", G)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["verified"] is True
    comp = max(nx.connected_components(G), key=len)
    assert rec["diameter_lower_bound"] <= nx.diameter(G.subgraph(comp))


@pytest.mark.parametrize("make", [lambda: nx.path_graph(57), lambda: nx.random_labeled_tree(200, seed=5),
                                  lambda: nx.balanced_tree(3, 5)])
def test_diameter_exact_on_trees_and_paths(cli, tmp_path, make):
    T = nx.convert_node_labels_to_integers(make())
    path = write_mtx(tmp_path / "t.mtx", T)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["diameter_lower_bound"] == nx.diameter(T)


def test_diameter_on_real_graph_is_a_bound_of_the_start_component(cli, shared_data, tmp_path):
    path = shared_data / "netscience" / "netscience.mtx"
    G = read_mtx_undirected(path)
    rec = run_json("diameter", path, "--verify", "-n", "1")[0]
    assert rec["verified"] is True
    a, b = rec["endpoints"]
    comp = G.subgraph(nx.node_connected_component(G, a))
    assert b in comp
    assert nx.shortest_path_length(G, a, b) == rec["diameter_lower_bound"] <= nx.diameter(comp)
