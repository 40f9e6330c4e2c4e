"""Every real-world file shape of tests/file_shapes.py through numagraph.read:
the graph NetworkX builds from the same data, the decisions the CLI reports,
and one InputNote that says them."""
import warnings

import numpy as np
import pytest

import numagraph as ng
from file_shapes import SHAPES, nx_graph, write_shape


def read_with_notes(path):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        g = ng.read(path)
    return g, [str(w.message) for w in said if issubclass(w.category, ng.InputNote)]


def plain(x):
    return x.item() if hasattr(x, "item") else x


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_read_decides_as_the_cli_and_builds_networkx_graph(tmp_path, name):
    if name == "parquet":
        pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install numagraph[dataframe])")
    shape = write_shape(name, tmp_path)
    g, notes = read_with_notes(shape.path)
    G = nx_graph(shape)
    ids = g.vertex_ids()
    ids = [plain(v) for v in (ids.tolist() if isinstance(ids, np.ndarray) else ids)]
    assert set(ids) == set(G.nodes)
    assert g.directed and g.num_edges == G.number_of_edges()
    edges = g.to_pandas()
    got = {(plain(u), plain(v)) for u, v in zip(edges["source"].astype(object), edges["target"].astype(object))}
    assert got == set(G.edges())
    weighted = any(len(e) == 3 for e in shape.edges)
    assert g.weighted == weighted
    if weighted:
        w = {(plain(u), plain(v)): float(x) for u, v, x in zip(edges["source"].astype(object),
                                                              edges["target"].astype(object), edges["weight"])}
        assert w == {(u, v): d["weight"] for u, v, d in G.edges(data=True)}
    assert len(notes) == 1, notes  # everything decided, said once
    if shape.cli:
        for key, value in shape.expected.items():
            have = g.decisions.get(key)
            if value is None:
                assert have is None, (key, have)
            else:
                assert have == value, (key, have, value)
        text = notes[0]
        assert "--" not in text  # the Python spelling of every flag


def test_explicit_arguments_settle_the_questions(tmp_path):
    shape = write_shape("pandas_no_index", tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ng.InputNote)
        g = ng.read(shape.path, header=True, weight=None, directed=True, relabel=True,
                    drop_self_loops=True, dedupe=True)
    assert not g.weighted and g.relabelled


def test_weight_column_by_name_and_by_number(tmp_path):
    shape = write_shape("pandas_no_index", tmp_path)  # user_a,user_b,since
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ng.InputNote)
        by_name = ng.read(shape.path, weight="since")
        by_number = ng.read(shape.path, weight=3)
    assert by_name.weighted and by_number.weighted
    np.testing.assert_array_equal(by_name.weights, by_number.weights)
    assert set(by_name.weights.tolist()) <= set(range(2015, 2021))
