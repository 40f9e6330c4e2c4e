"""A graph read with vertex names keeps them through .ngr in Python:
Graph.save("x.ngr") then numagraph.read gives the same g.nodes, and kernels on
the loaded graph answer in names (checked against NetworkX)."""
import networkx as nx

import numagraph as ng
from harness import NAMES_TSV, nx_names_graph


def test_save_ngr_and_read_keep_the_names(tmp_path):
    g = ng.read(NAMES_TSV, header=True, directed=True)
    g.save(tmp_path / "names.ngr")
    h = ng.read(tmp_path / "names.ngr")
    assert list(h.nodes) == list(g.nodes) and "mary ann" in h.nodes
    G = nx_names_graph()
    depth = ng.bfs(h, "mary ann", as_frame=True)["depth"].to_dict()
    reached = nx.single_source_shortest_path_length(G, "mary ann")
    assert depth == {v: reached.get(v, -1) for v in G}


def test_reordered_names_round_trip(tmp_path):
    r = ng.read(NAMES_TSV, header=True, directed=True).reorder("rcm")
    r.save(tmp_path / "rcm.ngr")
    h = ng.read(tmp_path / "rcm.ngr")
    assert sorted(h.nodes) == sorted(nx_names_graph())
    cc = ng.connected_components(h, as_frame=True)["component"].to_dict()
    groups = {}
    for name, rep in cc.items():
        groups.setdefault(rep, set()).add(name)
    expected = {frozenset(c) for c in nx.weakly_connected_components(nx_names_graph())}
    assert {frozenset(s) for s in groups.values()} == expected
