"""numagraph.read of CSV/TSV files: headers, string names as Graph.nodes,
kernels taking and returning names; checked against NetworkX graphs built
from the same files with the csv module."""
import csv
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import numagraph as ng

DATA = Path(__file__).resolve().parents[1] / "data"


def nx_from_csv(path, delimiter, ids=str, directed=True):
    G = nx.DiGraph() if directed else nx.Graph()
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter=delimiter))[1:]  # both test files have a header
    for r in rows:
        G.add_edge(ids(r[0]), ids(r[1]), **({"weight": float(r[2])} if len(r) > 2 else {}))
    return G


def as_nx(g):
    G = nx.DiGraph() if g.directed else nx.Graph()
    ids = g.vertex_ids()
    ids = ids.tolist() if isinstance(ids, np.ndarray) else ids
    G.add_nodes_from(ids)
    indptr, indices = g.indptr, g.indices
    for v in range(g.num_vertices):
        for k in range(indptr[v], indptr[v + 1]):
            G.add_edge(ids[v], ids[indices[k]])
    return G


def test_names_tsv_equals_networkx():
    g = ng.read(DATA / "tiny_names.tsv")
    expected = nx_from_csv(DATA / "tiny_names.tsv", "\t")
    assert g.nodes[:3] == ["alice", "bob", "carol"]  # first appearance
    assert "mary ann" in g.nodes
    G = as_nx(g)
    assert set(G.nodes) == set(expected.nodes) and set(G.edges) == set(expected.edges)


def test_header_csv_with_integer_ids_and_weights():
    g = ng.read(DATA / "tiny_header.csv", header=None)
    assert g.nodes is None and g.weighted
    expected = nx_from_csv(DATA / "tiny_header.csv", ",", ids=int)
    assert g.num_edges == expected.number_of_edges()
    assert set(as_nx(g).edges) == set(expected.edges)


def test_bfs_and_cc_from_a_name():
    g = ng.read(DATA / "tiny_names.tsv", format="tsv")
    depth = g.to_dict(ng.bfs(g, "alice"))
    expected = nx.single_source_shortest_path_length(nx_from_csv(DATA / "tiny_names.tsv", "\t"), "alice")
    assert {k: d for k, d in depth.items() if d >= 0} == expected
    with pytest.raises(ng.UsageError, match="not in the graph"):
        ng.bfs(g, "Alice")


def test_names_survive_reorder():
    g = ng.read(DATA / "tiny_names.tsv", directed=False)
    r = g.reorder("degree")
    assert r.nodes == g.nodes
    assert r.to_dict(ng.bfs(r, "eve")) == g.to_dict(ng.bfs(g, "eve"))


def test_header_argument(tmp_path):
    f = tmp_path / "x.csv"
    f.write_text("src,dst\na,b\n")
    assert ng.read(f).nodes == ["a", "b"]
    assert ng.read(f, header=False).nodes == ["src", "dst", "a", "b"]
    only = tmp_path / "y.csv"
    only.write_text("source,target\n")
    with pytest.raises(ng.InputError, match=r"y.csv:1:.*only a header"):
        ng.read(only)


def test_named_graph_saves_only_where_names_fit(tmp_path):
    g = ng.read(DATA / "tiny_names.tsv")
    g.save(tmp_path / "out.csv")
    assert ng.read(tmp_path / "out.csv").num_edges == g.num_edges
    g.save(tmp_path / "out.ngr")  # .ngr keeps names too: tests/python/test_ngr_names.py
    with pytest.raises(ng.UsageError, match="vertex names"):
        g.save(tmp_path / "out.el")
